import { describe, expect, it } from "vitest";
import { chargesInOrder, deriveState, hasChurned } from "@/lib/subscriptions/rules";
import { inSpans, KNOWN_STATES, multirangeLiteral, stateTimeline } from "@/lib/subscriptions/timeline";
import { randomRules, randomSource, randomSubscriptions } from "./random-subscriptions";

const NOW = new Date("2026-11-28T15:00:00Z");
const DAY = 86_400_000;

describe("a subscription's timeline", () => {
  it("gives the state deriveState gives, at any instant, for random subscriptions and rules", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rules = randomRules(seed);
      const r = randomSource(seed * 7);
      for (const subscription of randomSubscriptions(seed, 25, NOW)) {
        const facts = { ...subscription, charges: chargesInOrder(subscription.charges) };
        const timeline = stateTimeline(facts, rules);
        // Instants around every charge and São Paulo midnight, and at random, past and future.
        const instants = [
          ...facts.charges.flatMap((c) => (c.dueAt ? [c.dueAt.getTime() - 1, c.dueAt.getTime(), c.dueAt.getTime() + 3 * 3_600_000] : [])),
          ...facts.charges.flatMap((c) => (c.paidAt ? [c.paidAt.getTime() - 1, c.paidAt.getTime()] : [])),
          ...Array.from({ length: 30 }, () => NOW.getTime() - r.int(-200, 600) * DAY + r.int(0, DAY)),
          ...Array.from({ length: 10 }, (_, k) => Date.UTC(2026, 10, 1 + k, 3, 0, 0)), // midnight in São Paulo
          ...Array.from({ length: 10 }, (_, k) => Date.UTC(2026, 10, 1 + k, 2, 59, 59, 999)),
        ];
        for (const ms of instants) {
          const at = new Date(ms);
          const expected = deriveState(facts, at, rules).state;
          const holding = KNOWN_STATES.filter((state) => inSpans(timeline[state], at));
          expect(holding, `seed ${seed} at ${at.toISOString()}`).toEqual(expected === "unknown" ? [] : [expected]);
          expect(inSpans(timeline.lost, at) || inSpans(timeline.canceled, at)).toBe(hasChurned(deriveState(facts, at, rules)));
        }
      }
    }
  });

  it("is empty before the first charge falls due, and holds the last state with no end", () => {
    const rules = { graceDays: 3, lostAfterPeriods: 3 };
    const timeline = stateTimeline(
      {
        gatewayStatus: "ACTIVE",
        gatewayStatusAt: new Date("2026-09-10T15:00:00Z"),
        periodicity: { type: "MONTHS", every: 1 },
        charges: [
          { chargeNumber: 1, dueAt: new Date("2026-09-10T15:00:00Z"), paidAt: new Date("2026-09-10T15:05:00Z"), status: "COMPLETED" },
          { chargeNumber: 2, dueAt: new Date("2026-10-10T15:00:00Z"), paidAt: null, status: "PENDING" },
        ],
      },
      rules,
    );
    // Due 10 Oct; grace 3 days: overdue from 14 Oct (São Paulo); lost once 10 Dec's period is missed too: 14 Dec.
    expect(timeline).toEqual({
      active: [{ from: new Date("2026-09-10T15:05:00Z"), to: new Date("2026-10-10T15:00:00Z") }],
      awaiting_payment: [
        { from: new Date("2026-09-10T15:00:00Z"), to: new Date("2026-09-10T15:05:00Z") },
        { from: new Date("2026-10-10T15:00:00Z"), to: new Date("2026-10-14T03:00:00Z") },
      ],
      overdue: [{ from: new Date("2026-10-14T03:00:00Z"), to: new Date("2026-12-14T03:00:00Z") }],
      lost: [{ from: new Date("2026-12-14T03:00:00Z"), to: null }],
      canceled: [],
    });
    expect(multirangeLiteral(timeline.lost)).toBe("{[2026-12-14T03:00:00.000Z,)}");
    expect(multirangeLiteral([])).toBe("{}");
  });
});
