import { onlyDigits } from "./digits";

/** Accepts `01310-100`, `01310100` or `01.310-100`. */
export function isValidCep(value: string): boolean {
  if (typeof value !== "string") return false;
  return /^\d{2}\.?\d{3}-?\d{3}$/.test(value.trim());
}

export function formatCep(value: string): string {
  const digits = onlyDigits(value);
  if (digits.length !== 8) return value.trim();
  return `${digits.slice(0, 5)}-${digits.slice(5)}`;
}
