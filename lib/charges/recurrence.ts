import type { PeriodicityType } from "@/lib/gateway/schemas/subscriptions";
import { addPeriods, type CalendarDate } from "@/lib/subscriptions/periods";

export { addPeriods, type CalendarDate };

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
