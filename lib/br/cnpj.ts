import { isAllSameChar, randomDigit, type Rng } from "./digits";

const FIRST_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const SECOND_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_PATTERN = /^[0-9A-Z]{12}[0-9]{2}$/;
const ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** Alphanumeric CNPJ: each character is worth its ASCII code minus 48 (digits keep their value). */
function charValue(char: string): number {
  return char.charCodeAt(0) - 48;
}

function checkDigit(chars: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += charValue(chars[i]) * weights[i];
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** Check digits for the 12-character base (digits or A–Z). */
export function cnpjCheckDigits(base: string): string {
  const first = checkDigit(base, FIRST_WEIGHTS);
  const second = checkDigit(base + first, SECOND_WEIGHTS);
  return `${first}${second}`;
}

/** Strips `.`, `/`, `-` and whitespace and upper-cases. */
export function normalizeCnpj(value: string): string {
  return value.replace(/[./\-\s]/g, "").toUpperCase();
}

export function isValidCnpj(value: string): boolean {
  if (typeof value !== "string") return false;
  const cnpj = normalizeCnpj(value);
  if (!CNPJ_PATTERN.test(cnpj)) return false;
  if (isAllSameChar(cnpj)) return false;
  return cnpjCheckDigits(cnpj.slice(0, 12)) === cnpj.slice(12);
}

/** Formats 14 characters as `00.000.000/0000-00`; other input is returned trimmed, unchanged. */
export function formatCnpj(value: string): string {
  const c = normalizeCnpj(value);
  if (!/^[0-9A-Z]{14}$/.test(c)) return value.trim();
  return `${c.slice(0, 2)}.${c.slice(2, 5)}.${c.slice(5, 8)}/${c.slice(8, 12)}-${c.slice(12)}`;
}

/** A random valid CNPJ for tests and seed data; `alphanumeric` mixes in letters in the base. */
export function generateCnpj(rng: Rng = Math.random, options: { alphanumeric?: boolean } = {}): string {
  let base = "";
  for (let i = 0; i < 12; i++) {
    base += options.alphanumeric
      ? ALPHANUMERIC[Math.min(ALPHANUMERIC.length - 1, Math.floor(rng() * ALPHANUMERIC.length))]
      : String(randomDigit(rng));
  }
  // A constant rng would otherwise yield a rejected all-same base.
  if (isAllSameChar(base)) base = base.slice(0, 11) + (base[11] === "0" ? "1" : "0");
  return base + cnpjCheckDigits(base);
}
