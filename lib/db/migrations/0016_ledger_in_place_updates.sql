-- A notification that only parks a status for the gateway's confirmation (pending_status, the last
-- webhook's status and time) changes no indexed column, so Postgres can update the row in place
-- (a HOT update): no new entry in any of the ledger's ten indexes, the trigram one included. That
-- needs pending_status out of the recovery list's index predicate (the list filters it instead,
-- lib/sales/queries.ts), and room on the row's page for the new version. In a burst the applier
-- updates neighbouring rows (charges created together) in one transaction, before any old version
-- can be pruned: at 80 % a page of 1 KB rows had room for one in five (`npm run bench:webhooks`
-- with BENCH_WAL_DETAIL=1: 22 % in place), at 60 % for all of them (100 %). New pages only.
ALTER TABLE "ledger_transactions" SET (fillfactor = 60);--> statement-breakpoint
DROP INDEX "ledger_account_awaiting_idx";--> statement-breakpoint
CREATE INDEX "ledger_account_awaiting_idx" ON "ledger_transactions" USING btree ("account_id","created_at") WHERE "ledger_transactions"."paid_at" is null and upper(regexp_replace(trim("ledger_transactions"."status"), '[\s-]+', '_', 'g')) in ('OK', 'PENDING', 'CREATED', 'WAITING_PAYMENT', 'AWAITING_PAYMENT', 'PROCESSING');
