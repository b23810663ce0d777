ALTER TABLE "transactions" DROP CONSTRAINT "transactions_producer_id_producers_id_fk";
--> statement-breakpoint
DROP INDEX "transactions_identifier_uq";--> statement-breakpoint
DROP INDEX "transactions_client_identifier_idx";--> statement-breakpoint
DROP INDEX "transactions_subscription_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_producer_identifier_kind_uq" ON "transactions" USING btree ("producer_id","client_identifier","kind");--> statement-breakpoint
CREATE INDEX "transactions_subscription_idx" ON "transactions" USING btree ("subscription_id") WHERE subscription_id is not null;