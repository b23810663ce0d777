import "server-only";
import { inArray, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { subscriptions } from "@/lib/db/schema";
import { recordFacts, type RecordedFact } from "@/lib/destinations/record";
import { isoDay, saoPauloDay } from "./periods";
import { deriveState, type DerivedState, type StateRules, type SubscriptionFacts } from "./rules";
import { chargesOf, factsOf, rulesOf, subscriptionColumns, type SubscriptionCharge, type SubscriptionRow } from "./views";

/**
 * The subscription facts sent to destinations (docs/events.md): a renewal the gateway confirmed
 * paid (`subscription.renewed`) or failed (`subscription.renewal_failed`), recorded when the
 * summary that reads the confirmation is written; and the calculated states "em atraso" and
 * "perdida" (`subscription.overdue`, `subscription.lost`), recorded once per episode by the
 * announcement pass when one begins (a state reached by time passing, not by a new fact).
 */

export type SubscriptionEvent = "renewed" | "renewal_failed" | "overdue" | "lost";

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null);

function chargeSnapshot(charge: SubscriptionCharge | null) {
  if (!charge) return null;
  return {
    gateway_transaction_id: charge.gatewayTransactionId,
    ledger_id: charge.ledgerId,
    identifier: charge.identifier,
    charge_number: charge.chargeNumber,
    due_at: iso(charge.dueAt),
    paid_at: iso(charge.paidAt),
    status: charge.status,
    amount_cents: charge.amountCents,
    currency: charge.currency,
  };
}

/** The outbox row of one subscription fact (the shape lib/destinations/events.ts reads). */
export function subscriptionFact(
  event: SubscriptionEvent,
  row: SubscriptionRow,
  key: string,
  states: { previous: DerivedState | null; current: DerivedState },
  charge: SubscriptionCharge | null,
): RecordedFact {
  return {
    accountId: row.accountId,
    source: "subscription",
    objectId: row.id,
    key: `${event}:${key}`,
    previousStatus: states.previous?.state ?? null,
    status: states.current.state,
    snapshot: {
      event,
      subscription: {
        id: row.id,
        gateway_subscription_id: row.gatewaySubscriptionId,
        identifier: row.identifier,
        payment_method: row.paymentMethod,
        amount_cents: row.amountCents,
        currency: row.currency,
        periodicity_type: row.periodicityType,
        periodicity: row.periodicity,
        client_name: row.clientName,
        client_email: row.clientEmail,
        client_document: row.clientDocument,
        product_id: row.productId,
        product_name: row.productName,
        started_at: iso(row.startedAt),
        gateway_status: row.gatewayStatus,
      },
      state: JSON.parse(JSON.stringify(states.current)) as Record<string, unknown>,
      charge: chargeSnapshot(charge),
    },
  };
}

/** The outcome of a renewal the gateway confirmed: paid, failed, or none yet. */
export function renewalOutcome(charge: SubscriptionCharge, failed: boolean): "paid" | "failed" | null {
  if (charge.paidAt) return "paid";
  return failed ? "failed" : null;
}

/** Facts of renewals whose confirmed outcome was not announced yet. */
export function renewalFacts(
  row: SubscriptionRow,
  facts: SubscriptionFacts,
  renewals: readonly { charge: SubscriptionCharge; outcome: "paid" | "failed" | null }[],
  rules: StateRules,
  now: Date,
): RecordedFact[] {
  const recorded: RecordedFact[] = [];
  for (const { charge, outcome } of renewals) {
    if (!outcome || outcome === charge.announced) continue;
    const at = outcome === "paid" && charge.paidAt ? charge.paidAt : now;
    recorded.push(
      subscriptionFact(
        outcome === "paid" ? "renewed" : "renewal_failed",
        row,
        charge.gatewayTransactionId,
        { previous: deriveState(facts, new Date(at.getTime() - 1), rules), current: deriveState(facts, at, rules) },
        charge,
      ),
    );
  }
  return recorded;
}

/** The charge a calculated state is about: the first one unpaid at `at`, due on the state's due day. */
function unpaidChargeOf(state: DerivedState, charges: readonly SubscriptionCharge[], at: Date): SubscriptionCharge | null {
  if (!("dueDay" in state)) return null;
  return (
    charges.find((c) => c.dueAt && c.dueAt <= at && !(c.paidAt && c.paidAt <= at) && isoDay(saoPauloDay(c.dueAt)) === state.dueDay) ?? null
  );
}

/**
 * Records `subscription.overdue` and `subscription.lost` for the episodes that began since the
 * last ones announced: a subscription whose overdue (or lost) span holding `now` starts after the
 * start last announced. Up to `limit` of each; returns how many it recorded.
 */
export async function announceStates(options: { limit?: number; now?: Date; accountId?: string } = {}): Promise<number> {
  const limit = options.limit ?? 500;
  const now = options.now ?? new Date();
  const instant = sql`${now.toISOString()}::timestamptz`;
  const db = await getDb();
  let announced = 0;
  for (const event of ["overdue", "lost"] as const) {
    const spans = sql.raw(event === "overdue" ? `"overdue_spans"` : `"lost_spans"`);
    const mark = sql.raw(event === "overdue" ? `"overdue_announced_from"` : `"lost_announced_from"`);
    announced += await db.transaction(async (tx) => {
      const due = (
        await tx.execute<{ id: string; began: string }>(sql`
          select s.id, b.began from subscriptions s
          cross join lateral (select lower(r) as began from unnest(s.${spans}) r where r @> ${instant}) b
          where s.${spans} @> ${instant} and b.began is not null and (s.${mark} is null or b.began > s.${mark})
            ${options.accountId ? sql`and s.account_id = ${options.accountId}` : sql``}
          order by s.id limit ${limit} for update of s skip locked`)
      ).rows;
      if (due.length === 0) return 0;
      const beganOf = new Map(due.map((d) => [d.id, new Date(d.began)]));
      const rows = await tx
        .select(subscriptionColumns)
        .from(subscriptions)
        .where(inArray(subscriptions.id, [...beganOf.keys()]));
      const accountIds = [...new Set(rows.map((row) => row.accountId))];
      const rulesByAccount = await rulesOf(tx, accountIds);
      const chargesByAccount = new Map<string, Map<string, SubscriptionCharge[]>>();
      for (const accountId of accountIds)
        chargesByAccount.set(
          accountId,
          await chargesOf(
            accountId,
            rows.filter((row) => row.accountId === accountId).map((row) => row.id),
            tx,
          ),
        );
      const recorded: RecordedFact[] = [];
      for (const row of rows) {
        const began = beganOf.get(row.id)!;
        const rules = rulesByAccount.get(row.accountId)!;
        const { facts } = factsOf(row, chargesByAccount.get(row.accountId)?.get(row.id) ?? []);
        const current = deriveState(facts, began, rules);
        const previous = deriveState(facts, new Date(began.getTime() - 1), rules);
        recorded.push(
          subscriptionFact(event, row, began.toISOString(), { previous, current }, unpaidChargeOf(current, facts.charges, began)),
        );
      }
      await recordFacts(tx, recorded);
      await tx.execute(sql`
        update subscriptions s set ${mark} = v.began
        from jsonb_to_recordset(${JSON.stringify(due)}::jsonb) as v(id text, began timestamptz)
        where s.id = v.id`);
      return recorded.length;
    });
  }
  return announced;
}
