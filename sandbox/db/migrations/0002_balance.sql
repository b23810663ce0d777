CREATE TABLE "balance_movements" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"producer_id" text NOT NULL,
	"kind" text NOT NULL,
	"bucket" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"release_at" timestamp with time zone,
	"transaction_id" text,
	"withdraw_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "producers" ADD COLUMN "release_days" jsonb;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "splits_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "available_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "balance_movements" ADD CONSTRAINT "balance_movements_producer_id_producers_id_fk" FOREIGN KEY ("producer_id") REFERENCES "public"."producers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "balance_movements_producer_idx" ON "balance_movements" USING btree ("producer_id","bucket","release_at");--> statement-breakpoint
CREATE UNIQUE INDEX "balance_movements_transaction_kind_uq" ON "balance_movements" USING btree ("transaction_id","kind") WHERE transaction_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "balance_movements_withdraw_kind_uq" ON "balance_movements" USING btree ("withdraw_id","kind") WHERE withdraw_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "balance_movements_opening_uq" ON "balance_movements" USING btree ("producer_id") WHERE kind = 'opening';--> statement-breakpoint
-- Paid rows from before the balance keep the availableAt they were shown (the old fixed release days).
UPDATE "transactions" SET "available_at" = "payed_at" + (CASE "payment_method" WHEN 'CREDIT_CARD' THEN 30 WHEN 'BOLETO' THEN 1 ELSE 0 END) * interval '1 day' WHERE "payed_at" IS NOT NULL;
