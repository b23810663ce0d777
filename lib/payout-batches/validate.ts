import {
  guessPixKeyType,
  isValidCnpj,
  isValidCpf,
  parseMoneyInput,
  toCents,
  toE164Phone,
  validatePixKey,
  type PixKeyError,
  type PixKeyType,
} from "@/lib/br";
import { ownerNameAsSent } from "@/lib/transfers/form-options";
import { keyTypeFromWord, PAYOUT_COLUMNS, type PayoutCells, type PayoutField, type PayoutRowInput } from "./columns";

export type { PayoutCells, PayoutField, PayoutRowInput };

/** What can be wrong with a row (errors) or worth a second look (warnings: `keyNotReceiverDocument`, `recentTransfer`). */
export const ROW_PROBLEM_CODES = [
  "pixKeyRequired",
  "keyTypeUnknown",
  "keyTypeMismatch",
  "keyTypeAmbiguous",
  "keyNotReceiverDocument",
  "pixKeyUnrecognized",
  "pixKeyCpfInvalid",
  "pixKeyCnpjInvalid",
  "pixKeyEmailInvalid",
  "pixKeyEmailTooLong",
  "pixKeyPhoneInvalid",
  "pixKeyRandomInvalid",
  "amountRequired",
  "amountInvalid",
  "amountNotPositive",
  "amountTooManyDecimals",
  "amountTooLarge",
  "nameRequired",
  "nameTooLong",
  "documentRequired",
  "cpfInvalid",
  "cnpjInvalid",
  "documentInvalid",
  "descriptionTooLong",
  "referenceTooLong",
  "cellIsDate",
  "cellIsError",
  "duplicateInFile",
  "duplicateReference",
  "recentTransfer",
] as const;
export type RowProblemCode = (typeof ROW_PROBLEM_CODES)[number];

/** Why a whole file is refused (see `readPayoutFile`). */
export const FILE_PROBLEM_CODES = ["empty", "noHeader", "tooManyRows", "unreadable", "tooLarge", "tooLargeUnpacked"] as const;
export type FileProblemCode = (typeof FILE_PROBLEM_CODES)[number];

export type RowProblem = { code: RowProblemCode; field: PayoutField | null; severity: "error" | "warning" };

/** A row ready to send: every value as the single transfer form sends it. */
export type PayoutRowValue = {
  pixKeyType: PixKeyType;
  /** Normalised as the transfer form sends it: CPF digits, CNPJ upper case, e-mail lower case, phone E.164, random key lower case. */
  pixKey: string;
  amountCents: number;
  /** As sent: accents removed, printable ASCII (`ownerNameAsSent`). */
  ownerName: string;
  ownerDocumentType: "cpf" | "cnpj";
  ownerDocumentNumber: string;
  description: string | null;
  reference: string | null;
};

export type ValidatedRow = { line: number; cells: PayoutCells; value: PayoutRowValue | null; problems: RowProblem[] };
export type RowCheck = { value: PayoutRowValue | null; problems: RowProblem[] };

export const DESCRIPTION_MAX_LENGTH = 140;
export const REFERENCE_MAX_LENGTH = 100;
/** The transfer form's limit on the owner's name as typed. */
export const NAME_MAX_LENGTH = 120;
/** The transfer form's largest amount (R$ 99.999.999,99). */
export const MAX_AMOUNT_CENTS = 9_999_999_999;

const KEY_ERRORS: Record<PixKeyError, RowProblemCode> = {
  "br.errors.pixKeyRequired": "pixKeyRequired",
  "br.errors.cpfInvalid": "pixKeyCpfInvalid",
  "br.errors.cnpjInvalid": "pixKeyCnpjInvalid",
  "br.errors.emailInvalid": "pixKeyEmailInvalid",
  "br.errors.emailTooLong": "pixKeyEmailTooLong",
  "br.errors.phoneInvalid": "pixKeyPhoneInvalid",
  "br.errors.pixRandomKeyInvalid": "pixKeyRandomInvalid",
};

/** What Excel writes in a cell whose formula failed (also in the CSV it saves). */
const EXCEL_ERROR = /^#(N\/A|REF!|VALUE!|DIV\/0!|NAME\?|NUM!|NULL!|SPILL!|CALC!|GETTING_DATA|FIELD!|BLOCKED!|CONNECT!|BUSY!|UNKNOWN!)$/i;

type Identity = { key: string | null; cents: number | null; reference: string | null };
type Checked = RowCheck & { identity: Identity };

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : value === null || value === undefined ? "" : String(value).trim();
}

/** Code points, as a person counts characters. */
function length(value: string): number {
  return Array.from(value).length;
}

