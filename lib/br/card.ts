import { onlyDigits } from "./digits";

export const CARD_BRANDS = ["elo", "hipercard", "amex", "diners", "visa", "mastercard"] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

export function luhnValid(number: string): boolean {
  if (typeof number !== "string") return false;
  const digits = number.replace(/[\s-]/g, "");
  if (!/^\d{2,}$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = Number(digits[i]);
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

const ELO_SINGLE = [401178, 401179, 431274, 438935, 451416, 457393, 457631, 457632, 504175, 627780, 636297, 636368];
const ELO_RANGES: Array<[number, number]> = [
  [506699, 506778],
  [509000, 509999],
  [650031, 650033],
  [650035, 650051],
  [650405, 650439],
  [650485, 650538],
  [650541, 650598],
  [650700, 650718],
  [650720, 650727],
  [650901, 650920],
  [651652, 651679],
  [655000, 655019],
  [655021, 655058],
];

function isElo(bin6: number): boolean {
  return ELO_SINGLE.includes(bin6) || ELO_RANGES.some(([from, to]) => bin6 >= from && bin6 <= to);
}

/** Brand by prefix; Elo and Hipercard first because their ranges overlap Visa, Mastercard and Diners. */
export function cardBrand(number: string): CardBrand | null {
  const digits = onlyDigits(number ?? "");
  if (digits.length < 2) return null;
  if (digits.length >= 6) {
    const bin6 = Number(digits.slice(0, 6));
    if (isElo(bin6)) return "elo";
    if (bin6 === 606282 || /^3841\d0/.test(digits)) return "hipercard";
  }
  if (/^3[47]/.test(digits)) return "amex";
  if (/^(30[0-5]|36|38)/.test(digits)) return "diners";
  if (digits.startsWith("4")) return "visa";
  const four = Number(digits.slice(0, 4));
  if (/^5[1-5]/.test(digits) || (digits.length >= 4 && four >= 2221 && four <= 2720)) return "mastercard";
  return null;
}

const LENGTHS: Record<CardBrand, readonly number[]> = {
  visa: [13, 16, 19],
  mastercard: [16],
  amex: [15],
  diners: [14, 16],
  elo: [16],
  hipercard: [13, 16, 19],
};

export function cardNumberLengths(brand: CardBrand): readonly number[] {
  return LENGTHS[brand];
}

export function cardNumberLengthOk(number: string, brand: CardBrand | null): boolean {
  const length = onlyDigits(number ?? "").length;
  if (!brand) return length >= 12 && length <= 19;
  return LENGTHS[brand].includes(length);
}

export function cvvLengthFor(brand: CardBrand | null): number {
  return brand === "amex" ? 4 : 3;
}

/** At most the first 6 and the last 4 digits stay visible: `411111••••••1111`. */
export function maskCardNumber(number: string): string {
  const digits = onlyDigits(number ?? "");
  if (digits.length <= 4) return "•".repeat(digits.length);
  if (digits.length <= 10) return "•".repeat(digits.length - 4) + digits.slice(-4);
  return digits.slice(0, 6) + "•".repeat(digits.length - 10) + digits.slice(-4);
}

export function cardLast4(number: string): string {
  return onlyDigits(number ?? "").slice(-4);
}

/** The first 6 digits (BIN/IIN), or "" when the number is too short to have one. */
export function cardBin(number: string): string {
  const digits = onlyDigits(number ?? "");
  return digits.length >= 10 ? digits.slice(0, 6) : "";
}

/** `12/29`, `12/2029`, `2029-12` → `2029-12`; null when not a month. */
export function normalizeCardExpiry(value: string): string | null {
  const s = (value ?? "").trim();
  let match = /^(\d{4})-(\d{2})$/.exec(s);
  let year: number;
  let month: number;
  if (match) {
    year = Number(match[1]);
    month = Number(match[2]);
  } else {
    match = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(s);
    if (!match) return null;
    month = Number(match[1]);
    year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  }
  if (month < 1 || month > 12) return null;
  return `${year}-${String(month).padStart(2, "0")}`;
}

/** A card is good through the last day of its expiry month (in the caller's local calendar). */
export function isExpiryNotPast(expiry: string, now: Date = new Date()): boolean {
  const match = /^(\d{4})-(\d{2})$/.exec((expiry ?? "").trim());
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  if (month < 1 || month > 12) return false;
  return year * 12 + month >= now.getFullYear() * 12 + (now.getMonth() + 1);
}
