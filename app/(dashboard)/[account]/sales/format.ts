import "server-only";
import { fromCents } from "@/lib/br/money";
import { currencyFormatter } from "@/lib/i18n/format";
import type { Locale } from "@/lib/locale";

/** Words and numbers of the sales area: money in its own currency (never converted), rates, durations, days. */
export function salesFormat(locale: Locale) {
  const percent = new Intl.NumberFormat(locale, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const number = new Intl.NumberFormat(locale);
  const points = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: "always" });
  const change = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1, signDisplay: "always" });
  const day = new Intl.DateTimeFormat(locale, { day: "2-digit", month: "2-digit", year: "numeric", timeZone: "UTC" });
  const shortDay = new Intl.DateTimeFormat(locale, { day: "2-digit", month: "2-digit", timeZone: "UTC" });
  const moneyFormats = new Map<string, (amount: number) => string>();
  const money = (cents: number, currency = "BRL") => {
    let format = moneyFormats.get(currency);
    if (!format) moneyFormats.set(currency, (format = currencyFormatter(locale, currency)));
    return format(fromCents(cents));
  };
  return {
    money,
    count: (value: number) => number.format(value),
    rate: (value: number | null) => (value === null ? null : percent.format(value)),
    /** A relative change of a count or amount, "+12,5%"; null when there is nothing to compare with. */
    change: (current: number, previous: number) => (previous === 0 ? null : change.format((current - previous) / previous)),
    /** A change of a rate, in percentage points: "+1,2 p.p.". */
    pointsChange: (current: number | null, previous: number | null) =>
      current === null || previous === null ? null : `${points.format((current - previous) * 100)} p.p.`,
    duration: (seconds: number | null) => {
      if (seconds === null) return null;
      const s = Math.round(seconds);
      if (s < 60) return `${s} s`;
      if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ""}`;
      if (s < 86_400) return `${Math.floor(s / 3600)} h${Math.floor((s % 3600) / 60) ? ` ${Math.floor((s % 3600) / 60)} min` : ""}`;
      return `${Math.floor(s / 86_400)} d${Math.floor((s % 86_400) / 3600) ? ` ${Math.floor((s % 86_400) / 3600)} h` : ""}`;
    },
    day: (value: string) => day.format(new Date(`${value}T00:00:00Z`)),
    shortDay: (value: string) => shortDay.format(new Date(`${value}T00:00:00Z`)),
  };
}
export type SalesFormat = ReturnType<typeof salesFormat>;

/** An amount as a spreadsheet reads it back as a number in pt-BR: "1234,56" (no thousands separator). */
export const csvAmount = (cents: number) => (cents / 100).toFixed(2).replace(".", ",");
/** A rate as a percentage number "12,5"; empty when there is no rate. */
export const csvRate = (value: number | null) => (value === null ? "" : (value * 100).toFixed(1).replace(".", ","));