function trimmedCells(cells: Partial<PayoutCells> | null | undefined): PayoutCells {
  const source = cells ?? {};
  const out = {} as PayoutCells;
  for (const column of PAYOUT_COLUMNS) out[column.field] = text(source[column.field]);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Pix key

type Report = (code: RowProblemCode, field: PayoutField | null) => void;

/**
 * A key whose type is not stated: an 11-digit number that is both a valid CPF and a valid phone
 * (about 8% of CPFs: a valid area code then a 9, or a 0 read as the trunk prefix) could be either,
 * unless it is the receiver's own CPF (a CPF key belongs to that CPF's holder).
 */
function isCpfOrPhone(key: string, receiverDocument: string): boolean {
  return /^\d{11}$/.test(key) && isValidCpf(key) && toE164Phone(key) !== null && key !== receiverDocument;
}

/** For a key of no recognisable type: the type its shape suggests, to say what is wrong with it. */
function unrecognizedKeyCode(key: string): RowProblemCode {
  if (/^\d{3}\.\d{3}\.\d{3}-\d{2}$/.test(key)) return "pixKeyCpfInvalid";
  if (/^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}$/i.test(key)) return "pixKeyCnpjInvalid";
  if (/^[0-9a-z]+(-[0-9a-z]+){3,}$/i.test(key) && key.length >= 30 && key.length <= 40) return "pixKeyRandomInvalid";
  if (/^\(\d{2,3}\)\s*\d{4,5}[-\s]?\d{4}$/.test(key)) return "pixKeyPhoneInvalid";
  return "pixKeyUnrecognized";
}

function checkKey(rawKey: string, rawType: string, receiverDocument: string, report: Report): { type: PixKeyType; key: string } | null {
  const stated = rawType ? keyTypeFromWord(rawType) : null;
  if (rawType && !stated) report("keyTypeUnknown", "pixKeyType");
  if (!rawKey) {
    report("pixKeyRequired", "pixKey");
    return null;
  }
  if (rawType && !stated) return null;
  if (stated) {
    const result = validatePixKey(stated, rawKey);
    if (result.ok) return { type: stated, key: result.key };
    const looksLike = guessPixKeyType(rawKey);
    if (looksLike && looksLike !== stated && validatePixKey(looksLike, rawKey).ok) report("keyTypeMismatch", "pixKeyType");
    else report(KEY_ERRORS[result.error], "pixKey");
    return null;
  }
  if (isCpfOrPhone(rawKey, receiverDocument)) {
    report("keyTypeAmbiguous", "pixKeyType");
    return null;
  }
  const guessed = guessPixKeyType(rawKey);
  if (!guessed) {
    report(unrecognizedKeyCode(rawKey), "pixKey");
    return null;
  }
  const result = validatePixKey(guessed, rawKey);
  if (result.ok) return { type: guessed, key: result.key };
  report(KEY_ERRORS[result.error], "pixKey");
  return null;
}

// ---------------------------------------------------------------------------------------------
// Amount

/** More than two decimals, in either way of writing them ("1,234", "10,500", "1234.567", "1.234,567"). */
function hasTooManyDecimals(body: string): boolean {
  return /^(\d+|\d{1,3}(\.\d{3})+),\d{3,}$/.test(body) || /^(\d+|\d{1,3}(,\d{3})+)\.\d{3,}$/.test(body);
}

/**
 * Reads an amount as people in Brazil write it ("1.234,56", "R$ 1.234,56", "1234,56", "1234.56",
 * "1.234" = 1234, "10" = 10,00). Accepts exactly what the transfer form's amount field accepts
 * (`parseMoneyInput`, positive, at most R$ 99.999.999,99); a refusal says why.
 */
export function readAmount(raw: string): { ok: true; cents: number } | { ok: false; code: RowProblemCode } {
  const value = text(raw);
  if (!value) return { ok: false, code: "amountRequired" };
  let body = value.replace(/[\s\u00a0]/g, "");
  let negative = false;
  const strip = () => {
    body = body.replace(/^R\$/i, "");
    if (body.startsWith("-")) {
      negative = true;
      body = body.slice(1);
    }
  };
  if (/^\(.+\)$/.test(body)) {
    negative = true; // accounting style (10,00)
    body = body.slice(1, -1);
  }
  strip();
  strip();
  const parsed = body === "" ? null : parseMoneyInput(body);
  if (parsed === null) return { ok: false, code: hasTooManyDecimals(body) ? "amountTooManyDecimals" : "amountInvalid" };
  const cents = toCents(parsed);
  if (negative || cents <= 0) return { ok: false, code: "amountNotPositive" };
  if (cents > MAX_AMOUNT_CENTS) return { ok: false, code: "amountTooLarge" };
  return { ok: true, cents };
}

