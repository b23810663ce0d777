import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { NOTIFICATION_TARGET } from "@/lib/submissions/checks";

/**
 * Where a notification about a transaction the ledger does not have stands:
 * "waiting": the gateway is being asked (next lookup at `nextCheckAt`);
 * "absent": the gateway does not know the transaction;
 * "different": the gateway knows it and says something else (another status or identifier);
 * "needs_person": the gateway gave no usable answer within the give-up time.
 */
export type UnconfirmedState = "waiting" | "absent" | "different" | "needs_person";

export type UnconfirmedNotification = {
  id: string;
  event: string | null;
  status: string | null;
  gatewayTransactionId: string | null;
  identifier: string | null;
  paymentMethod: string | null;
  amountCents: number | null;
  deliveries: number;
  firstReceivedAt: Date;
  lastReceivedAt: Date;
  state: UnconfirmedState;
  nextCheckAt: Date | null;
  /** Seconds until the next lookup by the database's clock (0: due now), null when none is scheduled. */
  nextCheckInSeconds: number | null;
  attempts: number;
};

export type UnconfirmedCounts = Record<UnconfirmedState, number> & { total: number };

/**
 * Payment notifications that reached no ledger row: waiting for the gateway's lookup, or
 * contradicted by it (absent or different), or unanswered. The ledger keeps only what the console
 * created and what the gateway confirmed; these stay here and in the webhook inbox.
 */
const UNCONFIRMED = sql`
  from gateway_notifications e
  left join lateral (
    select c.state, c.next_at, c.attempts, c.last_outcome from gateway_checks c
    where c.target = ${NOTIFICATION_TARGET} and c.target_id = e.account_id || ':' || e.gateway_transaction_id
    order by c.created_at desc limit 1
  ) c on true`;

const STATE = sql`case
    when e.confirmation = 'contradicted' then case when c.last_outcome = 'absent' then 'absent' else 'different' end
    when c.state = 'needs_person' then 'needs_person'
    else 'waiting' end`;

const scope = (accountId: string) =>
  sql`e.account_id = ${accountId} and e.kind = 'payment' and e.ledger_id is null and e.confirmation in ('confirming', 'contradicted')`;

type Row = {
  id: string;
  event: string | null;
  status: string | null;
  gateway_transaction_id: string | null;
  identifier: string | null;
  payment_method: string | null;
  amount_cents: string | number | null;
  deliveries: number;
  first_received_at: string | Date;
  last_received_at: string | Date;
  state: UnconfirmedState;
  next_at: string | Date | null;
  next_in_s: number | null;
  attempts: number | null;
};

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** Newest first; `state` narrows to one situation. */
export async function listUnconfirmedNotifications(
  accountId: string,
  options: { limit?: number; state?: UnconfirmedState } = {},
): Promise<UnconfirmedNotification[]> {
  const db = await getDb();
  const limit = Math.min(Math.max(options.limit ?? 100, 1), 500);
  const rows = rowsOf<Row>(
    await db.execute(sql`
      select * from (
        select e.id, e.event, e.status, e.gateway_transaction_id, e.identifier, e.payment_method, e.amount_cents, e.deliveries,
          e.first_received_at, e.last_received_at, e.feed_seq, ${STATE} as state,
          case when c.state = 'pending' then c.next_at end as next_at,
          case when c.state = 'pending' then greatest(0, ceil(extract(epoch from c.next_at - now())))::int end as next_in_s, c.attempts
        ${UNCONFIRMED}
        where ${scope(accountId)}
      ) u
      ${options.state ? sql`where u.state = ${options.state}` : sql``}
      order by u.first_received_at desc, u.feed_seq desc
      limit ${limit}`),
  );
  return rows.map((r) => ({
    id: r.id,
    event: r.event,
    status: r.status,
    gatewayTransactionId: r.gateway_transaction_id,
    identifier: r.identifier,
    paymentMethod: r.payment_method,
    amountCents: r.amount_cents === null ? null : Number(r.amount_cents),
    deliveries: Number(r.deliveries),
    firstReceivedAt: new Date(r.first_received_at),
    lastReceivedAt: new Date(r.last_received_at),
    state: r.state,
    nextCheckAt: r.next_at === null ? null : new Date(r.next_at),
    nextCheckInSeconds: r.next_in_s === null ? null : Number(r.next_in_s),
    attempts: Number(r.attempts ?? 0),
  }));
}

export async function countUnconfirmedNotifications(accountId: string): Promise<UnconfirmedCounts> {
  const db = await getDb();
  const rows = rowsOf<{ state: UnconfirmedState; n: number }>(
    await db.execute(sql`select ${STATE} as state, count(*)::int as n ${UNCONFIRMED} where ${scope(accountId)} group by 1`),
  );
  const counts: UnconfirmedCounts = { waiting: 0, absent: 0, different: 0, needs_person: 0, total: 0 };
  for (const row of rows) {
    counts[row.state] = Number(row.n);
    counts.total += Number(row.n);
  }
  return counts;
}

/**
 * Payments the console heard were paid and waits to confirm by the gateway's lookup: ledger rows with a
 * parked status, and payment notifications about transactions it has no row of (checkout sales). Those
 * whose check was handed to a person are not "confirmando": they are listed under Não confirmadas.
 */
export async function countAwaitingConfirmation(accountId: string): Promise<number> {
  const db = await getDb();
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`
      select
        (select count(*) from ledger_transactions l
          where l.account_id = ${accountId} and l.pending_status is not null
            and not exists (select 1 from gateway_checks c
              where c.target = 'ledger' and c.target_id = l.id::text and c.state = 'needs_person'))
        + (select count(distinct e.gateway_transaction_id) from gateway_notifications e
          where ${scope(accountId)} and e.confirmation = 'confirming'
            and not exists (select 1 from gateway_checks c
              where c.target = ${NOTIFICATION_TARGET} and c.target_id = e.account_id || ':' || e.gateway_transaction_id
                and c.state = 'needs_person'))
        as n`),
  );
  return Number(row?.n ?? 0);
}
