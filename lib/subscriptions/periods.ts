import { PERIODICITY_TYPES, type PeriodicityType } from "@/lib/gateway/constants";
import { TIME_ZONE } from "@/lib/locale";

/** Calendar dates and periods of subscriptions; days are São Paulo days. Browser-safe. */

export type CalendarDate = { year: number; month: number; day: number };
export type Periodicity = { type: PeriodicityType; every: number };

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
 * A recurrence as a gateway or a request spelled it, read defensively: a known periodicity type
 * (any case) and a positive whole interval (a number or a numeric string), else null (unknown).
 */
export function readPeriodicity(type: unknown, every: unknown): Periodicity | null {
  const name = typeof type === "string" ? type.trim().toUpperCase() : "";
  const count = typeof every === "number" ? every : typeof every === "string" && every.trim() !== "" ? Number(every) : NaN;
  if (!(PERIODICITY_TYPES as readonly string[]).includes(name) || !Number.isInteger(count) || count <= 0) return null;
  return { type: name as PeriodicityType, every: count };
}

/** The São Paulo calendar date an instant falls on. */
export function saoPauloDay(instant: Date): CalendarDate {
  const d = new Date(instant.getTime() + offsetMinutes(instant) * 60_000);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

export function dayNumber(date: CalendarDate): number {
  return Date.UTC(date.year, date.month - 1, date.day) / 86_400_000;
}

/** Whole São Paulo days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: CalendarDate, to: CalendarDate): number {
  return dayNumber(to) - dayNumber(from);
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  return addPeriods(date, "DAYS", days);
}

export function isoDay(date: CalendarDate): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.year}-${pad(date.month)}-${pad(date.day)}`;
}

const offsetFormat = new Intl.DateTimeFormat("en-US", { timeZone: TIME_ZONE, timeZoneName: "longOffset" });
/**
 * Offsets by UTC hour: asking Intl costs about 20 µs, and a subscription's timeline asks it for
 * every candidate instant (a full recalculation of 100,000 subscriptions asks millions of times).
 * São Paulo's offset has only ever changed on a whole hour.
 */
const offsetsByHour = new Map<number, number>();

/** São Paulo's offset from UTC at an instant, in minutes (−180 today; it had summer time before 2019). */
function offsetMinutes(instant: Date): number {
  const hour = Math.floor(instant.getTime() / 3_600_000);
  const known = offsetsByHour.get(hour);
  if (known !== undefined) return known;
  const name = offsetFormat.formatToParts(instant).find((part) => part.type === "timeZoneName")?.value ?? "GMT";
  const match = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
  const offset = match ? (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3] ?? 0)) : 0;
  if (offsetsByHour.size > 200_000) offsetsByHour.clear();
  offsetsByHour.set(hour, offset);
  return offset;
}

/** The instant a São Paulo day begins. */
export function startOfSaoPauloDay(date: CalendarDate): Date {
  const utcMidnight = Date.UTC(date.year, date.month - 1, date.day);
  const guess = new Date(utcMidnight - offsetMinutes(new Date(utcMidnight)) * 60_000);
  // Across a change of offset the first guess is an hour off: measure again at the guess.
  return new Date(utcMidnight - offsetMinutes(guess) * 60_000);
}

/** The São Paulo calendar month an instant falls in, as the instants it begins and ends (`to` excluded), and its YYYY-MM. */
export function saoPauloMonth(instant: Date): { from: Date; to: Date; month: string } {
  const { year, month } = saoPauloDay(instant);
  const first = { year, month, day: 1 };
  return { from: startOfSaoPauloDay(first), to: startOfSaoPauloDay(addPeriods(first, "MONTHS", 1)), month: isoDay(first).slice(0, 7) };
}
