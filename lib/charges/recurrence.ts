import type { PeriodicityType } from "@/lib/gateway/schemas/subscriptions";

export type CalendarDate = { year: number; month: number; day: number };

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Adds whole periods to a calendar date; months and years keep the day, clamped to the month's end (31 Jan + 1 month = 28/29 Feb). */
export function addPeriods(date: CalendarDate, type: PeriodicityType, count: number): CalendarDate {
  if (type === "DAYS" || type === "WEEKS") {
    const days = count * (type === "WEEKS" ? 7 : 1);
    const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
    return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
  }
  const months = count * (type === "YEARS" ? 12 : 1);
  const index = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

/**
 * The dates of the next `count` charges of a subscription started on `start`: the first after
 * `firstChargeIn` periods (0 = at once), then one every period (`periodicity` × `type`).
 * Always counted from the start date, so clamping in short months does not drift later charges.
 */
export function nextChargeDates(
  start: CalendarDate,
  recurrence: { periodicityType: PeriodicityType; periodicity: number; firstChargeIn?: number },
  count = 4,
): CalendarDate[] {
  const first = (recurrence.firstChargeIn ?? 0) * recurrence.periodicity;
  return Array.from({ length: count }, (_, n) => addPeriods(start, recurrence.periodicityType, first + n * recurrence.periodicity));
}

export function toIsoDate(date: CalendarDate): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.year}-${pad(date.month)}-${pad(date.day)}`;
}
