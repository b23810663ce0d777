import ExcelJS from "exceljs";
import Papa from "papaparse";
import { isValidCpf, toE164Phone } from "@/lib/br";
import {
  EMPTY_CELLS,
  PAYOUT_COLUMNS,
  mapHeader,
  keyTypeFromWord,
  type PayoutCells,
  type PayoutField,
  type PayoutRowInput,
} from "./columns";
import type { FileProblemCode } from "./validate";

/** More data rows than this and the file is refused as a whole. */
export const MAX_ROWS = 5000;
/** Larger files are refused before they are read (5 MB). */
export const MAX_BYTES = 5 * 1024 * 1024;
/** Rows searched for the header: a title or a blank line above it is tolerated. */
const HEADER_SEARCH_ROWS = 10;

export type { FileProblemCode, PayoutCells, PayoutRowInput };

export type ReadResult =
  | { ok: true; format: "csv" | "xlsx" | "paste"; rows: PayoutRowInput[]; ignoredColumns: string[] }
  | { ok: false; problem: FileProblemCode; detail?: Record<string, string | number> };

export type PayoutFileInput = { fileName: string; bytes: Uint8Array } | { pasted: string };

/**
 * Reads an uploaded CSV/XLSX or pasted rows into text cells, one per template column. Nothing is
 * validated here beyond the file's shape: see `validatePayoutRows`.
 *
 * - CSV and pasted text: delimiter `;`, `,` or tab, the one whose split finds the header; UTF-8
 *   (with or without BOM), UTF-16 with BOM, otherwise Windows-1252 (what Excel pt-BR saves).
 * - XLSX: the first visible worksheet; cell values, not their display text (see `xlsxCellText`).
 */
export async function readPayoutFile(input: PayoutFileInput): Promise<ReadResult> {
  if ("pasted" in input) {
    const text = String(input.pasted ?? "");
    if (new TextEncoder().encode(text).length > MAX_BYTES) return tooLarge();
    return readDelimited(text.replace(/^\uFEFF/, ""), "paste");
  }
  const { bytes } = input;
  const fileName = String(input.fileName ?? "");
  if (bytes.byteLength > MAX_BYTES) return tooLarge();
  if (bytes.byteLength === 0) return { ok: false, problem: "empty" };
  if (startsWith(bytes, ZIP_MAGIC)) return readXlsx(bytes);
  if (startsWith(bytes, OLE_MAGIC)) return { ok: false, problem: "unreadable", detail: { reason: "xls" } };
  const text = decodeText(bytes);
  if (text === null) return { ok: false, problem: "unreadable", detail: { reason: /\.xls$/i.test(fileName) ? "xls" : "binary" } };
  return readDelimited(text, "csv");
}

function tooLarge(): ReadResult {
  return { ok: false, problem: "tooLarge", detail: { maxBytes: MAX_BYTES, maxMb: MAX_BYTES / (1024 * 1024) } };
}

// ---------------------------------------------------------------------------------------------
// Text: encoding and delimiter

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return bytes.length >= magic.length && magic.every((byte, i) => bytes[i] === byte);
}

/** Windows-1252 0x80–0x9F (Node's "windows-1252" TextDecoder decodes these as C1 controls, like ISO-8859-1). */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019,
  0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

export function decodeWindows1252(bytes: Uint8Array): string {
  let out = "";
  const CHUNK = 8192;
  for (let start = 0; start < bytes.length; start += CHUNK) {
    const codes: number[] = [];
    const end = Math.min(bytes.length, start + CHUNK);
    for (let i = start; i < end; i++) {
      const byte = bytes[i];
      codes.push(byte >= 0x80 && byte <= 0x9f ? CP1252_HIGH[byte - 0x80] : byte);
    }
    out += String.fromCharCode(...codes);
  }
  return out;
}

/** The file's text, or null when the bytes are not text (control characters a CSV never holds). */
function decodeText(bytes: Uint8Array): string | null {
  let text: string;
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) text = new TextDecoder("utf-8").decode(bytes.subarray(3));
  else if (startsWith(bytes, [0xff, 0xfe])) text = new TextDecoder("utf-16le").decode(bytes.subarray(2));
  else if (startsWith(bytes, [0xfe, 0xff])) text = new TextDecoder("utf-16be").decode(bytes.subarray(2));
  else {
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      text = decodeWindows1252(bytes);
    }
  }
  if (/[\u0000-\u0008\u000e-\u001a\u001c-\u001f]/.test(text.slice(0, 65_536))) return null;
  return text;
}

const DELIMITERS = [";", ",", "\t"] as const;

function parseRows(text: string, delimiter: string, preview = 0): string[][] {
  return Papa.parse<string[]>(text, { delimiter, header: false, skipEmptyLines: false, quoteChar: '"', preview }).data;
}

