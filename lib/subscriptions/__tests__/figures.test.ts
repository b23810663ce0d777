import { describe, expect, it } from "vitest";
import { cohorts, monthlyCents, mrr, periodFigures, type SubscriptionFigureInput } from "@/lib/subscriptions/figures";
import { startOfSaoPauloDay, type Periodicity } from "@/lib/subscriptions/periods";
import type { ChargeFacts } from "@/lib/subscriptions/rules";

const at = (iso: string) => new Date(iso);
const paid = (due: string, paidAt = due): ChargeFacts => ({ dueAt: at(due), paidAt: at(paidAt), status: "COMPLETED", chargeNumber: null });
const unpaid = (due: string, status = "PENDING"): ChargeFacts => ({ dueAt: at(due), paidAt: null, status, chargeNumber: null });
const MONTHLY: Periodicity = { type: "MONTHS", every: 1 };

function subscription(
  startedAt: string,
  amountCents: number,
  periodicity: Periodicity | null,
  charges: ChargeFacts[],
  gateway: { status?: string; at?: string } = {},
): SubscriptionFigureInput {
  return {
    startedAt: at(startedAt),
    amountCents,
    periodicity,
    charges,
    gatewayStatus: gateway.status ?? "ACTIVE",
    gatewayStatusAt: at(gateway.at ?? startedAt),
  };
}

describe("MRR", () => {
  it("brings every periodicity to a month", () => {
    expect(monthlyCents(4990, { type: "MONTHS", every: 1 })).toBe(4990);
    expect(monthlyCents(9000, { type: "MONTHS", every: 3 })).toBe(3000);
    expect(monthlyCents(120000, { type: "YEARS", every: 1 })).toBe(10000);
    expect(monthlyCents(240000, { type: "YEARS", every: 2 })).toBe(10000);
    expect(monthlyCents(1200, { type: "WEEKS", every: 1 })).toBe(5200); // 1200 × 52 ÷ 12
    expect(monthlyCents(1200, { type: "WEEKS", every: 2 })).toBe(2600);
    expect(monthlyCents(1200, { type: "DAYS", every: 10 })).toBe(3650); // 1200 × 365 ÷ 12 ÷ 10
    expect(monthlyCents(120, { type: "DAYS", every: 1 })).toBe(3650);
    expect(monthlyCents(null, MONTHLY)).toBeNull();
    expect(monthlyCents(4990, null)).toBeNull();
  });

  it("sums before rounding, leaves out canceled and lost subscriptions, and counts those of unknown amount apart", () => {
    const now = at("2026-05-01T12:00:00Z");
    const list = [
      subscription("2026-04-20T12:00:00Z", 4990, MONTHLY, [paid("2026-04-20T12:00:00Z")]),
      subscription("2026-04-20T12:00:00Z", 9700, MONTHLY, [paid("2026-04-20T12:00:00Z")]),
      subscription("2026-04-20T12:00:00Z", 1000, { type: "WEEKS", every: 1 }, [paid("2026-04-29T12:00:00Z")]), // 4333.33…
      subscription("2026-04-20T12:00:00Z", 1000, { type: "DAYS", every: 10 }, [paid("2026-04-30T12:00:00Z")]), // 3041.66…
      subscription("2026-01-10T12:00:00Z", 5000, MONTHLY, [paid("2026-01-10T12:00:00Z"), unpaid("2026-02-10T12:00:00Z")]), // lost
      subscription("2026-04-20T12:00:00Z", 5000, MONTHLY, [paid("2026-04-20T12:00:00Z")], {
        status: "CANCELED",
        at: "2026-04-25T12:00:00Z",
      }),
      subscription("2026-04-20T12:00:00Z", 5000, null, [paid("2026-04-20T12:00:00Z")]),
    ];
    // 4990 + 9700 + 4333.33 + 3041.67 = 22065.00
    expect(mrr(list, now)).toEqual({ cents: 22065, counted: 4, unknownAmount: 1 });
    // The example: a monthly R$ 49,90 and a monthly R$ 97,00 are R$ 146,90 a month.
    expect(mrr(list.slice(0, 2), now).cents).toBe(14690);
  });
});

