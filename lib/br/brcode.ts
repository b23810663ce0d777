import { stripAccents } from "./text";
import { toCents } from "./money";

/** CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor. 4 upper-case hex digits. */
export function crc16Ccitt(input: string): string {
  const bytes = new TextEncoder().encode(input);
  let crc = 0xffff;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

export const PIX_GUI = "br.gov.bcb.pix";
export const BRCODE_MERCHANT_NAME_MAX = 25;
export const BRCODE_MERCHANT_CITY_MAX = 15;
export const BRCODE_TXID_MAX = 25;

/** The Banco Central rule for txids we generate: 1–25 letters or digits. */
export function isValidPixTxid(txid: string): boolean {
  return /^[A-Za-z0-9]{1,25}$/.test(txid);
}

type Common = { merchantName: string; merchantCity: string; amount?: number; txid?: string };
export type BrCodeInput =
  (Common & { kind: "dynamic"; location: string }) | (Common & { kind: "static"; key: string; description?: string });

function field(id: string, value: string): string {
  if (value.length > 99) throw new RangeError(`BR Code field ${id} is longer than 99 characters`);
  return id + String(value.length).padStart(2, "0") + value;
}

/** Keeps BR Code text to printable ASCII: byte and character lengths must agree. */
function sanitize(value: string, max: number): string {
  return stripAccents(value)
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, max)
    .trim();
}