/** The delimiter whose split names the most template columns in the first rows; papaparse's guess when none does. */
function detectDelimiter(text: string): string {
  let best: { delimiter: string; score: number } | null = null;
  for (const delimiter of DELIMITERS) {
    const rows = parseRows(text, delimiter, HEADER_SEARCH_ROWS + 5);
    const score = Math.max(0, ...rows.slice(0, HEADER_SEARCH_ROWS).map((row) => mapHeader(row).fields.size));
    if (score > 0 && (!best || score > best.score)) best = { delimiter, score };
  }
  if (best) return best.delimiter;
  const guess = Papa.parse<string[]>(text, { preview: HEADER_SEARCH_ROWS, delimitersToGuess: [...DELIMITERS] });
  return guess.meta.delimiter || ";";
}

function readDelimited(text: string, format: "csv" | "paste"): ReadResult {
  if (text.trim() === "") return { ok: false, problem: "empty" };
  let body = text;
  let delimiter: string | null = null;
  // Excel's "sep=;" first line names the delimiter; Excel does not show it as a row.
  const sep = /^sep=(.)[ \t]*(\r\n|\n|\r)/i.exec(body);
  if (sep) {
    delimiter = sep[1];
    body = body.slice(sep[0].length);
  }
  delimiter ??= detectDelimiter(body);
  const rows = parseRows(body, delimiter).map((cells, index) => ({ line: index + 1, cells }));
  return buildRows(rows, format, (value) => ({ text: textCell(value) }));
}

/** Trimmed; an Excel text formula `="00123"` (how some exports keep leading zeros) gives its text. */
function textCell(value: unknown): string {
  const text = String(value ?? "").trim();
  const formula = /^="(.*)"$/s.exec(text);
  return formula ? formula[1].replace(/""/g, '"').trim() : text;
}

// ---------------------------------------------------------------------------------------------
// Rows: header, columns, cells

type CellText = { text: string; date?: boolean };
type RawRow = { line: number; cells: readonly unknown[] };
type Convert = (value: unknown, field: PayoutField, keyTypeText: string) => CellText;

function isEmptyRaw(row: RawRow): boolean {
  return row.cells.every((value) => value === null || value === undefined || String(value).trim() === "");
}

function buildRows(rawRows: RawRow[], format: "csv" | "xlsx" | "paste", convert: Convert): ReadResult {
  const nonEmpty = rawRows.filter((row) => !isEmptyRaw(row));
  if (nonEmpty.length === 0) return { ok: false, problem: "empty" };

  // The header: the first of the first rows naming every required column; else the best try, for the message.
  const candidates = nonEmpty.slice(0, HEADER_SEARCH_ROWS).map((row, index) => {
    const mapped = mapHeader(row.cells.map((value) => convert(value, "name", "").text));
    return { index, mapped };
  });
  const found = candidates.find((candidate) => candidate.mapped.missing.length === 0);
  if (!found) {
    const best = candidates.reduce((a, b) => (b.mapped.fields.size > a.mapped.fields.size ? b : a));
    return { ok: false, problem: "noHeader", detail: { missing: best.mapped.missing.map((column) => column.header).join(", ") } };
  }
  const { fields, ignored } = found.mapped;
  const dataRows = nonEmpty.slice(found.index + 1);
  if (dataRows.length > MAX_ROWS) return { ok: false, problem: "tooManyRows", detail: { rows: dataRows.length, max: MAX_ROWS } };

  const columns = [...fields.entries()];
  const typeColumn = columns.find(([, field]) => field === "pixKeyType")?.[0];
  const rows: PayoutRowInput[] = [];
  for (const raw of dataRows) {
    const cells: PayoutCells = { ...EMPTY_CELLS };
    let dateCells: PayoutField[] | undefined;
    const keyTypeText = typeColumn === undefined ? "" : convert(raw.cells[typeColumn], "pixKeyType", "").text;
    for (const [index, field] of columns) {
      const cell = convert(raw.cells[index], field, keyTypeText);
      cells[field] = cell.text;
      if (cell.date) (dateCells ??= []).push(field);
    }
    // A line with values only in columns the batch does not use is as good as empty.
    if (PAYOUT_COLUMNS.every((column) => cells[column.field] === "")) continue;
    rows.push(dateCells ? { line: raw.line, cells, dateCells } : { line: raw.line, cells });
  }
  if (rows.length === 0) return { ok: false, problem: "empty" };
  return { ok: true, format, rows, ignoredColumns: ignored };
}

// ---------------------------------------------------------------------------------------------
// XLSX

/** What an XLSX may unpack to: 5,000 rows take about 2 MB; a file claiming far more is refused before it is unpacked. */
export const MAX_XLSX_UNPACKED_BYTES = 64 * 1024 * 1024;

/**
 * The sizes an XLSX (a zip) declares for its parts once unpacked, summed from its central
 * directory without unpacking anything; null when the directory cannot be read (or is zip64,
 * which a 5 MB spreadsheet never needs).
 */
