import { isAllSameChar, onlyDigits, randomDigit, type Rng } from "./digits";

function checkDigit(digits: readonly number[], firstWeight: number): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += digits[i] * (firstWeight - i);
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** Check digits for the 9 base digits. */
export function cpfCheckDigits(base: string): string {
  const nums = base.split("").map(Number);
  const first = checkDigit(nums, 10);
  const second = checkDigit([...nums, first], 11);
  return `${first}${second}`;
}

/** Accepts masked (`123.456.789-09`) or bare digits; rejects anything else. */
export function isValidCpf(value: string): boolean {
  if (typeof value !== "string") return false;
  const trimmed = value.trim();
  if (!/^\d{3}\.?\d{3}\.?\d{3}-?\d{2}$/.test(trimmed)) return false;
  const digits = onlyDigits(trimmed);
  if (isAllSameChar(digits)) return false;
  return cpfCheckDigits(digits.slice(0, 9)) === digits.slice(9);
}

/** Formats 11 digits as `000.000.000-00`; other input is returned trimmed, unchanged. */
export function formatCpf(value: string): string {
  const digits = onlyDigits(value);
  if (digits.length !== 11) return value.trim();
  return `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`;
}

/** A random valid CPF (digits only), for tests and seed data. */
export function generateCpf(rng: Rng = Math.random): string {
  let base = "";
  for (let i = 0; i < 9; i++) base += randomDigit(rng);
  // A constant rng would otherwise yield a rejected all-same number.
  if (isAllSameChar(base)) base = base.slice(0, 8) + ((Number(base[8]) + 1) % 10);
  return base + cpfCheckDigits(base);
}
