import "server-only";
import { and, eq, ilike, lt, or, sql, type SQL } from "drizzle-orm";
import { writeAudit } from "@/lib/audit/log";
import { getDb } from "@/lib/db/client";
import { subscriptionCharges, subscriptions, subscriptionSettings } from "@/lib/db/schema";
import { stateRulesSchema } from "./rules-schema";
import { addPeriods, startOfSaoPauloDay, type CalendarDate } from "./periods";
import type { PeriodFigures, CohortRow, Period } from "./figures";
import type { StateName, StateRules } from "./rules";
import { recoveredRenewals } from "./dunning";
import { COHORT_MONTHS, pendingRecalcs, queueAccountRecalc, recalculateSummaries, SPAN_COLUMNS } from "./summaries";
import { chargesOf, subscriptionColumns, subscriptionRules, viewOf, type SubscriptionView } from "./views";

export type { SubscriptionCharge, SubscriptionRow, SubscriptionView } from "./views";
export { subscriptionRules } from "./views";

/**
 * Reads of the subscriptions the console created or learned, for the pages: the list filters and
 * the figures add up in SQL over each subscription's summary (lib/subscriptions/summaries.ts); the
 * rows shown get their charges and their state worked out by lib/subscriptions/rules.ts. Every
 * query is scoped to one account; callers check the permission.
 */

/** Sets the account's grace days and periods before lost (validated again here); audited. */
export async function setSubscriptionRules(
  accountId: string,
  input: StateRules,
  actor: { id: string; email: string } | null = null,
  ip: string | null = null,
): Promise<void> {
  const rules = stateRulesSchema.parse(input);
  const db = await getDb();
  const values = { accountId, ...rules, updatedAt: new Date() };
  await db.insert(subscriptionSettings).values(values).onConflictDoUpdate({ target: subscriptionSettings.accountId, set: values });
  await queueAccountRecalc(accountId);
  await writeAudit({ actor, accountId, action: "subscriptions.rules_updated", details: rules, ip });
}

export type SubscriptionFilters = {
  state?: StateName;
  /** The payment method as stored (`PIX`, `CREDIT_CARD`, `CRYPTO`…). */
  method?: string;
  /** Product name, exactly. */
  product?: string;
  /** Part of the customer's name, e-mail or document. */
  customer?: string;
};

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Subscriptions reading `state` at `at`, from their summaries ("desconhecido": none of the others). */
function inState(state: StateName, at: Date): SQL {
  const instant = sql`${at.toISOString()}::timestamptz`;
  if (state !== "unknown") return sql`${SPAN_COLUMNS[state]} @> ${instant}`;
  return sql`not (${sql.join(
    Object.values(SPAN_COLUMNS).map((spans) => sql`${spans} @> ${instant}`),
    sql` or `,
  )})`;
}

const LIST_PAGE = 500;

/**
 * Brings the account's summaries up to date before a page reads them: takes what is queued for it,
 * within about a second (the background job takes the rest). Returns how many are still queued.
 */
export async function settleSummaries(accountId: string, budgetMs = 1_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < budgetMs) {
    const taken = await recalculateSummaries({ accountId, limit: LIST_PAGE });
    // Nothing queued (the usual page load): no count to make.
    if (taken === 0) return 0;
    if (taken < LIST_PAGE) break;
  }
  return pendingRecalcs(accountId);
}

/**
 * The account's subscriptions, newest first, filtered (the state by the summaries at `now`), read
 * a page at a time; at most `limit` come back, each with its charges and its state worked out.
 */
