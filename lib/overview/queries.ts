import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { ledgerTransactions as lt } from "@/lib/db/schema";
import { spellingsOf, transactionMachine } from "@/lib/status/machine";

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

/** Money of one currency in a period: never summed with another currency. */
export type CurrencyFigures = {
  currency: string;
  paidCount: number;
  paidCents: number;
  refundedCount: number;
  refundedCents: number;
  chargedBackCount: number;
  chargedBackCents: number;
};
export type PeriodFigures = {
  /** Charges sent from the console and accepted by the gateway (a count, not money). */
  acceptedCount: number;
  /** BRL first, then the other currencies by name. */
  byCurrency: CurrencyFigures[];
};

const normalizedStatus = `upper(regexp_replace(trim(status), '[\\s-]+', '_', 'g'))`;
const inList = (values: string[]) => values.map((v) => `'${v.replace(/'/g, "''")}'`).join(", ");
const REFUNDED = inList(spellingsOf(transactionMachine, "refunded"));
const CHARGED_BACK = inList(spellingsOf(transactionMachine, "charged_back"));
const NOT_A_CHARGE = `kind like '%_subscription'`;

/**
 * What the gateway confirmed, never a notification alone: paid = the ledger's payment time
 * (set when a lookup, or a notification the gateway then confirmed, reported the charge paid);
 * refunded and charged back = rows whose confirmed status is that, by when it became so.
 * Subscription definitions are not money; their charges arrive as transactions.
 */
export async function overviewFigures(accountId: string): Promise<Record<OverviewPeriodKey, PeriodFigures>> {
  const db = await getDb();
  const selects = OVERVIEW_PERIODS.map(({ key, daysAgo }) => {
    const since = dayStartText(daysAgo);
    const refunded = `${normalizedStatus} in (${REFUNDED}) and status_at >= ${since}`;
    const chargedBack = `${normalizedStatus} in (${CHARGED_BACK}) and status_at >= ${since}`;
    return sql.raw(`
      count(*) filter (where paid_at >= ${since}) as "${key}_paid_count",
      coalesce(sum(amount_cents) filter (where paid_at >= ${since}), 0) as "${key}_paid_cents",
      count(*) filter (where ${refunded}) as "${key}_refunded_count",
      coalesce(sum(amount_cents) filter (where ${refunded}), 0) as "${key}_refunded_cents",
      count(*) filter (where ${chargedBack}) as "${key}_charged_back_count",
      coalesce(sum(amount_cents) filter (where ${chargedBack}), 0) as "${key}_charged_back_cents"`);
  });
  const money = await db.execute<Record<string, string | number>>(sql`
    select currency, ${sql.join(selects, sql`,`)}
    from ledger_transactions
    where account_id = ${accountId} and not (${sql.raw(NOT_A_CHARGE)})
      and (paid_at >= ${dayStart(29)} or status_at >= ${dayStart(29)})
    group by currency
  `);
  const acceptedSelects = OVERVIEW_PERIODS.map(({ key, daysAgo }) =>
    sql.raw(`count(*) filter (where created_at >= ${dayStartText(daysAgo)}) as "${key}_accepted"`),
  );
  const accepted = await db.execute<Record<string, string | number>>(sql`
    select ${sql.join(acceptedSelects, sql`,`)}
    from ledger_transactions
    where account_id = ${accountId} and origin = 'console' and submission = 'SUBMITTED'
      and not (${sql.raw(NOT_A_CHARGE)}) and created_at >= ${dayStart(29)}
  `);

  const n = (value: string | number | undefined) => Number(value ?? 0);
  const currencies = [...money.rows].sort((x, y) =>
    x.currency === "BRL" ? -1 : y.currency === "BRL" ? 1 : String(x.currency).localeCompare(String(y.currency)),
  );
  return Object.fromEntries(
    OVERVIEW_PERIODS.map(({ key }) => [
      key,
      {
        acceptedCount: n(accepted.rows[0]?.[`${key}_accepted`]),
        byCurrency: currencies
          .map((row) => ({
            currency: String(row.currency),
            paidCount: n(row[`${key}_paid_count`]),
            paidCents: n(row[`${key}_paid_cents`]),
            refundedCount: n(row[`${key}_refunded_count`]),
            refundedCents: n(row[`${key}_refunded_cents`]),
            chargedBackCount: n(row[`${key}_charged_back_count`]),
            chargedBackCents: n(row[`${key}_charged_back_cents`]),
          }))
          .filter((figures) => figures.currency === "BRL" || figures.paidCount + figures.refundedCount + figures.chargedBackCount > 0),
      },
    ]),
  ) as Record<OverviewPeriodKey, PeriodFigures>;
}

export type DailyVolume = { day: string; method: string; cents: number; count: number };

/** Paid BRL per São Paulo day (of payment) and payment method over the last 30 days (today included). */
export async function dailyVolumeByMethod(accountId: string): Promise<{ days: string[]; rows: DailyVolume[] }> {
  const db = await getDb();
  const result = await db.execute<{ day: string; method: string; cents: string | number; count: string | number }>(sql`
    select to_char((paid_at at time zone ${ZONE})::date, 'YYYY-MM-DD') as day,
           coalesce(payment_method, '—') as method,
           coalesce(sum(amount_cents), 0) as cents,
           count(*) as count
    from ledger_transactions
    where account_id = ${accountId} and currency = 'BRL' and paid_at >= ${dayStart(29)} and not (${sql.raw(NOT_A_CHARGE)})
    group by 1, 2
    order by 1, 2
  `);
  const daysResult = await db.execute<{ day: string }>(sql`
    select to_char(d, 'YYYY-MM-DD') as day
    from generate_series((now() at time zone ${ZONE})::date - 29, (now() at time zone ${ZONE})::date, interval '1 day') as d
  `);
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
      currency: lt.currency,
      clientName: lt.clientName,
      updatedAt: lt.updatedAt,
    })
    .from(lt)
    .where(and(eq(lt.accountId, accountId)))
    .orderBy(sql`${lt.updatedAt} desc nulls last`)
    .limit(limit);
}
