import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { spellingsOf, subscriptionMachine } from "@/lib/status/machine";

/*
 * Dunning: a subscription's renewal left unpaid or failed is worked on the sales recovery list
 * (lib/sales), where "Nova cobrança" makes a fresh Pix charge for it through the console's charge
 * service. The fresh charge names the renewal in its request's `metadata.renovacao` (the renewal's
 * gateway transaction id), so the link is kept by the gateway and the ledger alike. The SQL that
 * needs both the subscriptions and the ledger lives here: lib/sales sits above lib/subscriptions
 * in the layers and reads it from here.
 */

/** The metadata key a charge made for a renewal carries, with the renewal's gateway transaction id. */
export const RENEWAL_METADATA_KEY = "renovacao";
/** The charges made for a renewal, by the renewal's gateway transaction id: literal, so the partial index `ledger_account_renewal_charge_idx` applies. */
export const madeFor = (charge: string, renewalTransactionId: SQL) =>
  sql`(${sql.raw(`${charge}.request->'metadata' ? 'renovacao' and (${charge}.request->'metadata'->>'renovacao')`)} = ${renewalTransactionId})`;

const quoted = (values: readonly string[]) => values.map((v) => `'${v.replace(/'/g, "''")}'`).join(", ");
/** The gateway's own subscription status reads as canceled (subscriptionMachine's spellings). */
export const SUBSCRIPTION_CANCELED = sql.raw(
  `upper(regexp_replace(trim(coalesce(s.gateway_status, '')), '[\\s-]+', '_', 'g')) in (${quoted(spellingsOf(subscriptionMachine, "canceled"))})`,
);

/**
 * A lateral join naming, for the ledger row aliased `ledger`, its subscription when the row is a
 * renewal: a charge after the first one of its subscription that fell due (`renewalsOf` in
 * figures.ts: charges in due order, the charge number breaking ties). Columns: subscription_id,
 * subscription_identifier, subscription_product, subscription_canceled, renewal_number (the
 * charge's place after the first: 1 = the first renewal). No row when it is not a renewal.
 */
export function renewalJoin(ledger: string): SQL {
  const l = sql.raw(ledger);
  return sql`left join lateral (
    select sc.subscription_id, s.identifier as subscription_identifier, s.product_name as subscription_product,
      ${SUBSCRIPTION_CANCELED} as subscription_canceled, earlier.charges as renewal_number
    from subscription_charges sc
    join subscriptions s on s.id = sc.subscription_id
    cross join lateral (
      select count(*) as charges from subscription_charges p
      join ledger_transactions pl on pl.account_id = p.account_id and pl.gateway_transaction_id = p.gateway_transaction_id
      where p.account_id = sc.account_id and p.subscription_id = sc.subscription_id and p.gateway_transaction_id <> sc.gateway_transaction_id
        and (pl.created_at < ${l}.created_at
          or (pl.created_at = ${l}.created_at and coalesce(p.charge_number, 2147483647) < coalesce(sc.charge_number, 2147483647)))
    ) earlier
    where sc.account_id = ${l}.account_id and sc.gateway_transaction_id = ${l}.gateway_transaction_id and earlier.charges > 0
    limit 1
  ) renewal on true`;
}

export type RenewalOf = {
  subscriptionId: string;
  subscriptionIdentifier: string | null;
  product: string | null;
  /** 1 = the subscription's first renewal (its second charge). */
  number: number;
  gatewayTransactionId: string;
  amountCents: number | null;
  currency: string;
  client: { name: string | null; email: string | null; document: string | null; phone: string | null };
};