export async function listSubscriptions(
  accountId: string,
  filters: SubscriptionFilters = {},
  options: { now?: Date; limit?: number } = {},
): Promise<SubscriptionView[]> {
  const now = options.now ?? new Date();
  const limit = options.limit ?? 200;
  const where: SQL[] = [eq(subscriptions.accountId, accountId)];
  if (filters.state) where.push(inState(filters.state, now));
  if (filters.method) where.push(eq(subscriptions.paymentMethod, filters.method));
  if (filters.product) where.push(eq(subscriptions.productName, filters.product));
  const customer = filters.customer?.trim();
  if (customer) {
    const pattern = `%${escapeLike(customer)}%`;
    where.push(
      or(
        ilike(subscriptions.clientName, pattern),
        ilike(subscriptions.clientEmail, pattern),
        ilike(subscriptions.clientDocument, pattern),
      )!,
    );
  }
  const db = await getDb();
  const rules = await subscriptionRules(accountId);
  const views: SubscriptionView[] = [];
  // Newest first by the start time as recorded (none last), then id: the key of the next page.
  let after: { startedAt: Date | null; id: string } | null = null;
  while (views.length < limit) {
    const page: SQL[] = [...where];
    if (after) {
      const { startedAt, id } = after;
      page.push(
        startedAt === null
          ? and(sql`${subscriptions.startedAt} is null`, lt(subscriptions.id, id))!
          : or(
              sql`${subscriptions.startedAt} is null`,
              lt(subscriptions.startedAt, startedAt),
              and(eq(subscriptions.startedAt, startedAt), lt(subscriptions.id, id)),
            )!,
      );
    }
    const rows = await db
      .select(subscriptionColumns)
      .from(subscriptions)
      .where(and(...page))
      // As the index spells it (subscriptions_account_started_idx), so the page is read from it.
      .orderBy(sql`${subscriptions.startedAt} desc nulls last`, sql`${subscriptions.id} desc nulls last`)
      .limit(Math.min(LIST_PAGE, limit - views.length));
    if (rows.length === 0) break;
    const charges = await chargesOf(
      accountId,
      rows.map((row) => row.id),
    );
    for (const row of rows) views.push(viewOf(row, charges.get(row.id) ?? [], now, rules));
    const last = rows[rows.length - 1];
    after = { startedAt: last.startedAt, id: last.id };
    if (rows.length < Math.min(LIST_PAGE, limit)) break;
  }
  return views;
}

/** One subscription of the account with its charges in order, or null. */
export async function getSubscription(accountId: string, id: string, now = new Date()): Promise<SubscriptionView | null> {
  const db = await getDb();
  const [row] = await db
    .select(subscriptionColumns)
    .from(subscriptions)
    .where(and(eq(subscriptions.accountId, accountId), eq(subscriptions.id, id)))
    .limit(1);
  if (!row) return null;
  const charges = await chargesOf(accountId, [row.id]);
  return viewOf(row, charges.get(row.id) ?? [], now, await subscriptionRules(accountId));
}

/** The methods and products the account's subscriptions have, for the list's filters. */
export async function subscriptionFacets(accountId: string): Promise<{ methods: string[]; products: string[] }> {
  const db = await getDb();
  const rows = await db
    .selectDistinct({ method: subscriptions.paymentMethod, product: subscriptions.productName })
    .from(subscriptions)
    .where(eq(subscriptions.accountId, accountId));
  const sorted = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => v !== null))].sort();
  return { methods: sorted(rows.map((r) => r.method)), products: sorted(rows.map((r) => r.product)) };
}

export type SubscriptionFigures = PeriodFigures & {
  /** Subscriptions the figures read (all of the account's). */
  subscriptions: number;
  /** Renewals due in the period recovered after a contact on the recovery list (lib/subscriptions/dunning.ts). */
  recoveredRenewals: { count: number; amountCents: number };
  cohorts: CohortRow[];
};

const at = (instant: Date) => sql`${instant.toISOString()}::timestamptz`;
const num = (value: unknown) => Number(value ?? 0);

/**
 * The period's figures, added up in SQL over the summaries; what each one counts is
 * lib/subscriptions/figures.ts's `periodFigures` (the pure reference the tests hold this to).
 */
