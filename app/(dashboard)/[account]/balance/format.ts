import "server-only";
import { fromCents } from "@/lib/br/money";
import { currencyFormatter } from "@/lib/i18n/format";
import { TIME_ZONE, type Locale } from "@/lib/locale";

/** Money and dates of the balance area: reais from centavos, São Paulo times, calendar days as written. */
export function balanceFormat(locale: Locale) {
  const real = currencyFormatter(locale, "BRL");
  const dateTime = new Intl.DateTimeFormat(locale, { timeZone: TIME_ZONE, dateStyle: "short", timeStyle: "short" });
  const day = new Intl.DateTimeFormat(locale, { day: "2-digit", month: "2-digit", year: "numeric", timeZone: "UTC" });
  const weekday = new Intl.DateTimeFormat(locale, { weekday: "short", timeZone: "UTC" });
  const month = new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" });
  const number = new Intl.NumberFormat(locale);
  const money = (cents: number) => real(fromCents(cents));
  return {
    money,
    /** With its sign always written: what a movement adds or takes. */
    signed: (cents: number) => (cents > 0 ? `+${money(cents)}` : money(cents)),
    count: (value: number) => number.format(value),
    dateTime: (value: Date) => dateTime.format(value),
    day: (value: string) => day.format(new Date(`${value}T00:00:00Z`)),
    weekday: (value: string) => weekday.format(new Date(`${value}T00:00:00Z`)),
    /** "Novembro de 2026": a heading, so its first letter is a capital. */
    month: (value: string) => {
      const text = month.format(new Date(`${value}-01T00:00:00Z`));
      return text.charAt(0).toUpperCase() + text.slice(1);
    },
  };
}
export type BalanceFormat = ReturnType<typeof balanceFormat>;
