// Without zod, for the filter form in the browser; lib/ledger/filters.ts parses them on the server.

/** The transactions list's filters, as they live in the URL (all strings, all optional). */
export const LEDGER_FILTER_KEYS = ["status", "method", "from", "to", "min", "max", "q"] as const;
export type LedgerFilterKey = (typeof LEDGER_FILTER_KEYS)[number];
export type LedgerFilterParams = Partial<Record<LedgerFilterKey, string>>;
