import { TIME_ZONE, type Locale } from "@/lib/locale";

/** The calendar date (YYYY-MM-DD) an instant falls on in São Paulo, whatever the machine's zone. */
export function saoPauloDate(instant: Date = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(instant);
}

/**
 * Amounts in any currency, never converted: written as that currency the locale's way, or, for a
 * code Intl does not know, as the number after its code (never as reais). Spaces are plain ones.
 */
export function currencyFormatter(locale: string, currency: string, { compact = false } = {}): (amount: number) => string {
  const notation = compact ? "compact" : "standard";
  try {
    const format = new Intl.NumberFormat(locale, { style: "currency", currency, notation });
    return (amount) => format.format(amount).replace(/\u00a0/g, " ");
  } catch {
    const plain = new Intl.NumberFormat(locale, compact ? { notation } : { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    return (amount) => `${currency} ${plain.format(amount).replace(/\u00a0/g, " ")}`;
  }
}

export type Formatters = ReturnType<typeof createFormatters>;

/** Money is always BRL and formatted the Brazilian way in pt-BR (R$ 1.234,56). */
export function createFormatters(locale: Locale) {
  const money = new Intl.NumberFormat(locale, { style: "currency", currency: "BRL" });
  const dateTime = new Intl.DateTimeFormat(locale, { timeZone: TIME_ZONE, dateStyle: "short", timeStyle: "short" });
  const dateTimeZoned = new Intl.DateTimeFormat(locale, {
    timeZone: TIME_ZONE,
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    timeZoneName: "short",
  });
  const date = new Intl.DateTimeFormat(locale, { timeZone: TIME_ZONE, dateStyle: "short" });
  const number = new Intl.NumberFormat(locale);
  // A calendar month as its name ("novembro de 2026"); read at noon UTC of its first day, so no time zone moves it.
  const monthYear = new Intl.DateTimeFormat(locale, { timeZone: "UTC", month: "long", year: "numeric" });
  const toDate = (value: Date | string | number) => (value instanceof Date ? value : new Date(value));
  return {
    money: (amount: number) => money.format(amount).replace(/\u00a0/g, " "),
    dateTime: (value: Date | string | number) => dateTime.format(toDate(value)),
    dateTimeZoned: (value: Date | string | number) => dateTimeZoned.format(toDate(value)),
    date: (value: Date | string | number) => date.format(toDate(value)),
    number: (value: number) => number.format(value),
    /** `YYYY-MM` as the month's name and year; anything else as it is. */
    month: (value: string) => (/^\d{4}-\d{2}$/.test(value) ? monthYear.format(new Date(`${value}-01T12:00:00Z`)) : value),
  };
}

/** A language code (pt-BR, en, es) as its name in the reader's language; a code Intl cannot read stays as it is. */
export function languageName(locale: Locale, code: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: "language" }).of(code) ?? code;
  } catch {
    return code;
  }
}