export async function periodFiguresOf(accountId: string, period: Period, now: Date): Promise<PeriodFigures & { subscriptions: number }> {
  const db = await getDb();
  const end = period.to < now ? period.to : now;
  // Each subscription's containment tests once (a materialized row each), then the sums over them.
  const [[base], [renewals]] = await Promise.all([
    db
      .execute<{
        subscriptions: number;
        mrr_sum: number | null;
        mrr_counted: number;
        mrr_unknown: number;
        active: number;
        new_subscribers: number;
        churned: number;
        churned_mrr: number | null;
      }>(
        sql`
        with s as materialized (
          select monthly_cents, since is null or since < ${at(end)} as started_by_end, since is null or since <= ${at(end)} as started_at_end,
            since >= ${at(period.from)} and since < ${at(end)} as new_in_period,
            churned_spans @> ${at(end)} as churned_end, churned_spans @> ${at(period.from)} as churned_from,
            active_spans @> ${at(end)} as active_end
          from subscriptions where account_id = ${accountId})
        select count(*)::int as subscriptions,
          sum(monthly_cents) filter (where started_at_end and not churned_end) as mrr_sum,
          count(*) filter (where started_at_end and not churned_end and monthly_cents is not null)::int as mrr_counted,
          count(*) filter (where started_at_end and not churned_end and monthly_cents is null)::int as mrr_unknown,
          count(*) filter (where started_by_end and active_end)::int as active,
          count(*) filter (where new_in_period)::int as new_subscribers,
          count(*) filter (where started_by_end and churned_end and not churned_from)::int as churned,
          sum(monthly_cents) filter (where started_by_end and churned_end and not churned_from) as churned_mrr
        from s`,
      )
      .then((result) => result.rows),
    db
      .execute<{ failed: number; unpaid: number }>(
        sql`
        select count(*) filter (where failed)::int as failed,
          count(*) filter (where not failed and (paid_at is null or paid_at > ${at(end)}))::int as unpaid
        from ${subscriptionCharges}
        where account_id = ${accountId} and renewal and due_at >= ${at(period.from)} and due_at < ${at(period.to)}`,
      )
      .then((result) => result.rows),
  ]);
  return {
    subscriptions: num(base?.subscriptions),
    mrr: { cents: Math.round(num(base?.mrr_sum)), counted: num(base?.mrr_counted), unknownAmount: num(base?.mrr_unknown) },
    active: num(base?.active),
    newSubscribers: num(base?.new_subscribers),
    churned: { count: num(base?.churned), mrrCents: Math.round(num(base?.churned_mrr)) },
    failedRenewals: num(renewals?.failed),
    unpaidRenewals: num(renewals?.unpaid),
  };
}

/** The cohort table from the summaries; what it counts is lib/subscriptions/figures.ts's `cohorts`. */
export async function cohortsOf(accountId: string, now: Date): Promise<CohortRow[]> {
  const db = await getDb();
  const bits = Array.from({ length: COHORT_MONTHS }, (_, k) => sql`sum((retained_mask >> ${sql.raw(String(k))}) & 1)::int`);
  const rows = (
    await db.execute<{ month: string; subscribers: number; last_day: string; retained: number[] }>(sql`
      select cohort_month as month, count(*)::int as subscribers, max(since_day)::text as last_day,
        array[${sql.join(bits, sql`, `)}] as retained
      from subscriptions
      where account_id = ${accountId} and cohort_month is not null and since <= ${at(now)}
      group by cohort_month order by cohort_month`)
  ).rows;
  return rows.map((row) => {
    // A month reads once every subscriber of the cohort reached it: the last to start reaches it last.
    const [year, month, day] = row.last_day.split("-").map(Number);
    const last: CalendarDate = { year, month, day };
    return {
      month: row.month,
      subscribers: num(row.subscribers),
      retained: row.retained.map((still, k) =>
        startOfSaoPauloDay(addPeriods(last, "MONTHS", k + 1)) > now ? null : num(still) / num(row.subscribers),
      ),
    };
  });
}

/** The month's figures and the cohort table, as the page shows them. */
export async function subscriptionFigures(accountId: string, period: Period, now: Date): Promise<SubscriptionFigures> {
  const end = period.to < now ? period.to : now;
  const [figures, recovered, cohorts] = await Promise.all([
    periodFiguresOf(accountId, period, now),
    recoveredRenewals(accountId, period, end),
    cohortsOf(accountId, now),
  ]);
  return { ...figures, recoveredRenewals: recovered, cohorts };
}
