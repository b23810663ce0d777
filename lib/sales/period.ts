/**
 * Report periods: whole São Paulo calendar days, `from` and `to` both included (YYYY-MM-DD).
 * Browser-safe, so the period picker and the queries read them alike.
 */

export type SalesPeriod = { from: string; to: string };

/** The longest period a report takes (about two years), so one request cannot scan the whole ledger by accident. */
export const MAX_PERIOD_DAYS = 731;

const DAY_MS = 86_400_000;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Days since 1970-01-01 of a calendar date, or null when it is not a real date between 2000 and 2100. */
function dayNumber(day: string): number | null {
  if (!ISO_DAY.test(day)) return null;
  const time = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== day) return null;
  const year = Number(day.slice(0, 4));
  return year >= 2000 && year <= 2100 ? time / DAY_MS : null;
}

const dayText = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

export class InvalidPeriodError extends Error {
  constructor(readonly period: SalesPeriod) {
    super(`invalid sales period ${JSON.stringify(period)}`);
  }
}

/** The period as given when it is valid (real dates, from ≤ to, at most MAX_PERIOD_DAYS); throws InvalidPeriodError otherwise. */
export function checkPeriod(period: SalesPeriod): SalesPeriod {
  const from = dayNumber(period.from);
  const to = dayNumber(period.to);
  if (from === null || to === null || to < from || to - from + 1 > MAX_PERIOD_DAYS) throw new InvalidPeriodError(period);
  return { from: period.from, to: period.to };
}

/** How many days the period spans (both ends included). */
export function periodDays(period: SalesPeriod): number {
  const { from, to } = checkPeriod(period);
  return dayNumber(to)! - dayNumber(from)! + 1;
}

/** Every day of the period, in order. */
export function daysOf(period: SalesPeriod): string[] {
  const from = dayNumber(checkPeriod(period).from)!;
  return Array.from({ length: periodDays(period) }, (_, i) => dayText(from + i));
}

/** The period of the same length that ends the day before `period` starts: the default comparison. */
export function previousPeriod(period: SalesPeriod): SalesPeriod {
  const from = dayNumber(checkPeriod(period).from)!;
  const days = periodDays(period);
  return { from: dayText(from - days), to: dayText(from - 1) };
}

/** The last `days` days ending on `today` (a São Paulo date, e.g. `saoPauloDate()`), today included. */
export function lastDays(days: number, today: string): SalesPeriod {
  const end = dayNumber(today);
  if (end === null || !Number.isInteger(days) || days < 1) throw new InvalidPeriodError({ from: today, to: today });
  return checkPeriod({ from: dayText(end - days + 1), to: today });
}
