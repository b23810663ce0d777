-- Free-text search of the transactions list (gateway id, identifier, client name, e-mail, document).
-- Needs pg_trgm; where the extension is not available the search still works, by a scan.
-- The expression must stay identical to LEDGER_SEARCH_TEXT in lib/ledger/filters.ts.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX IF NOT EXISTS "ledger_search_trgm_idx" ON "ledger_transactions" USING gin (
      (lower(coalesce("gateway_transaction_id", '') || ' ' || "identifier" || ' ' || coalesce("client_name", '') || ' ' || coalesce("client_email", '') || ' ' || coalesce("client_document", '') || ' ' || regexp_replace(coalesce("client_document", ''), '[^0-9A-Za-z]', '', 'g'))) gin_trgm_ops
    );
  END IF;
END
$$;
--> statement-breakpoint
-- The transaction timeline reads the lookups recorded for one ledger row.
CREATE INDEX IF NOT EXISTS "audit_log_account_target_idx" ON "audit_log" ("account_id", "target") WHERE "target" IS NOT NULL;
