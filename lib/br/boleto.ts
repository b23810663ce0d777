import { onlyDigits } from "./digits";

const DAY_MS = 86_400_000;
/** Factor 0 is 1997-10-07; the factor ran 1000…9999 and restarted at 1000 on 2025-02-22. */
const FACTOR_BASE_UTC = Date.UTC(1997, 9, 7);
const FIRST_FACTOR_DAY = 1000;
const FACTOR_CYCLE = 9000;

export type DateInput = Date | string;

/** Day number (UTC midnight-based) of a `YYYY-MM-DD` string or of a Date's calendar day in UTC. */
function toUtcDay(date: DateInput): number {
  if (typeof date === "string") {
    const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date.trim());
    if (!match) throw new RangeError(`Invalid date: ${date}`);
    const [, y, m, d] = match.map(Number);
    const ms = Date.UTC(y, m - 1, d);
    const check = new Date(ms);
    if (check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) throw new RangeError(`Invalid date: ${date}`);
    return Math.round(ms / DAY_MS);
  }
  if (Number.isNaN(date.getTime())) throw new RangeError("Invalid date");
  return Math.floor(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()) / DAY_MS);
}

function dayToIso(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/**
 * FEBRABAN due-date factor as 4 digits; `0000` when there is no due date.
 * Dates are calendar days (`YYYY-MM-DD`, or a Date read in UTC).
 */
export function dueDateFactor(date: DateInput | null): string {
  if (date === null) return "0000";
  const days = toUtcDay(date) - FACTOR_BASE_UTC / DAY_MS;
  if (days < FIRST_FACTOR_DAY) throw new RangeError("Due dates before 2000-07-03 have no factor");
  const factor = ((days - FIRST_FACTOR_DAY) % FACTOR_CYCLE) + FIRST_FACTOR_DAY;
  return String(factor).padStart(4, "0");
}

/** The `YYYY-MM-DD` date of a factor nearest `today` (the factor repeats every 9000 days); null for `0000`. */
export function factorToDate(factor: string | number, today: DateInput = new Date()): string | null {
  const n = typeof factor === "number" ? factor : Number(factor);
  if (!Number.isInteger(n) || n < 0 || n > 9999) throw new RangeError(`Invalid due-date factor: ${factor}`);
  if (n === 0) return null;
  if (n < FIRST_FACTOR_DAY) throw new RangeError(`Invalid due-date factor: ${factor}`);
  const baseDay = FACTOR_BASE_UTC / DAY_MS;
  const todayOffset = toUtcDay(today) - baseDay;
  const cycles = Math.round((todayOffset - n) / FACTOR_CYCLE);
  let best = n;
  for (const k of [cycles - 1, cycles, cycles + 1]) {
    if (k < 0) continue;
    const candidate = n + k * FACTOR_CYCLE;
    if (Math.abs(candidate - todayOffset) < Math.abs(best - todayOffset)) best = candidate;
  }
  return dayToIso(baseDay + best);
}

/** Mod 11 general check digit over the 43 other digits (weights 2…9 from the right). */
export function boletoGeneralCheckDigit(digits43: string): string {
  let sum = 0;
  let weight = 2;
  for (let i = digits43.length - 1; i >= 0; i--) {
    sum += Number(digits43[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const digit = 11 - (sum % 11);
  return digit === 0 || digit === 1 || digit === 10 || digit === 11 ? "1" : String(digit);
}

/** Mod 10 check digit of a digitable-line field (weights 2,1,2,… from the right, product digits summed). */
export function mod10(digits: string): string {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    const product = Number(digits[i]) * weight;
    sum += product > 9 ? product - 9 : product;
    weight = weight === 2 ? 1 : 2;
  }
  return String((10 - (sum % 10)) % 10);
}

export type BoletoBarcodeInput = {
  bankCode: string;
  amountCents: number;
  dueDate: DateInput | null;
  /** 25 bank-defined digits. */
  freeField: string;
};

/** The 44-digit barcode. Throws RangeError on impossible input. */
export function buildBoletoBarcode(input: BoletoBarcodeInput): string {
  if (!/^\d{3}$/.test(input.bankCode)) throw new RangeError("Bank code must be 3 digits");
  if (!/^\d{25}$/.test(input.freeField)) throw new RangeError("Free field must be 25 digits");
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents < 0 || input.amountCents > 9_999_999_999) {
    throw new RangeError("Amount must be 0 to 9999999999 centavos");
  }
  const factor = dueDateFactor(input.dueDate);
  const amount = String(input.amountCents).padStart(10, "0");
  const withoutDigit = `${input.bankCode}9${factor}${amount}${input.freeField}`;
  const digit = boletoGeneralCheckDigit(withoutDigit);
  return withoutDigit.slice(0, 4) + digit + withoutDigit.slice(4);
}

export function isValidBarcode(value: string): boolean {
  if (typeof value !== "string" || !/^\d{44}$/.test(value)) return false;
  if (value[3] !== "9") return false;
  return boletoGeneralCheckDigit(value.slice(0, 4) + value.slice(5)) === value[4];
}

/** 47 digits, unformatted; null when the barcode is invalid. */
export function barcodeToDigitableLine(barcode: string): string | null {
  const code = onlyDigits(barcode);
  if (code.length !== 44 || !isValidBarcode(code)) return null;
  const free = code.slice(19);
  const field1 = code.slice(0, 4) + free.slice(0, 5);
  const field2 = free.slice(5, 15);
  const field3 = free.slice(15, 25);
  return field1 + mod10(field1) + field2 + mod10(field2) + field3 + mod10(field3) + code[4] + code.slice(5, 19);
}

export function isValidDigitableLine(value: string): boolean {
  if (typeof value !== "string" || !/^[\d\s.]+$/.test(value.trim())) return false;
  const line = onlyDigits(value);
  if (line.length !== 47) return false;
  if (mod10(line.slice(0, 9)) !== line[9]) return false;
  if (mod10(line.slice(10, 20)) !== line[20]) return false;
  if (mod10(line.slice(21, 31)) !== line[31]) return false;
  return isValidBarcode(lineToBarcodeUnchecked(line));
}

function lineToBarcodeUnchecked(line: string): string {
  return line.slice(0, 4) + line[32] + line.slice(33, 47) + line.slice(4, 9) + line.slice(10, 20) + line.slice(21, 31);
}

/** The 44-digit barcode of a digitable line (masked or not); null when any check digit is wrong. */
export function digitableLineToBarcode(line: string): string | null {
  if (!isValidDigitableLine(line)) return null;
  return lineToBarcodeUnchecked(onlyDigits(line));
}

/** `AAABC.CCCCX DDDDD.DDDDDY EEEEE.EEEEEZ K UUUUVVVVVVVVVV`; other input is returned trimmed. */
export function formatDigitableLine(line: string): string {
  const d = onlyDigits(line);
  if (d.length !== 47) return line.trim();
  return `${d.slice(0, 5)}.${d.slice(5, 10)} ${d.slice(10, 15)}.${d.slice(15, 21)} ${d.slice(21, 26)}.${d.slice(26, 32)} ${d[32]} ${d.slice(33)}`;
}

export type ParsedBoletoBarcode = {
  bankCode: string;
  currencyCode: string;
  checkDigit: string;
  amountCents: number;
  factor: string;
  /** `YYYY-MM-DD`, or null when the factor is `0000`. */
  dueDate: string | null;
  freeField: string;
};

/** Accepts a barcode or a digitable line; null when invalid. */
export function parseBoletoBarcode(value: string, today: DateInput = new Date()): ParsedBoletoBarcode | null {
  const digits = onlyDigits(value);
  const barcode = digits.length === 47 ? digitableLineToBarcode(value) : isValidBarcode(digits) ? digits : null;
  if (!barcode) return null;
  const factor = barcode.slice(5, 9);
  const factorNumber = Number(factor);
  return {
    bankCode: barcode.slice(0, 3),
    currencyCode: barcode[3],
    checkDigit: barcode[4],
    factor,
    dueDate: factorNumber === 0 || factorNumber < FIRST_FACTOR_DAY ? null : factorToDate(factor, today),
    amountCents: Number(barcode.slice(9, 19)),
    freeField: barcode.slice(19),
  };
}
