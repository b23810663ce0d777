import { addDays, addPeriods, saoPauloDay, startOfSaoPauloDay } from "./periods";
import { deriveState, isCanceledStatus, lostDay, type StateName, type StateRules, type SubscriptionFacts } from "./rules";

/**
 * A subscription's states over all time, from the facts the console holds now: where
 * `deriveState` gives the state at one instant, this gives the spans of instants each state holds
 * (`from` included, `to` excluded; null is unbounded). Until a new fact arrives the spans hold
 * for the future too: a state changes only at a fact's instant (a charge falling due, a payment,
 * the gateway's cancellation) or at the start of a São Paulo day a grace period or a missed
 * period ends. So the summary written from it (lib/subscriptions/summaries.ts) answers "which
 * state at instant t" for any t with no recalculation as time passes. Browser-safe and pure.
 */

export type KnownState = Exclude<StateName, "unknown">;
export type Span = { from: Date | null; to: Date | null };
export type Timeline = Record<KnownState, Span[]>;

export const KNOWN_STATES: readonly KnownState[] = ["active", "awaiting_payment", "overdue", "lost", "canceled"];

/** Every instant at which the state may change: between two of them it cannot. */
function changeInstants(facts: SubscriptionFacts, rules: StateRules): number[] {
  const instants = new Set<number>();
  if (facts.gatewayStatusAt && isCanceledStatus(facts.gatewayStatus)) instants.add(facts.gatewayStatusAt.getTime());
  for (const charge of facts.charges) {
    if (charge.paidAt) instants.add(charge.paidAt.getTime());
    if (!charge.dueAt) continue;
    instants.add(charge.dueAt.getTime());
    // Were it the first unpaid charge: the day its grace ends, each later missed period, and the day it reads lost.
    const dueDay = saoPauloDay(charge.dueAt);
    const limit = facts.periodicity ? Math.max(rules.lostAfterPeriods, 1) : 1;
    for (let missed = 0; missed < limit; missed++) {
      const periodDue = facts.periodicity ? addPeriods(dueDay, facts.periodicity.type, missed * facts.periodicity.every) : dueDay;
      instants.add(startOfSaoPauloDay(addDays(periodDue, rules.graceDays + 1)).getTime());
    }
    if (facts.periodicity) instants.add(startOfSaoPauloDay(lostDay(dueDay, facts.periodicity, rules)).getTime());
  }
  return [...instants].sort((a, b) => a - b);
}

/** The spans of each state (none for "desconhecido": it is where no other state holds). */
export function stateTimeline(facts: SubscriptionFacts, rules: StateRules): Timeline {
  const timeline: Timeline = { active: [], awaiting_payment: [], overdue: [], lost: [], canceled: [] };
  const instants = changeInstants(facts, rules);
  const stateAt = (ms: number) => deriveState(facts, new Date(ms), rules).state;
  // Before the first instant, the state is the one just before it (canceled with no date told holds always).
  let current: StateName = instants.length > 0 ? stateAt(instants[0] - 1) : stateAt(0);
  let since: number | null = null;
  const close = (to: number | null) => {
    if (current !== "unknown")
      timeline[current].push({ from: since === null ? null : new Date(since), to: to === null ? null : new Date(to) });
  };
  for (const instant of instants) {
    const next = stateAt(instant);
    if (next === current) continue;
    close(instant);
    current = next;
    since = instant;
  }
  close(null);
  return timeline;
}

/** Whether an instant lies in one of the spans. */
export function inSpans(spans: readonly Span[], at: Date): boolean {
  const t = at.getTime();
  return spans.some((span) => (span.from === null || span.from.getTime() <= t) && (span.to === null || t < span.to.getTime()));
}

/** The spans as a Postgres `tstzmultirange` literal. */
export function multirangeLiteral(spans: readonly Span[]): string {
  return `{${spans.map((span) => `[${span.from?.toISOString() ?? ""},${span.to?.toISOString() ?? ""})`).join(",")}}`;
}