// ---------------------------------------------------------------------------------------------
// Document

/** A document without its punctuation, upper case (CNPJs may hold letters). */
function compactDocument(raw: string): string {
  return raw.replace(/[\s./-]/g, "").toUpperCase();
}

function checkDocument(raw: string, report: Report): { type: "cpf" | "cnpj"; number: string } | null {
  if (!raw) {
    report("documentRequired", "document");
    return null;
  }
  const compact = compactDocument(raw);
  if (/^\d{11}$/.test(compact)) {
    if (isValidCpf(compact)) return { type: "cpf", number: compact };
    report("cpfInvalid", "document");
    return null;
  }
  if (/^[0-9A-Z]{12}\d{2}$/.test(compact)) {
    if (isValidCnpj(compact)) return { type: "cnpj", number: compact };
    report("cnpjInvalid", "document");
    return null;
  }
  report("documentInvalid", "document");
  return null;
}

// ---------------------------------------------------------------------------------------------
// One row

function checkRow(input: Partial<PayoutCells> | null | undefined, dateCells?: readonly PayoutField[]): Checked & { cells: PayoutCells } {
  const cells = trimmedCells(input);
  const problems: RowProblem[] = [];
  const report: Report = (code, field) => problems.push({ code, field, severity: "error" });
  const blocked = new Set<PayoutField>();
  for (const field of dateCells ?? []) {
    if (blocked.has(field)) continue;
    blocked.add(field);
    report("cellIsDate", field);
  }
  for (const column of PAYOUT_COLUMNS) {
    if (!blocked.has(column.field) && EXCEL_ERROR.test(cells[column.field])) {
      blocked.add(column.field);
      report("cellIsError", column.field);
    }
  }

  const receiverDocument = blocked.has("document") ? "" : compactDocument(cells.document);
  const key =
    blocked.has("pixKey") || blocked.has("pixKeyType") ? null : checkKey(cells.pixKey, cells.pixKeyType, receiverDocument, report);

  let cents: number | null = null;
  if (!blocked.has("amount")) {
    const amount = readAmount(cells.amount);
    if (amount.ok) cents = amount.cents;
    else report(amount.code, "amount");
  }

  let ownerName = "";
  if (!blocked.has("name")) {
    ownerName = ownerNameAsSent(cells.name);
    if (!ownerName) report("nameRequired", "name");
    else if (length(cells.name) > NAME_MAX_LENGTH) report("nameTooLong", "name");
  }

  const document = blocked.has("document") ? null : checkDocument(cells.document, report);

  if (!blocked.has("description") && length(cells.description) > DESCRIPTION_MAX_LENGTH) report("descriptionTooLong", "description");
  if (!blocked.has("reference") && length(cells.reference) > REFERENCE_MAX_LENGTH) report("referenceTooLong", "reference");

  // A CPF or CNPJ key is its holder's: another document than the receiver's pays someone else (or the gateway refuses it).
  if (key && document && (key.type === "cpf" || key.type === "cnpj") && key.key !== document.number) {
    problems.push({ code: "keyNotReceiverDocument", field: "pixKey", severity: "warning" });
  }

  const identity: Identity = { key: key?.key ?? null, cents, reference: cells.reference || null };
  const value: PayoutRowValue | null =
    !problems.some((problem) => problem.severity === "error") && key && cents !== null && document
      ? {
          pixKeyType: key.type,
          pixKey: key.key,
          amountCents: cents,
          ownerName,
          ownerDocumentType: document.type,
          ownerDocumentNumber: document.number,
          description: cells.description || null,
          reference: cells.reference || null,
        }
      : null;
  return { cells, value, problems, identity };
}

/**
 * Validates one row on its own (a row fixed in place): every rule but the ones across rows
 * (`findFileDuplicates`) and the recent transfers (`recentDuplicateWarnings`). `dateCells` as read
 * from the file (a cell the user retyped is no longer one).
 */
export function validatePayoutRow(cells: PayoutCells, dateCells?: readonly PayoutField[]): RowCheck {
  const { value, problems } = checkRow(cells, dateCells);
  return { value, problems };
}

// ---------------------------------------------------------------------------------------------
// Across rows

export type FileDuplicate = {
  line: number;
  /** The first row with the same key and amount (or the same `identificador`). */
  firstLine: number;
  code: "duplicateInFile" | "duplicateReference";
  field: PayoutField | null;
};

type Indexed = { index: number; line: number; identity: Identity };

