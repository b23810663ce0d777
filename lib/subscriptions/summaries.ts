import "server-only";
import { eq, inArray, sql } from "drizzle-orm";
import { getDb, type Tx } from "@/lib/db/client";
import { subscriptionRecalcs, subscriptions } from "@/lib/db/schema";
import { monthlyCents, renewalsOf } from "./figures";
import { addPeriods, isoDay, saoPauloDay, startOfSaoPauloDay } from "./periods";
import { recordFacts, type RecordedFact } from "@/lib/destinations/record";
import { renewalFacts, renewalOutcome } from "./events";
import { isFailed, type StateRules, type SubscriptionFacts } from "./rules";
import { inSpans, KNOWN_STATES, multirangeLiteral, stateTimeline, type KnownState, type Timeline } from "./timeline";
import { chargesOf, factsOf, rulesOf, subscriptionColumns, type SubscriptionCharge, type SubscriptionRow } from "./views";

/**
 * Each subscription's summary: its states over all time (lib/subscriptions/timeline.ts), its start
 * and cohort, its amount brought to a month, whether it was still subscribed on each of its first
 * 12 monthly anniversaries, and its charges' due and payment times. The list filters by state and
 * the figures add up in SQL from it, so a page reads 100,000 subscriptions without working out
 * 100,000 states (docs/subscriptions.md has the measurements).
 *
 * The summary is recalculated when its facts change, never because time passed: the spans already
 * hold the states the facts lead to. A change queues the subscription in `subscription_recalcs`
 * (by trigger: a subscription's facts, a charge linked, a charge's ledger row; and the account's
 * rules); the background job `subscription-summaries` and any page reading the account take the
 * queue.
 */

export type Summary = {
  facts: SubscriptionFacts;
  since: Date | null;
  sinceDay: string | null;
  cohortMonth: string | null;
  monthlyCents: number | null;
  timeline: Timeline;
  retainedMask: number | null;
  charges: {
    charge: SubscriptionCharge;
    renewal: boolean;
    failed: boolean;
    /** A renewal's confirmed outcome (paid or failed), announced to destinations once. */
    outcome: "paid" | "failed" | null;
  }[];
};

/** Months after the start at which the cohort table reads a subscriber. */
export const COHORT_MONTHS = 12;

/** The summary of one subscription from its row, its charges and the account's rules. Pure. */
export function summarize(row: SubscriptionRow, charges: readonly SubscriptionCharge[], rules: StateRules): Summary {
  const { facts, startedAt: since } = factsOf(row, charges);
  const { periodicity, charges: ordered } = facts;
  const timeline = stateTimeline(facts, rules);
  const startDay = since ? saoPauloDay(since) : null;
  let retainedMask: number | null = null;
  if (startDay) {
    retainedMask = 0;
    for (let k = 1; k <= COHORT_MONTHS; k++) {
      const at = startOfSaoPauloDay(addPeriods(startDay, "MONTHS", k));
      if (!inSpans(timeline.lost, at) && !inSpans(timeline.canceled, at)) retainedMask |= 1 << (k - 1);
    }
  }
  const renewals = new Set(renewalsOf(ordered));
  return {
    facts,
    since,
    sinceDay: startDay ? isoDay(startDay) : null,
    cohortMonth: startDay ? isoDay(startDay).slice(0, 7) : null,
    monthlyCents: monthlyCents(row.amountCents, periodicity),
    timeline,
    retainedMask,
    charges: ordered.map((charge) => {
      const renewal = renewals.has(charge);
      const failed = isFailed(charge);
      return { charge, renewal, failed, outcome: renewal ? renewalOutcome(charge, failed) : null };
    }),
  };
}

/** The summary's column of each state's spans (lost and canceled together: `churnedSpans`). */
export const SPAN_COLUMNS = {
  active: subscriptions.activeSpans,
  awaiting_payment: subscriptions.awaitingSpans,
  overdue: subscriptions.overdueSpans,
  lost: subscriptions.lostSpans,
  canceled: subscriptions.canceledSpans,
} as const satisfies Record<KnownState, unknown>;

/** Queues every subscription of an account (its rules changed). */
export async function queueAccountRecalc(accountId: string): Promise<void> {
  const db = await getDb();
  await db.execute(
    sql`insert into subscription_recalcs (account_id, subscription_id) select account_id, id from subscriptions where account_id = ${accountId}`,
  );
}

/** How many recalculations are waiting for the account. */
export async function pendingRecalcs(accountId: string): Promise<number> {
  const db = await getDb();
  const [row] = await db
    .select({ count: sql<number>`count(distinct ${subscriptionRecalcs.subscriptionId})::int` })
    .from(subscriptionRecalcs)
    .where(eq(subscriptionRecalcs.accountId, accountId));
  return row?.count ?? 0;
}

/**
 * Takes up to `limit` queued subscriptions (of one account, or of any) and writes their summaries.
 * The queue rows are deleted in the same transaction as the summaries are written, and taken with
 * `skip locked`: two workers never take the same row, and a change committed after the facts were
 * read leaves its own row for the next pass. Returns how many queue rows it took (a subscription
 * may have several): fewer than `limit` means the queue is empty.
 */
