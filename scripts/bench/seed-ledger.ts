/**
 * Ledger rows for charges the console created (submitted through its forms, the gateway's creation
 * answer recorded), for the benchmarks' setup. A payment notification about a transaction the
 * ledger does not have makes no row: it waits until the gateway's lookup by id confirms it
 * (lib/reconcile/notifications.ts). Benchmarks of the receiver and the applier therefore seed the
 * transactions their deliveries name first, so that each delivery updates an existing row, as in
 * production. Direct inserts: the forms are not what is measured.
 */
import { sql, type SQL } from "drizzle-orm";

export type SeededCharge = {
  gatewayTransactionId: string;
  identifier: string;
  amountCents: number;
  paymentMethod?: "PIX" | "CREDIT_CARD";
  /** ISO time; now when absent. */
  createdAt?: string;
};

const COLUMNS =
  "account_id, kind, identifier, origin, submission, gateway_transaction_id, status, status_source, status_at, payment_method, amount_cents, currency, client_name, client_email, client_document, created_at, updated_at";
const VALUES = `case when r.payment_method = 'CREDIT_CARD' then 'card_charge' else 'pix_charge' end, r.identifier, 'console', 'SUBMITTED',
  r.gateway_transaction_id, 'OK', 'creation', r.created_at, r.payment_method, r.amount_cents, 'BRL', 'Maria Souza', 'maria@example.com',
  '529.982.247-25', r.created_at, r.created_at`;
const RECORD = "gateway_transaction_id text, identifier text, amount_cents bigint, payment_method text, created_at timestamptz";

/** The JSON the statement reads (one parameter, whatever the number of rows). */
export function seededChargesJson(charges: SeededCharge[]): string {
  const now = new Date().toISOString();
  return JSON.stringify(
    charges.map((c) => ({
      gateway_transaction_id: c.gatewayTransactionId,
      identifier: c.identifier,
      amount_cents: c.amountCents,
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