export function xlsxUnpackedBytes(bytes: Uint8Array): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-central-directory record sits in the last 22 bytes plus a comment of up to 64 KB.
  for (let end = bytes.byteLength - 22; end >= Math.max(0, bytes.byteLength - 22 - 0xffff); end--) {
    if (view.getUint32(end, true) !== 0x06054b50) continue;
    const entries = view.getUint16(end + 10, true);
    let offset = view.getUint32(end + 16, true);
    let total = 0;
    for (let i = 0; i < entries; i++) {
      if (offset + 46 > bytes.byteLength || view.getUint32(offset, true) !== 0x02014b50) return null;
      const unpacked = view.getUint32(offset + 24, true);
      if (unpacked === 0xffffffff) return null;
      total += unpacked;
      offset += 46 + view.getUint16(offset + 28, true) + view.getUint16(offset + 30, true) + view.getUint16(offset + 32, true);
    }
    return total;
  }
  return null;
}

async function readXlsx(bytes: Uint8Array): Promise<ReadResult> {
  const unpacked = xlsxUnpackedBytes(bytes);
  if (unpacked === null) return { ok: false, problem: "unreadable", detail: { reason: "xlsx" } };
  if (unpacked > MAX_XLSX_UNPACKED_BYTES) {
    return { ok: false, problem: "tooLargeUnpacked", detail: { maxMb: MAX_XLSX_UNPACKED_BYTES / (1024 * 1024), max: MAX_ROWS } };
  }
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes.slice().buffer);
  } catch {
    return { ok: false, problem: "unreadable", detail: { reason: "xlsx" } };
  }
  const sheet = workbook.worksheets.find((ws) => ws.state !== "hidden" && ws.state !== "veryHidden") ?? workbook.worksheets[0];
  if (!sheet) return { ok: false, problem: "unreadable", detail: { reason: "xlsx" } };
  const rows: RawRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: unknown[] = [];
    row.eachCell({ includeEmpty: false }, (cell, column) => {
      cells[column - 1] = cell.value;
    });
    rows.push({ line: rowNumber, cells });
  });
  return buildRows(rows, "xlsx", xlsxCellText);
}

/** A number as Excel holds it (15 significant digits), without binary float noise: 0.1 + 0.2 → "0.3". */
function numberText(value: number): string {
  return String(Number(value.toPrecision(15)));
}

/**
 * An XLSX cell as text. Values, not display text: an amount cell formatted `R$ 1.234,56` gives
 * `1234.56`; a formula its cached result; rich text its plain text; a hyperlink (Excel links typed
 * e-mails) its text; an error value its code (`#N/A`, refused by the validation). Numbers typed
 * where a CPF/CNPJ goes lost their leading zeros in Excel: they get them back.
 */
export function xlsxCellText(value: unknown, field: PayoutField, keyTypeText: string): CellText {
  if (value === null || value === undefined) return { text: "" };
  if (typeof value === "string") return { text: textCell(value) };
  if (typeof value === "boolean") return { text: value ? "TRUE" : "FALSE" };
  if (typeof value === "number") return { text: numberCellText(value, field, keyTypeText) };
  if (value instanceof Date) return { text: dateText(value), date: true };
  if (typeof value === "object") {
    const object = value as Record<string, unknown>;
    if ("error" in object) return { text: String(object.error ?? "") };
    if (Array.isArray(object.richText)) return { text: richText(object.richText) };
    if ("hyperlink" in object || "text" in object) return xlsxCellText(object.text, field, keyTypeText);
    if ("formula" in object || "sharedFormula" in object) return xlsxCellText(object.result, field, keyTypeText);
  }
  return { text: "" };
}

function richText(parts: unknown[]): string {
  return parts
    .map((part) => (part && typeof part === "object" ? String((part as { text?: unknown }).text ?? "") : ""))
    .join("")
    .trim();
}

function numberCellText(value: number, field: PayoutField, keyTypeText: string): string {
  if (!Number.isFinite(value)) return String(value);
  const text = numberText(value);
  const integer = Number.isInteger(value) && value >= 0 ? text : null;
  switch (field) {
    case "amount":
      // "1.234" would read as one thousand two hundred and thirty-four: a number cell with three
      // decimals must stay refused as such (more than 2 decimals), so it gets a fourth, zero, decimal.
      return /^-?\d{1,3}\.\d{3}$/.test(text) ? `${text}0` : text;
    case "document":
      if (integer === null) return text;
      if (integer.length <= 11) return integer.padStart(11, "0");
      return integer.length <= 14 ? integer.padStart(14, "0") : integer;
    case "pixKey": {
      if (integer === null) return text;
      const type = keyTypeFromWord(keyTypeText);
      if (type === "cpf" && integer.length < 11) return integer.padStart(11, "0");
      if (type === "cnpj" && integer.length < 14) return integer.padStart(14, "0");
      if (!type && integer.length < 11) {
        // Only when the padded number is a valid CPF and the number as typed is not a phone.
        const padded = integer.padStart(11, "0");
        if (isValidCpf(padded) && !toE164Phone(integer)) return padded;
      }
      return integer;
    }
    default:
      return text;
  }
}

/** `dd/mm/aaaa` (and the time when there is one), as a pt-BR spreadsheet shows the date; Excel dates are UTC here. */
function dateText(date: Date): string {
  if (Number.isNaN(date.getTime())) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  const day = `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}`;
  const hasTime = date.getUTCHours() || date.getUTCMinutes() || date.getUTCSeconds();
  return hasTime ? `${day} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}` : day;
}