export async function recalculateSummaries(options: { accountId?: string; limit?: number } = {}): Promise<number> {
  const limit = options.limit ?? 500;
  const db = await getDb();
  return db.transaction(async (tx) => {
    const scope = options.accountId ? sql`where account_id = ${options.accountId}` : sql``;
    const taken = await tx.execute<{ account_id: string; subscription_id: string }>(sql`
      delete from subscription_recalcs where seq in (
        select seq from subscription_recalcs ${scope} order by seq limit ${limit} for update skip locked
      ) returning account_id, subscription_id`);
    const ids = [...new Set(taken.rows.map((row) => row.subscription_id))];
    if (ids.length === 0) return 0;
    // Held until the summary is written: a recalculation that read older facts can never write
    // after one that read newer ones. One held elsewhere (being learned, or recalculated) is put
    // back in the queue instead of waited for.
    const rows = await tx
      .select(subscriptionColumns)
      .from(subscriptions)
      .where(inArray(subscriptions.id, ids))
      .orderBy(subscriptions.id)
      .for("update", { skipLocked: true });
    const held = new Set(rows.map((row) => row.id));
    const busy = ids.filter((id) => !held.has(id));
    // Those that still exist (a deleted one is simply dropped).
    if (busy.length > 0)
      await tx.execute(sql`
        insert into subscription_recalcs (account_id, subscription_id)
        select account_id, id from subscriptions where id in (select jsonb_array_elements_text(${JSON.stringify(busy)}::jsonb))`);
    const byAccount = new Map<string, SubscriptionRow[]>();
    for (const row of rows) {
      const list = byAccount.get(row.accountId);
      if (list) list.push(row);
      else byAccount.set(row.accountId, [row]);
    }
    const rules = await rulesOf(tx, [...byAccount.keys()]);
    const now = new Date();
    const recorded: RecordedFact[] = [];
    const summaryRows: Record<string, unknown>[] = [];
    const chargeRows: Record<string, unknown>[] = [];
    for (const [accountId, accountRows] of byAccount) {
      const charges = await chargesOf(
        accountId,
        accountRows.map((row) => row.id),
        tx,
      );
      for (const row of accountRows) {
        const accountRules = rules.get(accountId)!;
        const summary = summarize(row, charges.get(row.id) ?? [], accountRules);
        recorded.push(...renewalFacts(row, summary.facts, summary.charges, accountRules, now));
        summaryRows.push({
          id: row.id,
          since: summary.since?.toISOString() ?? null,
          since_day: summary.sinceDay,
          cohort_month: summary.cohortMonth,
          monthly_cents: summary.monthlyCents,
          retained_mask: summary.retainedMask,
          ...Object.fromEntries(KNOWN_STATES.map((state) => [SPAN_COLUMNS[state].name, multirangeLiteral(summary.timeline[state])])),
          churned_spans: multirangeLiteral([...summary.timeline.lost, ...summary.timeline.canceled]),
        });
        for (const { charge, renewal, failed, outcome } of summary.charges)
          chargeRows.push({
            account_id: accountId,
            gateway_transaction_id: charge.gatewayTransactionId,
            due_at: charge.dueAt?.toISOString() ?? null,
            paid_at: charge.paidAt?.toISOString() ?? null,
            renewal,
            failed,
            announced: outcome ?? charge.announced,
          });
      }
    }
    await writeSummaries(tx, summaryRows, chargeRows);
    await recordFacts(tx, recorded);
    return taken.rows.length;
  });
}

async function writeSummaries(tx: Tx, summaryRows: Record<string, unknown>[], chargeRows: Record<string, unknown>[]): Promise<void> {
  if (summaryRows.length > 0)
    await tx.execute(sql`
      update subscriptions s set since = v.since, since_day = v.since_day, cohort_month = v.cohort_month,
        monthly_cents = v.monthly_cents, retained_mask = v.retained_mask,
        active_spans = v.active_spans::tstzmultirange, awaiting_spans = v.awaiting_spans::tstzmultirange,
        overdue_spans = v.overdue_spans::tstzmultirange, lost_spans = v.lost_spans::tstzmultirange,
        canceled_spans = v.canceled_spans::tstzmultirange, churned_spans = v.churned_spans::tstzmultirange
      from jsonb_to_recordset(${JSON.stringify(summaryRows)}::jsonb) as v(
        id text, since timestamptz, since_day date, cohort_month text, monthly_cents double precision, retained_mask integer,
        active_spans text, awaiting_spans text, overdue_spans text, lost_spans text, canceled_spans text, churned_spans text)
      where s.id = v.id`);
  if (chargeRows.length > 0)
    await tx.execute(sql`
      update subscription_charges c set due_at = v.due_at, paid_at = v.paid_at, renewal = v.renewal, failed = v.failed, announced = v.announced
      from jsonb_to_recordset(${JSON.stringify(chargeRows)}::jsonb) as v(
        account_id text, gateway_transaction_id text, due_at timestamptz, paid_at timestamptz, renewal boolean, failed boolean, announced text)
      where c.account_id = v.account_id and c.gateway_transaction_id = v.gateway_transaction_id
        and (c.due_at is distinct from v.due_at or c.paid_at is distinct from v.paid_at or c.renewal <> v.renewal or c.failed <> v.failed
          or c.announced is distinct from v.announced)`);
}