describe("figures and cohorts against hand-computed ones", () => {
  const A = subscription("2026-01-05T12:00:00Z", 4990, MONTHLY, [
    paid("2026-01-05T12:00:00Z"),
    paid("2026-02-05T12:00:00Z"),
    paid("2026-03-05T12:00:00Z"),
    paid("2026-04-05T12:00:00Z"),
  ]);
  // Renewals from 20 Feb unpaid: lost on 24 Apr (20 Apr + 3 grace days, then the next day).
  const B = subscription("2026-01-20T12:00:00Z", 4990, MONTHLY, [
    paid("2026-01-20T12:00:00Z"),
    unpaid("2026-02-20T12:00:00Z"),
    unpaid("2026-03-20T12:00:00Z"),
    unpaid("2026-04-20T12:00:00Z"),
  ]);
  const C = subscription("2026-02-10T12:00:00Z", 12000, { type: "YEARS", every: 1 }, [paid("2026-02-10T12:00:00Z")], {
    status: "CANCELED",
    at: "2026-03-15T12:00:00Z",
  });
  const D = subscription("2026-02-25T12:00:00Z", 2000, { type: "WEEKS", every: 2 }, [
    paid("2026-02-25T12:00:00Z", "2026-02-25T13:00:00Z"),
    paid("2026-03-11T12:00:00Z", "2026-03-11T13:00:00Z"),
    paid("2026-03-25T12:00:00Z", "2026-03-25T13:00:00Z"),
    paid("2026-04-08T12:00:00Z", "2026-04-08T13:00:00Z"),
    paid("2026-04-22T12:00:00Z", "2026-04-22T13:00:00Z"),
  ]);
  // A declined card: its renewal failed and no further charge was made.
  const E = subscription("2026-03-03T12:00:00Z", 3000, MONTHLY, [paid("2026-03-03T12:00:00Z"), unpaid("2026-04-03T12:00:00Z", "FAILED")]);
  // Its renewal paid on 16 Apr, past 10 Apr + 3 grace days: recovered.
  const F = subscription("2026-03-10T12:00:00Z", 2500, MONTHLY, [
    paid("2026-03-10T12:00:00Z"),
    paid("2026-04-10T12:00:00Z", "2026-04-16T12:00:00Z"),
  ]);
  const all = [A, B, C, D, E, F];
  const now = at("2026-05-01T12:00:00Z");
  const month = (y: number, m: number) => startOfSaoPauloDay({ year: y, month: m, day: 1 });

  it("April", () => {
    const april = periodFigures(all, { from: month(2026, 4), to: month(2026, 5) }, now);
    expect(april).toEqual({
      // A 4990 + D 2000 × 52 ÷ 12 ÷ 2 (4333.33) + E 3000 (overdue still counts) + F 2500; B lost, C canceled.
      mrr: { cents: 14823, counted: 4, unknownAmount: 0 },
      active: 3, // A, D, F
      newSubscribers: 0,
      churned: { count: 1, mrrCents: 4990 }, // B, lost on 24 Apr
      failedRenewals: 1, // E, 3 Apr
      unpaidRenewals: 1, // B, 20 Apr
    });
  });

  it("March", () => {
    const march = periodFigures(all, { from: month(2026, 3), to: month(2026, 4) }, now);
    expect(march.newSubscribers).toBe(2); // E, F
    expect(march.churned).toEqual({ count: 1, mrrCents: 1000 }); // C: 12000 a year
    expect(march.unpaidRenewals).toBe(1); // B, 20 Mar
    expect(march.active).toBe(4); // A, D, E, F at 1 Apr (B overdue, C canceled)
  });

  it("cohorts: the share of each start month still subscribed 1 to 12 months on, empty until every subscriber got there", () => {
    const rest = (n: number) => Array.from({ length: n }, () => null);
    expect(cohorts(all, now)).toEqual([
      // A and B: B is overdue, not yet lost, at 20 Feb, 20 Mar and 20 Apr; A reaches 4 months on 5 May.
      { month: "2026-01", subscribers: 2, retained: [1, 1, 1, ...rest(9)] },
      // C canceled on 15 Mar: still there on 10 Mar, gone on 10 Apr; C reaches 3 months on 10 May.
      { month: "2026-02", subscribers: 2, retained: [1, 0.5, ...rest(10)] },
      // E and F reach 2 months on 3 and 10 May.
      { month: "2026-03", subscribers: 2, retained: [1, ...rest(11)] },
    ]);
  });
});
