import { stateOf, subscriptionMachine, transactionMachine } from "@/lib/status/machine";
import { addDays, addPeriods, daysBetween, isoDay, saoPauloDay, type CalendarDate, type Periodicity } from "./periods";

/**
 * The console's state of a subscription, worked out from what the gateway confirmed (the rules are
 * written down in docs/subscriptions.md; this is their one implementation). Browser-safe.
 *
 * - **cancelada**: the gateway's own status for the subscription reads as canceled.
 * - **ativa**: the last charge that fell due is paid.
 * - **aguardando pagamento**: the oldest charge unpaid since the last paid one fell due at most
 *   `graceDays` São Paulo days ago.
 * - **em atraso há N dias**: it fell due more than `graceDays` days ago; N counts São Paulo days
 *   from its due date.
 * - **perdida**: `lostAfterPeriods` periods missed. A period is missed once its due date (the
 *   first unpaid charge's, then one period after another) lies more than `graceDays` days back,
 *   whether or not the gateway made a charge for it (a declined card may end the renewals).
 * - **desconhecido**: the gateway has confirmed no charge of it that fell due yet.
 *
 * A charge counts only once the gateway confirmed it (it is in the ledger); it is paid when the
 * gateway confirmed its payment (the ledger's payment time); it fell due at the gateway's own
 * creation time of the transaction (renewals are dated at their due instant).
 */

export const DEFAULT_GRACE_DAYS = 3;
export const DEFAULT_LOST_AFTER_PERIODS = 3;

export type StateRules = { graceDays: number; lostAfterPeriods: number };
export const DEFAULT_RULES: StateRules = { graceDays: DEFAULT_GRACE_DAYS, lostAfterPeriods: DEFAULT_LOST_AFTER_PERIODS };

/** One charge of a subscription as the console knows it. */
export type ChargeFacts = {
  chargeNumber: number | null;
  /** Null while the gateway has not confirmed the transaction (no ledger row yet). */
  dueAt: Date | null;
  paidAt: Date | null;
  /** The ledger's status, the gateway's string as reported. */
  status: string | null;
};

export type SubscriptionFacts = {
  gatewayStatus: string | null;
  /** When the gateway said it (the time of the notification carrying the object). */
  gatewayStatusAt: Date | null;
  periodicity: Periodicity | null;
  charges: readonly ChargeFacts[];
};

export type DerivedState =
  | { state: "canceled"; since: Date | null }
  | { state: "active"; lastPaidAt: Date | null }
  | { state: "awaiting_payment"; dueDay: string; daysSinceDue: number }
  | { state: "overdue"; dueDay: string; days: number; missedPeriods: number }
  | { state: "lost"; dueDay: string; missedPeriods: number; sinceDay: string }
  | { state: "unknown" };
export type StateName = DerivedState["state"];
export const STATE_NAMES: readonly StateName[] = ["active", "awaiting_payment", "overdue", "lost", "canceled", "unknown"];

/** Charges in the order they fell due (the charge number breaks ties and orders charges not yet confirmed). */
export function chargesInOrder<C extends ChargeFacts>(charges: readonly C[]): C[] {
  return [...charges].sort((a, b) => {
    const byDue = (a.dueAt?.getTime() ?? Infinity) - (b.dueAt?.getTime() ?? Infinity);
    if (byDue !== 0 && Number.isFinite(byDue)) return byDue;
    if (a.dueAt && !b.dueAt) return -1;
    if (!a.dueAt && b.dueAt) return 1;
    const byNumber = (a.chargeNumber ?? Infinity) - (b.chargeNumber ?? Infinity);
    // Two with no number (Infinity − Infinity): a tie, kept in the order given (the sort is stable).
    return Number.isNaN(byNumber) ? 0 : byNumber;
  });
}

export const isPaidBy = (charge: ChargeFacts, at: Date) => charge.paidAt !== null && charge.paidAt.getTime() <= at.getTime();
export const fellDueBy = (charge: ChargeFacts, at: Date) => charge.dueAt !== null && charge.dueAt.getTime() <= at.getTime();
export const isFailed = (charge: ChargeFacts) => charge.paidAt === null && stateOf(transactionMachine, charge.status) === "failed";
export const isCanceledStatus = (status: string | null) => stateOf(subscriptionMachine, status) === "canceled";

/** The state of a subscription at the instant `at` (now, or a past instant for cohorts and churn), from what was known by then. */
export function deriveState(facts: SubscriptionFacts, at: Date, rules: StateRules = DEFAULT_RULES): DerivedState {
  if (isCanceledStatus(facts.gatewayStatus) && (!facts.gatewayStatusAt || facts.gatewayStatusAt.getTime() <= at.getTime()))
    return { state: "canceled", since: facts.gatewayStatusAt };
  const due = chargesInOrder(facts.charges.filter((charge) => fellDueBy(charge, at)));
  if (due.length === 0) return { state: "unknown" };
  const last = due[due.length - 1];
  if (isPaidBy(last, at)) return { state: "active", lastPaidAt: last.paidAt };

  let lastPaid = -1;
  due.forEach((charge, i) => {
    if (isPaidBy(charge, at)) lastPaid = i;
  });
  const firstUnpaid = due[lastPaid + 1];
  const dueDay = saoPauloDay(firstUnpaid.dueAt!);
  const today = saoPauloDay(at);
  const days = daysBetween(dueDay, today);
  const missed = missedPeriods(dueDay, today, facts.periodicity, rules);
  const dueIso = isoDay(dueDay);
  if (missed >= rules.lostAfterPeriods && facts.periodicity)
    return { state: "lost", dueDay: dueIso, missedPeriods: missed, sinceDay: isoDay(lostDay(dueDay, facts.periodicity, rules)) };
  if (missed >= 1) return { state: "overdue", dueDay: dueIso, days, missedPeriods: missed };
  return { state: "awaiting_payment", dueDay: dueIso, daysSinceDue: days };
}

/**
 * Periods missed by `today`: due dates from `firstDue`, one period apart, that lie more than the
 * grace period back. Without a known periodicity only the first one counts (never lost).
 * Counting stops at `lostAfterPeriods`: more changes nothing.
 */
export function missedPeriods(firstDue: CalendarDate, today: CalendarDate, periodicity: Periodicity | null, rules: StateRules): number {
  const missedBy = (day: CalendarDate) => daysBetween(day, today) > rules.graceDays;
  if (!periodicity) return missedBy(firstDue) ? 1 : 0;
  let missed = 0;
  const limit = Math.max(rules.lostAfterPeriods, 1);
  while (missed < limit && missedBy(addPeriods(firstDue, periodicity.type, missed * periodicity.every))) missed++;
  return missed;
}

/** The São Paulo day a subscription whose first unpaid charge fell due on `firstDue` reads lost. */
export function lostDay(firstDue: CalendarDate, periodicity: Periodicity, rules: StateRules): CalendarDate {
  const lastMissedDue = addPeriods(firstDue, periodicity.type, (Math.max(rules.lostAfterPeriods, 1) - 1) * periodicity.every);
  return addDays(lastMissedDue, rules.graceDays + 1);
}

/** Whether a state has left the subscriber base (MRR, churn, cohorts). */
export const hasChurned = (state: DerivedState) => state.state === "canceled" || state.state === "lost";
