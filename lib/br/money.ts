/** Rounds half away from zero to centavos, absorbing binary float error (1.005 → 1.01). */
export function roundMoney(value: number): number {
  return fromCents(toCents(value));
}

/** Integer centavos; tolerant of float error (0.1 + 0.2 → 30). */
export function toCents(value: number): number {
  const scaled = Number((Math.abs(value) * 100).toPrecision(15));
  const cents = Math.round(scaled);
  return value < 0 ? -cents : cents;
}

export function fromCents(cents: number): number {
  return Math.round(cents) / 100;
}

/** True for 10, 10.5, 0.1 + 0.2; false for 10.001. */
export function hasAtMostTwoDecimals(value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const scaled = Number((value * 100).toPrecision(15));
  return Number.isInteger(scaled);
}

/**
 * Parses what people type for an amount: `1.234,56`, `1234,56`, `1234.56`, `R$ 10,00`, `10`.
 * A lone dot followed by exactly three digits is a thousands separator (`1.234` → 1234);
 * `1,234.56` is accepted, a bare `1,234` is not (three decimals in pt-BR).
 * Returns null for anything else (including more than two decimals).
 */
export function parseMoneyInput(value: string): number | null {
  if (typeof value !== "string") return null;
  let s = value.replace(/\s|\u00a0/g, "");
  s = s.replace(/^R\$/i, "");
  let negative = false;
  if (s.startsWith("-")) {
    negative = true;
    s = s.slice(1);
  }
  if (s === "") return null;
  let normalized: string;
  if (/^\d{1,3}(\.\d{3})*(,\d{1,2})?$/.test(s) || /^\d+(,\d{1,2})?$/.test(s)) {
    normalized = s.replace(/\./g, "").replace(",", ".");
  } else if (/^\d{1,3}(,\d{3})+\.\d{1,2}$/.test(s)) {
    normalized = s.replace(/,/g, "");
  } else if (/^\d+\.\d{1,2}$/.test(s)) {
    normalized = s;
  } else {
    return null;
  }
  const n = Number(normalized);
  if (!Number.isFinite(n)) return null;
  return negative ? -n : n;
}

/** `1234.5` → `1.234,50` (no currency symbol; for input fields). */
export function formatMoneyInput(value: number): string {
  const cents = toCents(value);
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const integer = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  const decimals = String(abs % 100).padStart(2, "0");
  return `${negative ? "-" : ""}${integer},${decimals}`;
}

/** `R$ 1.234,56` — fixed pt-BR formatting independent of the runtime's Intl data. */
export function formatBrl(value: number): string {
  const text = formatMoneyInput(value);
  return text.startsWith("-") ? `-R$ ${text.slice(1)}` : `R$ ${text}`;
}