/** The renewal a ledger row of this account is, with what a fresh charge for it needs; null when it is not one. */
export async function renewalOf(accountId: string, ledgerId: string): Promise<RenewalOf | null> {
  const db = await getDb();
  const result = await db.execute<{
    subscription_id: string;
    subscription_identifier: string | null;
    subscription_product: string | null;
    renewal_number: string | number;
    gateway_transaction_id: string;
    amount_cents: string | number | null;
    currency: string;
    client_name: string | null;
    client_email: string | null;
    client_document: string | null;
    client_phone: string | null;
    product_name: string | null;
  }>(sql`
    select renewal.*, l.gateway_transaction_id, l.amount_cents, l.currency, l.product_name,
      coalesce(l.client_name, s.client_name) as client_name, coalesce(l.client_email, s.client_email) as client_email,
      coalesce(l.client_document, s.client_document) as client_document,
      coalesce(nullif(l.gateway_record->'client'->>'phone', ''), notification.phone) as client_phone
    from ledger_transactions l
    ${renewalJoin("l")}
    join subscriptions s on s.id = renewal.subscription_id
    left join lateral (
      select nullif(e.payload->'client'->>'phone', '') as phone from gateway_notifications e
      where e.ledger_id = l.id and e.kind = 'payment' and coalesce(e.confirmation, '') <> 'contradicted'
      order by e.first_received_at desc limit 1
    ) notification on true
    where l.account_id = ${accountId} and l.id = ${ledgerId}`);
  const row = result.rows[0];
  if (!row) return null;
  return {
    subscriptionId: row.subscription_id,
    subscriptionIdentifier: row.subscription_identifier,
    product: row.product_name ?? row.subscription_product,
    number: Number(row.renewal_number),
    gatewayTransactionId: row.gateway_transaction_id,
    amountCents: row.amount_cents === null ? null : Number(row.amount_cents),
    currency: row.currency,
    client: { name: row.client_name, email: row.client_email, document: row.client_document, phone: row.client_phone },
  };
}

/**
 * Renewals due in [from, to) recovered by `end`: the renewal, or a charge made for it by "Nova
 * cobrança" (`metadata.renovacao`), paid by `end` after a `contacted` mark on the recovery list
 * on either of them. Counted once per renewal; the amount is what was paid (the first payment),
 * in BRL only (currencies are never added; a renewal in another currency counts, adding nothing).
 * The sales overview's recovered revenue counts the same payments as sales paid after a contact.
 * Reads the subscriptions' summaries (which charges are renewals, and when they fell due): a page
 * settles them first (settleSummaries).
 */
export async function recoveredRenewals(
  accountId: string,
  period: { from: Date; to: Date },
  end: Date,
): Promise<{ count: number; amountCents: number }> {
  const db = await getDb();
  // Driven by the account's contacts (few), not by its renewals (a month of 100,000 subscriptions
  // has about as many): the rows contacted, the renewal each is or was made for, then the renewals
  // of the period among them (their summaries' renewal flag and due time, subscription_charges).
  const result = await db.execute<{ count: string | number; cents: string | number | null }>(sql`
    with contacted as (
      select m.ledger_id, min(m.at) as at from recovery_marks m
      -- A contact on a renewal due in the period (or on a charge made for it) is made after it fell due, and counts before a payment by the end.
      where m.account_id = ${accountId} and m.state = 'contacted' and m.at >= ${period.from} and m.at < ${end}
      group by m.ledger_id
    ),
    targets as (
      select c.at, marked.gateway_transaction_id from contacted c
      join ledger_transactions marked on marked.id = c.ledger_id and marked.account_id = ${accountId}
      union all
      select c.at, marked.request->'metadata'->>'renovacao' from contacted c
      join ledger_transactions marked on marked.id = c.ledger_id and marked.account_id = ${accountId}
      where marked.request->'metadata' ? 'renovacao'
    ),
    renewals as (
      select l.id, l.gateway_transaction_id, min(t.at) as contacted_at
      from targets t
      join subscription_charges sc on sc.account_id = ${accountId} and sc.gateway_transaction_id = t.gateway_transaction_id
      join ledger_transactions l on l.account_id = sc.account_id and l.gateway_transaction_id = sc.gateway_transaction_id
      where sc.renewal and sc.due_at >= ${period.from} and sc.due_at < ${period.to}
      group by l.id, l.gateway_transaction_id
    ),
    payments as (
      -- The renewal itself and the charges made for it, paid after the first contact on either.
      select r.id as renewal_id, p.paid_at, p.amount_cents, p.currency from renewals r
      join ledger_transactions p on p.id = r.id
      where p.paid_at is not null and p.paid_at <= ${end} and p.paid_at > r.contacted_at
      union all
      select r.id, p.paid_at, p.amount_cents, p.currency from renewals r
      join ledger_transactions p on p.account_id = ${accountId} and ${madeFor("p", sql`r.gateway_transaction_id`)}
      where p.paid_at is not null and p.paid_at <= ${end} and p.paid_at > r.contacted_at
    ),
    first_payment as (select distinct on (renewal_id) * from payments order by renewal_id, paid_at)
    select count(*) as count, coalesce(sum(case when currency = 'BRL' then amount_cents else 0 end), 0) as cents from first_payment`);
  const row = result.rows[0];
  return { count: Number(row?.count ?? 0), amountCents: Number(row?.cents ?? 0) };
}
