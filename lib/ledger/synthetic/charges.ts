/**
 * Ledger rows for charges the console created (submitted through its forms, the gateway's creation
 * answer recorded), for the benchmarks' setup. A payment notification about a transaction the
 * ledger does not have makes no row: it waits until the gateway's lookup by id confirms it
 * (lib/ledger/notifications.ts). Benchmarks of the receiver and the applier therefore seed the
 * transactions their deliveries name first, so that each delivery updates an existing row, as in
 * production. Direct inserts: the forms are not what is measured.
 */
import { sql, type SQL } from "drizzle-orm";

export type SeededCharge = {
  gatewayTransactionId: string;
  identifier: string;
  amountCents: number;
  paymentMethod?: "PIX" | "CREDIT_CARD";
  /** The creation answer's `fee` (a required field), in cents; none recorded when absent. */
  feeCents?: number;
  /** ISO time; now when absent. */
  createdAt?: string;
};

const COLUMNS =
  "account_id, kind, identifier, origin, submission, gateway_transaction_id, status, status_source, status_at, payment_method, amount_cents, fee_cents, currency, client_name, client_email, client_document, product_name, request, response, created_at, updated_at";
// The request as the console stores it and the gateway's creation answer (about 1 KB of JSON, as on
// a real row: it makes the rows as wide as production's, which decides how many share a page).
const REQUEST = `jsonb_build_object('identifier', r.identifier, 'amount', r.amount_cents / 100.0, 'paymentMethod', r.payment_method,
  'client', jsonb_build_object('name', 'Maria Souza', 'email', 'maria@example.com', 'phone', '(11) 98888-7777', 'document', '529.982.247-25'),
  'products', jsonb_build_array(jsonb_build_object('id', 'curso-online', 'name', 'Curso online', 'quantity', 1, 'price', r.amount_cents / 100.0)),
  'callbackUrl', 'https://console.example/api/webhooks/acct')`;
const RESPONSE = `jsonb_build_object('transactionId', r.gateway_transaction_id, 'status', 'OK', 'fee', r.fee_cents / 100.0,
  'order', jsonb_build_object('id', 'ord_' || r.identifier, 'url', 'https://gw.example/order/' || r.identifier, 'receiptUrl', 'https://gw.example/receipt/' || r.identifier),
  'pix', jsonb_build_object('code', '00020101021226830014br.gov.bcb.pix2561qrcodes.gw.example/v2/cobv/' || r.gateway_transaction_id || '5204000053039865802BR5913Loja Exemplo6009SAO PAULO62070503***6304ABCD',
    'image', 'https://gw.example/qr/' || r.gateway_transaction_id || '.png', 'base64', ''))`;
const VALUES = `case when r.payment_method = 'CREDIT_CARD' then 'card_charge' else 'pix_charge' end, r.identifier, 'console', 'SUBMITTED',
  r.gateway_transaction_id, 'OK', 'creation', r.created_at, r.payment_method, r.amount_cents, r.fee_cents, 'BRL', 'Maria Souza', 'maria@example.com',
  '529.982.247-25', 'Curso online', ${REQUEST}, ${RESPONSE}, r.created_at, r.created_at`;
const RECORD =
  "gateway_transaction_id text, identifier text, amount_cents bigint, fee_cents bigint, payment_method text, created_at timestamptz";

/** The JSON the statement reads (one parameter, whatever the number of rows). */
export function seededChargesJson(charges: SeededCharge[]): string {
  const now = new Date().toISOString();
  return JSON.stringify(
    charges.map((c) => ({
      gateway_transaction_id: c.gatewayTransactionId,
      identifier: c.identifier,
      amount_cents: c.amountCents,
      fee_cents: c.feeCents ?? null,
      payment_method: c.paymentMethod ?? "PIX",
      created_at: c.createdAt ?? now,
    })),
  );
}

/** The insert with `account` and `json` as the SQL of its two values (placeholders such as `$1`, `$2`). */
export function seedLedgerStatement(account: string, json: string): string {
  return `insert into ledger_transactions (${COLUMNS})
    select ${account}, ${VALUES} from jsonb_to_recordset(${json}::jsonb) as r(${RECORD})
    on conflict do nothing`;
}

type Client = { query: (text: string, params: unknown[]) => Promise<unknown> };

/** Seeds through a node-postgres client or pool, in chunks of 5,000 rows. */
export async function seedLedger(client: Client, accountId: string, charges: SeededCharge[]): Promise<void> {
  for (let i = 0; i < charges.length; i += 5_000) {
    await client.query(seedLedgerStatement("$1", "$2"), [accountId, seededChargesJson(charges.slice(i, i + 5_000))]);
  }
}

/** The same insert for the console's own database handle (drizzle, on PGlite or Postgres). */
export function seedLedgerSql(accountId: string, charges: SeededCharge[]): SQL {
  const [head, rest] = seedLedgerStatement("\u0000account", "\u0000json").split("\u0000account");
  const [middle, tail] = rest!.split("\u0000json");
  return sql`${sql.raw(head!)}${accountId}${sql.raw(middle!)}${seededChargesJson(charges)}${sql.raw(tail!)}`;
}

/** `$3` Pix charges of R$ 97,00 the console created in account `$1`, identified `$2` + 0…, not yet answered ($1, $2, $3). */
export const CONSOLE_PIX_CHARGES = `insert into ledger_transactions (account_id, kind, identifier, origin, submission, amount_cents, currency, payment_method)
         select $1, 'pix_charge', $2 || g, 'console', 'SUBMITTED', 9700, 'BRL', 'PIX' from generate_series(0, $3 - 1) g`;

/** What a lookup that found them paid writes on the rows of account `$1` identified as in `$2`, without the lookup. */
export const CONFIRM_BY_IDENTIFIERS = `update ledger_transactions set status = 'COMPLETED', status_source = 'lookup', status_at = now(), paid_at = now(), last_lookup_status = 'COMPLETED', updated_at = now()
           where account_id = $1 and identifier = any($2)`;

/** `$3` pending Pix charges of R$ 12,34 in account `$1` for chaos run `$2` (identifiers chaos-tx_<run>_<i>, ids tx_<run>_<i>). */
export const PENDING_PIX_CHARGES = `insert into ledger_transactions (account_id, kind, identifier, origin, submission, gateway_transaction_id, status, status_source, status_at, payment_method, amount_cents)
     select $1, 'pix_charge', 'chaos-tx_' || $2 || '_' || i, 'console', 'SUBMITTED', 'tx_' || $2 || '_' || i, 'PENDING', 'creation', now(), 'PIX', 1234
       from generate_series(0, $3::int - 1) as i`;
