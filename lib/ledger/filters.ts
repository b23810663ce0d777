import { z } from "zod";
import { parseMoneyInput, toCents } from "@/lib/br/money";
import { param, parseSearchParams, withoutProblems, type RawSearchParams } from "@/lib/http/search-params";

import { LEDGER_FILTER_KEYS, type LedgerFilterParams } from "./filter-keys";

export { LEDGER_FILTER_KEYS, type LedgerFilterKey, type LedgerFilterParams } from "./filter-keys";

export type LedgerFilters = {
  status?: string;
  method?: string;
  /** São Paulo calendar days, inclusive, `YYYY-MM-DD`. */
  from?: string;
  to?: string;
  minCents?: number;
  maxCents?: number;
  /** Free text over gateway id, identifier, client name, e-mail and document. */
  q?: string;
};

/** R$ 100 billion: beyond it a filter amount is noise (and would overflow a bigint comparison). */
const MAX_FILTER_CENTS = 10_000_000_000_000;

const money = z
  .string()
  .max(40)
  .transform((value, ctx) => {
    const parsed = parseMoneyInput(value);
    const cents = parsed === null || parsed < 0 || !Number.isFinite(parsed) ? NaN : toCents(parsed);
    if (!Number.isSafeInteger(cents) || cents > MAX_FILTER_CENTS) {
      ctx.addIssue({ code: "custom", message: "amount" });
      return z.NEVER;
    }
    return cents;
  });

/** The list's filters in the URL (lib/http/search-params.ts: one rule for every page). */
const LEDGER_PARAMS = {
  status: param.text(),
  method: param.text(),
  from: param.day(),
  to: param.day(),
  min: param.custom(money, "amount"),
  max: param.custom(money, "amount"),
  q: param.text(),
};

// The keyset cursor as queries.ts writes it: base64url of ["<created_at as Postgres prints it>", "<id>"].
const CURSOR_TIME = /^(\d{4})-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}$/;

/** The two parts of a list cursor, or null when it is not one the list wrote. */
export function ledgerCursorParts(cursor: string | undefined | null): { createdAt: string; id: string } | null {
  if (!cursor || !/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== "string" || typeof value[1] !== "string") return null;
  const time = CURSOR_TIME.exec(value[0]);
  if (
    !time ||
    Number(time[1]) < 1970 ||
    Number(time[1]) > 2200 ||
    Number.isNaN(Date.parse(value[0].replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00")))
  )
    return null;
  if (!/^[\w-]{1,64}$/.test(value[1])) return null;
  return { createdAt: value[0], id: value[1] };
}

/**
 * The transactions list's address: its filters, the cursor, the same filters as URL strings (the
 * valid ones only: what the form, saved views, the export and the pager carry on) and the problems.
 */
export function parseLedgerParams(raw: RawSearchParams) {
  const { values, problems } = parseSearchParams(raw, {
    ...LEDGER_PARAMS,
    cursor: param.custom(
      z.string().refine((value) => ledgerCursorParts(value) !== null),
      "page",
    ),
  });
  return { filters: toFilters(values), cursor: values.cursor ?? null, params: cleanFilterParams(withoutProblems(raw, problems)), problems };
}

function toFilters(values: {
  status?: string;
  method?: string;
  from?: string;
  to?: string;
  min?: number;
  max?: number;
  q?: string;
}): LedgerFilters {
  const filters: LedgerFilters = {
    status: values.status,
    method: values.method,
    from: values.from,
    to: values.to,
    minCents: values.min,
    maxCents: values.max,
    q: values.q,
  };
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)) as LedgerFilters;
}

/** Invalid values are dropped rather than failing the page: the URL is user-editable. */
export function parseLedgerFilters(params: RawSearchParams): LedgerFilters {
  return toFilters(parseSearchParams(params, LEDGER_PARAMS).values);
}

/** Only the filter keys, without empty values: what a saved view stores and what the URL carries. */
export function cleanFilterParams(params: Record<string, string | string[] | undefined>): LedgerFilterParams {
  const out: LedgerFilterParams = {};
  for (const key of LEDGER_FILTER_KEYS) {
    const raw = params[key];
    const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    if (value) out[key] = value.slice(0, 200);
  }
  return out;
}

export function hasFilters(filters: LedgerFilters): boolean {
  return Object.keys(filters).length > 0;
}

/**
 * The search text of a row; the trigram index of migration 0004 is built on exactly this
 * expression (keep both in step).
 */
export const LEDGER_SEARCH_TEXT_SQL = `lower(coalesce("gateway_transaction_id", '') || ' ' || "identifier" || ' ' || coalesce("client_name", '') || ' ' || coalesce("client_email", '') || ' ' || coalesce("client_document", '') || ' ' || regexp_replace(coalesce("client_document", ''), '[^0-9A-Za-z]', '', 'g'))`;

const escapeLike = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** What to look for, lower case with LIKE wildcards escaped; a typed CPF/CNPJ also matches without its punctuation. */
export function searchPatterns(q: string): string[] {
  const needle = q.trim().toLowerCase();
  const patterns = [escapeLike(needle)];
  if (/^[\d.\-/\s]+$/.test(needle) && /[.\-/\s]/.test(needle)) {
    const digits = needle.replace(/[^\d]/g, "");
    if (digits) patterns.push(escapeLike(digits));
  }
  return patterns;
}
