import type { Periodicity } from "@/lib/subscriptions/periods";
import type { ChargeFacts, StateRules } from "@/lib/subscriptions/rules";
import type { SubscriptionFigureInput } from "@/lib/subscriptions/figures";

/** A small seeded generator (mulberry32): the same seed draws the same subscriptions. */
export function randomSource(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)],
  };
}

const DAY = 86_400_000;
const PERIODICITIES: Periodicity[] = [
  { type: "MONTHS", every: 1 },
  { type: "MONTHS", every: 3 },
  { type: "WEEKS", every: 1 },
  { type: "WEEKS", every: 2 },
  { type: "DAYS", every: 10 },
  { type: "YEARS", every: 1 },
];
const STEP_DAYS: Record<string, number> = { MONTHS: 30.44, WEEKS: 7, DAYS: 1, YEARS: 365.25 };

export type RandomSubscription = SubscriptionFigureInput & { charges: (ChargeFacts & { gatewayTransactionId: string })[] };

/**
 * Subscriptions as the gateway might have left them by `now`: charges one period apart from the
 * start (each paid on time, paid late, paid after `now`, failed or left unpaid; a few not yet
 * confirmed), some canceled by the gateway, some with an unknown periodicity or amount.
 */
export function randomSubscriptions(seed: number, count: number, now: Date): RandomSubscription[] {
  const r = randomSource(seed);
  return Array.from({ length: count }, (_, i) => {
    const periodicity = r.next() < 0.05 ? null : r.pick(PERIODICITIES);
    const start = new Date(now.getTime() - r.int(0, 500) * DAY - r.int(0, DAY));
    const stepMs = (periodicity ? STEP_DAYS[periodicity.type] * periodicity.every : 30) * DAY;
    const charges: RandomSubscription["charges"] = [];
    for (let n = 0; start.getTime() + n * stepMs <= now.getTime() && n < 40; n++) {
      const due = new Date(start.getTime() + n * stepMs + r.int(0, 3_600_000));
      const draw = r.next();
      const paidAt =
        draw < 0.6 ? new Date(due.getTime() + r.int(0, 3_600_000)) : draw < 0.75 ? new Date(due.getTime() + r.int(1, 40) * DAY) : null;
      const status = paidAt ? "COMPLETED" : draw < 0.85 ? "FAILED" : "PENDING";
      const confirmed = r.next() > 0.03;
      charges.push({
        gatewayTransactionId: `tx-${seed}-${i}-${n}`,
        chargeNumber: n + 1,
        dueAt: confirmed ? due : null,
        paidAt: confirmed ? paidAt : null,
        status: confirmed ? status : null,
      });
    }
    const canceled = r.next() < 0.15;
    const statusAt = canceled ? new Date(start.getTime() + r.int(0, Math.max(0, now.getTime() - start.getTime()))) : start;
    return {
      startedAt: r.next() < 0.1 ? null : start,
      amountCents: r.next() < 0.03 ? null : r.pick([1990, 4990, 9700, 14900]),
      periodicity,
      charges,
      gatewayStatus: canceled ? "CANCELED" : "ACTIVE",
      gatewayStatusAt: r.next() < 0.02 ? null : statusAt,
    };
  });
}

export function randomRules(seed: number): StateRules {
  const r = randomSource(seed);
  return { graceDays: r.int(0, 7), lostAfterPeriods: r.int(1, 4) };
}
