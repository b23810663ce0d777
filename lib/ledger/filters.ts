import { z } from "zod";
import { parseMoneyInput, toCents } from "@/lib/br/money";

import { LEDGER_FILTER_KEYS, type LedgerFilterKey, type LedgerFilterParams } from "./filter-keys";

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

// Range-checked: year 0000 or 275760 would reach the database as an invalid date.
const day = z.iso.date().refine((value) => {
  const year = Number(value.slice(0, 4));
  return year >= 2000 && year <= 2100;
});
 
const text = z.string().trim().min(1).max(200).regex(/^[^\u0000-\u001f\u007f]*$/);
/** R$ 100 billion: beyond it a filter amount is noise (and would overflow a bigint comparison). */
const MAX_FILTER_CENTS = 10_000_000_000_000;

function money(value: string | undefined): number | undefined {
  if (!value || value.length > 40) return undefined;
  const parsed = parseMoneyInput(value);
  if (parsed === null || parsed < 0 || !Number.isFinite(parsed)) return undefined;
  const cents = toCents(parsed);
  return Number.isSafeInteger(cents) && cents <= MAX_FILTER_CENTS ? cents : undefined;
}

/** Invalid values are dropped rather than failing the page: the URL is user-editable. */
export function parseLedgerFilters(params: Record<string, string | string[] | undefined>): LedgerFilters {
  const get = (key: LedgerFilterKey) => {
    const value = params[key];
    return Array.isArray(value) ? value[0] : value;
  };
  const pick = <T,>(schema: z.ZodType<T>, value: string | undefined) => {
    const result = schema.safeParse(value);
    return result.success ? result.data : undefined;
  };
  const filters: LedgerFilters = {
    status: pick(text, get("status")),
    method: pick(text, get("method")),
    from: pick(day, get("from")),
    to: pick(day, get("to")),
    minCents: money(get("min")),
    maxCents: money(get("max")),
    q: pick(text, get("q")),
  };
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)) as LedgerFilters;
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
export const LEDGER_SEARCH_TEXT_SQL =
  `lower(coalesce("gateway_transaction_id", '') || ' ' || "identifier" || ' ' || coalesce("client_name", '') || ' ' || coalesce("client_email", '') || ' ' || coalesce("client_document", '') || ' ' || regexp_replace(coalesce("client_document", ''), '[^0-9A-Za-z]', '', 'g'))`;

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
