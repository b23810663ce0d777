import { addPeriods, isoDay, saoPauloDay, startOfSaoPauloDay, type Periodicity } from "./periods";
import {
  chargesInOrder,
  deriveState,
  DEFAULT_RULES,
  hasChurned,
  isFailed,
  type ChargeFacts,
  type StateRules,
  type SubscriptionFacts,
} from "./rules";

/**
 * The subscription figures, calculated by the console from its own records (what it created, the
 * charges the gateway confirmed, the gateway's subscription status as notified). What each one
 * counts is written beside it and in docs/subscriptions.md. Browser-safe and pure.
 */

export type SubscriptionFigureInput = SubscriptionFacts & {
  startedAt: Date | null;
  amountCents: number | null;
};

/**
 * A subscription's amount brought to a month, in (fractional) centavos: monthly × 1, every p
 * months ÷ p, yearly ÷ 12 (every p years ÷ 12p), weekly × 52 ÷ 12 (every p weeks ÷ p more),
 * every d days × 365 ÷ 12 ÷ d. Null when the amount or the periodicity is unknown.
 */
export function monthlyCents(amountCents: number | null, periodicity: Periodicity | null): number | null {
  if (amountCents === null || !periodicity) return null;
  const { type, every } = periodicity;
  switch (type) {
    case "MONTHS":
      return amountCents / every;
    case "YEARS":
      return amountCents / (12 * every);
    case "WEEKS":
      return (amountCents * 52) / 12 / every;
    case "DAYS":
      return (amountCents * 365) / 12 / every;
  }
}

export type Mrr = {
  /** Rounded to the centavo once, after the sum. */
  cents: number;
  /** Subscriptions counted: neither canceled nor lost at `at`, amount and periodicity known. */
  counted: number;
  /** Neither canceled nor lost, but their amount or periodicity is unknown: not in the sum, said so. */
  unknownAmount: number;
};

/** MRR at `at`: every subscription neither canceled nor lost, its amount brought to a month. */
export function mrr(subscriptions: readonly SubscriptionFigureInput[], at: Date, rules: StateRules = DEFAULT_RULES): Mrr {
  let sum = 0;
  let counted = 0;
  let unknownAmount = 0;
  for (const subscription of subscriptions) {
    if (subscription.startedAt && subscription.startedAt > at) continue;
    if (hasChurned(deriveState(subscription, at, rules))) continue;
    const monthly = monthlyCents(subscription.amountCents, subscription.periodicity);
    if (monthly === null) unknownAmount++;
    else {
      sum += monthly;
      counted++;
    }
  }
  return { cents: Math.round(sum), counted, unknownAmount };
}

export type Period = { from: Date; to: Date };

export type PeriodFigures = {
  mrr: Mrr;
  /** Subscriptions reading "ativa" at the period's end (or now, for a period not over). */
  active: number;
  /** Subscriptions that started within the period. */
  newSubscribers: number;
  /** Canceled or lost by the period's end while they were not at its start; their MRR as it was at the start. */
  churned: { count: number; mrrCents: number };
  /** Renewals (charges after a subscription's first) due in the period that the gateway reports failed. */
  failedRenewals: number;
  /** Renewals due in the period, not failed, still unpaid at the period's end. */
  unpaidRenewals: number;
};

const within = (instant: Date | null, period: Period) => instant !== null && instant >= period.from && instant < period.to;

/** The renewals of a subscription: its charges after the first one that fell due. */
export function renewalsOf<C extends ChargeFacts>(charges: readonly C[]): C[] {
  return chargesInOrder(charges.filter((charge) => charge.dueAt !== null)).slice(1);
}

/** The period's figures; `now` caps the end of a period not yet over. */
export function periodFigures(
  subscriptions: readonly SubscriptionFigureInput[],
  period: Period,
  now: Date,
  rules: StateRules = DEFAULT_RULES,
): PeriodFigures {
  const end = period.to < now ? period.to : now;
  const figures: PeriodFigures = {
    mrr: mrr(subscriptions, end, rules),
    active: 0,
    newSubscribers: 0,
    churned: { count: 0, mrrCents: 0 },
    failedRenewals: 0,
    unpaidRenewals: 0,
  };
  let churnedSum = 0;
  for (const subscription of subscriptions) {
    if (subscription.startedAt && subscription.startedAt >= end) continue;
    const atEnd = deriveState(subscription, end, rules);
    if (atEnd.state === "active") figures.active++;
    if (within(subscription.startedAt, period)) figures.newSubscribers++;
    if (hasChurned(atEnd) && !hasChurned(deriveState(subscription, period.from, rules))) {
      figures.churned.count++;
      churnedSum += monthlyCents(subscription.amountCents, subscription.periodicity) ?? 0;
    }
    for (const renewal of renewalsOf(subscription.charges)) {
      if (!within(renewal.dueAt, period)) continue;
      if (isFailed(renewal)) figures.failedRenewals++;
      else if (renewal.paidAt === null || renewal.paidAt > end) figures.unpaidRenewals++;
    }
  }
  figures.churned.mrrCents = Math.round(churnedSum);
  return figures;
}

export type CohortRow = {
  /** The São Paulo month the subscribers started in, YYYY-MM. */
  month: string;
  subscribers: number;
  /**
   * Months 1 to 12: the share (0 to 1) of the cohort's subscribers neither canceled nor lost on the
   * day each of them completed that many months (its start day in São Paulo, that many months
   * later); null while not every subscriber of the cohort has reached that month.
   */
  retained: (number | null)[];
};

/** The cohort table: each start month's subscribers, and the share of them still subscribed 1 to 12 months on. */
export function cohorts(subscriptions: readonly SubscriptionFigureInput[], now: Date, rules: StateRules = DEFAULT_RULES): CohortRow[] {
  const byMonth = new Map<string, SubscriptionFigureInput[]>();
  for (const subscription of subscriptions) {
    if (!subscription.startedAt || subscription.startedAt > now) continue;
    const month = isoDay(saoPauloDay(subscription.startedAt)).slice(0, 7);
    byMonth.set(month, [...(byMonth.get(month) ?? []), subscription]);
  }
  return [...byMonth.keys()].sort().map((month) => {
    const members = byMonth.get(month)!;
    const retained = Array.from({ length: 12 }, (_, i) => {
      let still = 0;
      for (const subscription of members) {
        const at = startOfSaoPauloDay(addPeriods(saoPauloDay(subscription.startedAt!), "MONTHS", i + 1));
        if (at > now) return null;
        if (!hasChurned(deriveState(subscription, at, rules))) still++;
      }
      return still / members.length;
    });
    return { month, subscribers: members.length, retained };
  });
}
