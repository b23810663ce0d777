import { describe, expect, it } from "vitest";
import { addPeriods, nextChargeDates, toIsoDate } from "@/lib/charges/recurrence";

const start = { year: 2026, month: 1, day: 31 };

describe("subscription charge preview", () => {
  it("charges at once and then every period when firstChargeIn is 0", () => {
    const dates = nextChargeDates(start, { periodicityType: "MONTHS", periodicity: 1, firstChargeIn: 0 }, 4).map(toIsoDate);
    expect(dates).toEqual(["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"]);
  });

  it("waits firstChargeIn periods of `periodicity` units", () => {
    const dates = nextChargeDates({ year: 2026, month: 3, day: 10 }, { periodicityType: "WEEKS", periodicity: 2, firstChargeIn: 1 }, 3).map(
      toIsoDate,
    );
    expect(dates).toEqual(["2026-03-24", "2026-04-07", "2026-04-21"]);
  });

  it("handles days across a year and leap years", () => {
    expect(toIsoDate(addPeriods({ year: 2027, month: 12, day: 30 }, "DAYS", 3))).toBe("2028-01-02");
    expect(toIsoDate(addPeriods({ year: 2028, month: 2, day: 29 }, "YEARS", 1))).toBe("2029-02-28");
    expect(toIsoDate(addPeriods({ year: 2028, month: 2, day: 29 }, "YEARS", 4))).toBe("2032-02-29");
  });
});
