import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { ledgerTransactions as lt } from "@/lib/db/schema";
import { webhookEvents } from "@/lib/db/tables/webhooks";

const ZONE = sql.raw(`'America/Sao_Paulo'`);
/** Start of the São Paulo day `daysAgo` days before today, as an instant. */
const dayStartText = (daysAgo: number) =>
  `((date_trunc('day', now() at time zone 'America/Sao_Paulo') - interval '${daysAgo} days') at time zone 'America/Sao_Paulo')`;
const dayStart = (daysAgo: number) => sql.raw(dayStartText(daysAgo));

export const OVERVIEW_PERIODS = [
  { key: "today", daysAgo: 0 },
  { key: "week", daysAgo: 6 },
  { key: "month", daysAgo: 29 },
] as const;
export type OverviewPeriodKey = (typeof OVERVIEW_PERIODS)[number]["key"];

export type PeriodFigures = {
  createdCount: number;
  createdCents: number;
  paidCount: number;
  paidCents: number;
  refundedCount: number;
  refundedCents: number;
  chargedBackCount: number;
  chargedBackCents: number;
};

type Rows<T> = { rows: T[] };

/**
 * Created = recorded in the ledger in the period. Paid = `paidAt` in the period (the `payedAt`
 * of a lookup or notification) or, without it, the first TRANSACTION_PAID notification for the
 * row; never guessed from a status name. Refunds and chargebacks = TRANSACTION_REFUNDED / TRANSACTION_CHARGED_BACK
 * notifications first received in the period, one per transaction.
 */
export async function overviewFigures(accountId: string): Promise<Record<OverviewPeriodKey, PeriodFigures>> {
  const db = await getDb();
  const ledgerSelects = OVERVIEW_PERIODS.map(
    ({ key, daysAgo }) => sql.raw(`
      count(*) filter (where created_at >= ${dayStartText(daysAgo)}) as "${key}_created_count",
      coalesce(sum(amount_cents) filter (where created_at >= ${dayStartText(daysAgo)}), 0) as "${key}_created_cents",
      count(*) filter (where paid_time >= ${dayStartText(daysAgo)}) as "${key}_paid_count",
      coalesce(sum(amount_cents) filter (where paid_time >= ${dayStartText(daysAgo)}), 0) as "${key}_paid_cents"`),
  );
  const ledger = (await db.execute(sql`
    select ${sql.join(ledgerSelects, sql`,`)}
    from (
      select l.amount_cents, l.created_at, coalesce(l.paid_at, p.at) as paid_time
      from ledger_transactions l
      left join (
        select ledger_id, min(first_received_at) as at
        from ${webhookEvents}
        where account_id = ${accountId} and event = 'TRANSACTION_PAID' and ledger_id is not null and first_received_at >= ${dayStart(29)}
        group by ledger_id
      ) p on p.ledger_id = l.id
      where l.account_id = ${accountId} and (l.created_at >= ${dayStart(29)} or l.paid_at >= ${dayStart(29)} or p.at is not null)
    ) as recent
  `)) as unknown as Rows<Record<string, string | number>>;

  const eventSelects = OVERVIEW_PERIODS.flatMap(({ key, daysAgo }) =>
    (["refunded", "charged_back"] as const).map((kind) =>
      sql.raw(`
      count(*) filter (where event = '${kind === "refunded" ? "TRANSACTION_REFUNDED" : "TRANSACTION_CHARGED_BACK"}' and at >= ${dayStartText(daysAgo)}) as "${key}_${kind}_count",
      coalesce(sum(amount_cents) filter (where event = '${kind === "refunded" ? "TRANSACTION_REFUNDED" : "TRANSACTION_CHARGED_BACK"}' and at >= ${dayStartText(daysAgo)}), 0) as "${key}_${kind}_cents"`),
    ),
  );
  const events = (await db.execute(sql`
    with firsts as (
      select distinct on (event, coalesce(gateway_transaction_id, identifier, id))
        event, amount_cents, first_received_at as at
      from ${webhookEvents}
      where account_id = ${accountId}
        and event in ('TRANSACTION_REFUNDED', 'TRANSACTION_CHARGED_BACK')
        and first_received_at >= ${dayStart(29)}
      order by event, coalesce(gateway_transaction_id, identifier, id), first_received_at
    )
    select ${sql.join(eventSelects, sql`,`)} from firsts
  `)) as unknown as Rows<Record<string, string | number>>;

  const l = ledger.rows[0] ?? {};
  const e = events.rows[0] ?? {};
  const n = (value: string | number | undefined) => Number(value ?? 0);
  return Object.fromEntries(
    OVERVIEW_PERIODS.map(({ key }) => [
      key,
      {
        createdCount: n(l[`${key}_created_count`]),
        createdCents: n(l[`${key}_created_cents`]),
        paidCount: n(l[`${key}_paid_count`]),
        paidCents: n(l[`${key}_paid_cents`]),
        refundedCount: n(e[`${key}_refunded_count`]),
        refundedCents: n(e[`${key}_refunded_cents`]),
        chargedBackCount: n(e[`${key}_charged_back_count`]),
        chargedBackCents: n(e[`${key}_charged_back_cents`]),
      },
    ]),
  ) as Record<OverviewPeriodKey, PeriodFigures>;
}

export type DailyVolume = { day: string; method: string; cents: number; count: number };

/** Volume created per São Paulo day and payment method over the last 30 days (today included). */
export async function dailyVolumeByMethod(accountId: string): Promise<{ days: string[]; rows: DailyVolume[] }> {
  const db = await getDb();
  const result = (await db.execute(sql`
    select to_char((created_at at time zone ${ZONE})::date, 'YYYY-MM-DD') as day,
           coalesce(payment_method, '—') as method,
           coalesce(sum(amount_cents), 0) as cents,
           count(*) as count
    from ledger_transactions
    where account_id = ${accountId} and created_at >= ${dayStart(29)}
    group by 1, 2
    order by 1, 2
  `)) as unknown as Rows<{ day: string; method: string; cents: string | number; count: string | number }>;
  const daysResult = (await db.execute(sql`
    select to_char(d, 'YYYY-MM-DD') as day
    from generate_series((now() at time zone ${ZONE})::date - 29, (now() at time zone ${ZONE})::date, interval '1 day') as d
  `)) as unknown as Rows<{ day: string }>;
  return {
    days: daysResult.rows.map((row) => row.day),
    rows: result.rows.map((row) => ({ day: row.day, method: row.method, cents: Number(row.cents), count: Number(row.count) })),
  };
}

/** The ledger rows touched most recently (creation, webhook or lookup). */
export async function latestActivity(accountId: string, limit = 8) {
  const db = await getDb();
  return db
    .select({
      id: lt.id,
      identifier: lt.identifier,
      status: lt.status,
      statusSource: lt.statusSource,
      paymentMethod: lt.paymentMethod,
      amountCents: lt.amountCents,
      clientName: lt.clientName,
      updatedAt: lt.updatedAt,
    })
    .from(lt)
    .where(and(eq(lt.accountId, accountId)))
    .orderBy(sql`${lt.updatedAt} desc nulls last`)
    .limit(limit);
}
