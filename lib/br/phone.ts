import { onlyDigits } from "./digits";

/** Brazilian area codes (DDD) in use. */
export const DDDS: readonly string[] = (() => {
  const ranges: Array<[number, number]> = [
    [11, 19],
    [21, 22],
    [24, 24],
    [27, 28],
    [31, 35],
    [37, 38],
    [41, 49],
    [51, 51],
    [53, 55],
    [61, 69],
    [71, 71],
    [73, 75],
    [77, 77],
    [79, 79],
    [81, 89],
    [91, 99],
  ];
  const codes: string[] = [];
  for (const [from, to] of ranges) for (let n = from; n <= to; n++) codes.push(String(n));
  return codes;
})();

const DDD_SET = new Set(DDDS);

export function isValidDdd(ddd: string): boolean {
  return DDD_SET.has(ddd);
}

export type BrPhone = { ddd: string; number: string; mobile: boolean };

/**
 * Accepts `+55 11 99999-9999`, `(11) 3333-4444`, `5511999999999`, `011 99999 9999`…
 * Only separators (space, parentheses, dot, dash) and a leading `+` are tolerated.
 */
export function parseBrPhone(value: string): BrPhone | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  if (!/^\+?[\d\s().-]+$/.test(trimmed)) return null;
  let digits = onlyDigits(trimmed);
  if (trimmed.startsWith("+")) {
    if (!digits.startsWith("55")) return null;
    digits = digits.slice(2);
  } else if (digits.length >= 12 && digits.startsWith("55")) {
    digits = digits.slice(2);
  } else if (digits.startsWith("0")) {
    // trunk prefix used for long-distance dialling
    digits = digits.slice(1);
  }
  if (digits.length !== 10 && digits.length !== 11) return null;
  const ddd = digits.slice(0, 2);
  const number = digits.slice(2);
  if (!isValidDdd(ddd)) return null;
  if (number.length === 9) return number.startsWith("9") ? { ddd, number, mobile: true } : null;
  // landlines start with 2–5; 8-digit numbers starting with 6–9 are old mobile numbers
  return /^[2-5]/.test(number) ? { ddd, number, mobile: false } : null;
}

export function isValidBrPhone(value: string): boolean {
  return parseBrPhone(value) !== null;
}

/** `(11) 99999-9999` / `(11) 3333-4444`; returns invalid input trimmed, unchanged. */
export function formatBrPhone(value: string): string {
  const phone = parseBrPhone(value);
  if (!phone) return value.trim();
  const split = phone.number.length - 4;
  return `(${phone.ddd}) ${phone.number.slice(0, split)}-${phone.number.slice(split)}`;
}

/** `+5511999999999`, or null when the number is not a valid Brazilian phone. */
export function toE164Phone(value: string): string | null {
  const phone = parseBrPhone(value);
  return phone ? `+55${phone.ddd}${phone.number}` : null;
}