function stripScheme(url: string): string {
  return url.trim().replace(/^https?:\/\//i, "");
}

export function formatBrCodeAmount(amount: number): string {
  const cents = toCents(amount);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/** Builds a Pix "copia e cola" payload, ending in its CRC. Throws RangeError on impossible input. */
export function buildBrCode(input: BrCodeInput): string {
  const merchantName = sanitize(input.merchantName, BRCODE_MERCHANT_NAME_MAX);
  const merchantCity = sanitize(input.merchantCity, BRCODE_MERCHANT_CITY_MAX);
  if (!merchantName) throw new RangeError("BR Code merchant name is empty");
  if (!merchantCity) throw new RangeError("BR Code merchant city is empty");
  const txid = input.txid?.trim() ? input.txid.trim() : "***";
  // Lenient on purpose: published payloads carry txids such as `RP12345678-2019`.
  if (txid !== "***" && !/^[\x21-\x7e]{1,25}$/.test(txid)) {
    throw new RangeError("BR Code txid must be 1–25 printable characters");
  }
  if (input.amount !== undefined && (!Number.isFinite(input.amount) || toCents(input.amount) <= 0)) {
    throw new RangeError("BR Code amount must be positive");
  }

  let account = field("00", PIX_GUI);
  if (input.kind === "dynamic") {
    account += field("25", stripScheme(input.location));
  } else {
    account += field("01", input.key.trim());
    const description = input.description ? sanitize(input.description, 99) : "";
    if (description) account += field("02", description);
  }

  let payload = field("00", "01");
  if (input.kind === "dynamic") payload += field("01", "12");
  payload += field("26", account);
  payload += field("52", "0000");
  payload += field("53", "986");
  if (input.amount !== undefined) payload += field("54", formatBrCodeAmount(input.amount));
  payload += field("58", "BR");
  payload += field("59", merchantName);
  payload += field("60", merchantCity);
  payload += field("62", field("05", txid));
  payload += "6304";
  return payload + crc16Ccitt(payload);
}

export type BrCodeFields = Record<string, string | Record<string, string>>;

export type ParsedBrCode = {
  ok: true;
  /** Top-level fields by id; 26 (and the other 26–51 templates) and 62 as nested objects. */
  fields: BrCodeFields;
  pointOfInitiation?: "11" | "12";
  amount?: number;
  key?: string;
  location?: string;
  description?: string;
  txid?: string;
  merchantName: string;
  merchantCity: string;
  crc: string;
};
export type BrCodeParseError =
  "empty" | "malformed" | "crc" | "payloadFormat" | "missingField" | "notPix" | "currency" | "amount" | "country";
export type BrCodeParseResult = ParsedBrCode | { ok: false; error: BrCodeParseError };

/** Splits a TLV string; null when a length runs past the end or is not two digits. */
function splitTlv(value: string): Array<[string, string]> | null {
  const out: Array<[string, string]> = [];
  let i = 0;
  while (i < value.length) {
    const head = value.slice(i, i + 4);
    if (!/^\d{4}$/.test(head)) return null;
    const length = Number(head.slice(2));
    const content = value.slice(i + 4, i + 4 + length);
    if (content.length !== length) return null;
    out.push([head.slice(0, 2), content]);
    i += 4 + length;
  }
  return out;
}

function isTemplate(id: string): boolean {
  const n = Number(id);
  return (n >= 26 && n <= 51) || n === 62 || n === 80;
}

export function parseBrCode(code: string): BrCodeParseResult {
  if (typeof code !== "string" || code.trim() === "") return { ok: false, error: "empty" };
  const payload = code.trim();
  if (!/^[\x20-\x7e]+$/.test(payload)) return { ok: false, error: "malformed" };
  const top = splitTlv(payload);
  if (!top || top.length < 2) return { ok: false, error: "malformed" };

  const last = top[top.length - 1];
  if (last[0] !== "63" || last[1].length !== 4 || !/^[0-9A-Fa-f]{4}$/.test(last[1])) {
    return { ok: false, error: "malformed" };
  }
  const expectedCrc = crc16Ccitt(payload.slice(0, -4));
  if (expectedCrc !== last[1].toUpperCase()) return { ok: false, error: "crc" };
  if (top[0][0] !== "00" || top[0][1] !== "01") return { ok: false, error: "payloadFormat" };

  const fields: BrCodeFields = {};
  const seen = new Set<string>();
  for (const [id, value] of top) {
    if (seen.has(id)) return { ok: false, error: "malformed" };
    seen.add(id);
    if (isTemplate(id)) {
      const nested = splitTlv(value);
      if (!nested) return { ok: false, error: "malformed" };
      fields[id] = Object.fromEntries(nested);
    } else {
      fields[id] = value;
    }
  }

  let account: Record<string, string> | undefined;
  for (let n = 26; n <= 51; n++) {
    const candidate = fields[String(n)];
    if (typeof candidate === "object" && candidate["00"]?.toLowerCase() === PIX_GUI) {
      account = candidate;
      break;
    }
  }
  if (!account) return { ok: false, error: "notPix" };
  if (!account["01"] && !account["25"]) return { ok: false, error: "missingField" };

  const merchantName = fields["59"];
  const merchantCity = fields["60"];
  if (typeof merchantName !== "string" || typeof merchantCity !== "string") {
    return { ok: false, error: "missingField" };
  }
  if (fields["52"] === undefined || fields["58"] === undefined) return { ok: false, error: "missingField" };
  if (fields["53"] !== "986") return { ok: false, error: "currency" };
  if (fields["58"] !== "BR") return { ok: false, error: "country" };

  let amount: number | undefined;
  const rawAmount = fields["54"];
  if (rawAmount !== undefined) {
    if (typeof rawAmount !== "string" || !/^\d+(\.\d{1,2})?$/.test(rawAmount)) return { ok: false, error: "amount" };
    amount = Number(rawAmount);
  }

  const pointOfInitiation = fields["01"];
  if (pointOfInitiation !== undefined && pointOfInitiation !== "11" && pointOfInitiation !== "12") {
    return { ok: false, error: "malformed" };
  }
  const additional = fields["62"];
  const txid = typeof additional === "object" ? additional["05"] : undefined;

  const result: ParsedBrCode = { ok: true, fields, merchantName, merchantCity, crc: last[1].toUpperCase() };
  if (pointOfInitiation) result.pointOfInitiation = pointOfInitiation;
  if (amount !== undefined) result.amount = amount;
  if (account["01"]) result.key = account["01"];
  if (account["25"]) result.location = account["25"];
  if (account["02"]) result.description = account["02"];
  if (txid !== undefined) result.txid = txid;
  return result;
}

export function isValidBrCode(code: string): boolean {
  return parseBrCode(code).ok;
}