function duplicatesOf(rows: readonly Indexed[]): Array<FileDuplicate & { index: number }> {
  const out: Array<FileDuplicate & { index: number }> = [];
  const byKeyAmount = new Map<string, number>();
  const byReference = new Map<string, number>();
  for (const { index, line, identity } of rows) {
    if (identity.key !== null && identity.cents !== null) {
      const id = `${identity.key.toLowerCase()}\u0000${identity.cents}`;
      const first = byKeyAmount.get(id);
      if (first === undefined) byKeyAmount.set(id, line);
      else out.push({ index, line, firstLine: first, code: "duplicateInFile", field: null });
    }
    if (identity.reference !== null) {
      const first = byReference.get(identity.reference);
      if (first === undefined) byReference.set(identity.reference, line);
      else out.push({ index, line, firstLine: first, code: "duplicateReference", field: "reference" });
    }
  }
  return out;
}

/**
 * Rows repeating an earlier row of the file: the same Pix key (as normalised) and amount
 * (`duplicateInFile`), or the same `identificador` (`duplicateReference`). The first occurrence
 * is not reported; the second and later ones are.
 */
export function findFileDuplicates(rows: ReadonlyArray<{ line: number; cells: PayoutCells }>): FileDuplicate[] {
  const indexed = rows.map((row, index) => ({ index, line: row.line, identity: checkRow(row.cells).identity }));
  return duplicatesOf(indexed).map(({ line, firstLine, code, field }) => ({ line, firstLine, code, field }));
}

/** Every row checked, duplicates within the file included. `value` is null for a row with any error. */
export function validatePayoutRows(rows: readonly PayoutRowInput[]): ValidatedRow[] {
  const checked = rows.map((row) => ({ line: row.line, ...checkRow(row.cells, row.dateCells) }));
  const duplicates = duplicatesOf(checked.map((row, index) => ({ index, line: row.line, identity: row.identity })));
  for (const duplicate of duplicates) {
    const row = checked[duplicate.index];
    row.problems.push({ code: duplicate.code, field: duplicate.field, severity: "error" });
    row.value = null;
  }
  return checked.map(({ line, cells, value, problems }) => ({ line, cells, value, problems }));
}

/**
 * Adds the warning `recentTransfer` to each valid row whose key and amount match a transfer of the
 * last 24 hours (the caller's list, keys as sent). Returns new rows; a warning never blocks a row.
 */
export function recentDuplicateWarnings(
  rows: readonly ValidatedRow[],
  recent: ReadonlyArray<{ pixKey: string; amountCents: number }>,
): ValidatedRow[] {
  const seen = new Set(recent.map((transfer) => `${String(transfer.pixKey).trim().toLowerCase()}\u0000${transfer.amountCents}`));
  return rows.map((row) => {
    if (!row.value || row.problems.some((problem) => problem.code === "recentTransfer")) return row;
    if (!seen.has(`${row.value.pixKey.toLowerCase()}\u0000${row.value.amountCents}`)) return row;
    return { ...row, problems: [...row.problems, { code: "recentTransfer", field: null, severity: "warning" }] };
  });
}

export type BatchTotals = { rows: number; valid: number; withErrors: number; withWarnings: number; totalCents: number };

/** Counts for the preview; the total is over the valid rows only (the ones that would be sent). */
export function batchTotals(rows: readonly ValidatedRow[]): BatchTotals {
  const totals: BatchTotals = { rows: rows.length, valid: 0, withErrors: 0, withWarnings: 0, totalCents: 0 };
  for (const row of rows) {
    if (row.problems.some((problem) => problem.severity === "error")) totals.withErrors++;
    if (row.problems.some((problem) => problem.severity === "warning")) totals.withWarnings++;
    if (row.value) {
      totals.valid++;
      totals.totalCents += row.value.amountCents;
    }
  }
  return totals;
}

export type DailyLimitProblem = { code: "dailyLimitExceeded"; limitCents: number; usedTodayCents: number; availableCents: number };

/** Null when the batch fits in what is left of the account's daily transfer limit (or there is no limit). */
export function dailyLimitProblem(input: {
  totalCents: number;
  dailyLimitCents: number | null;
  usedTodayCents: number;
}): DailyLimitProblem | null {
  const { totalCents, dailyLimitCents, usedTodayCents } = input;
  if (dailyLimitCents === null || dailyLimitCents === undefined) return null;
  const availableCents = Math.max(0, dailyLimitCents - usedTodayCents);
  if (totalCents <= availableCents) return null;
  return { code: "dailyLimitExceeded", limitCents: dailyLimitCents, usedTodayCents, availableCents };
}
