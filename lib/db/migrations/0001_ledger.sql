CREATE TABLE "ledger_transactions" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"account_id" text NOT NULL,
	"kind" text NOT NULL,
	"identifier" text NOT NULL,
	"origin" text NOT NULL,
	"submission" text,
	"gateway_transaction_id" text,
	"status" text,
	"status_source" text,
	"status_at" timestamp with time zone,
	"last_webhook_status" text,
	"last_webhook_at" timestamp with time zone,
	"last_lookup_status" text,
	"last_lookup_at" timestamp with time zone,
	"payment_method" text,
	"amount_cents" bigint,
	"fee_cents" bigint,
	"currency" text DEFAULT 'BRL' NOT NULL,
	"client_name" text,
	"client_email" text,
	"client_document" text,
	"request" jsonb,
	"response" jsonb,
	"gateway_record" jsonb,
	"error" jsonb,
	"created_by" text,
	"created_by_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_account_identifier_key" ON "ledger_transactions" USING btree ("account_id","identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_account_gateway_id_key" ON "ledger_transactions" USING btree ("account_id","gateway_transaction_id") WHERE "ledger_transactions"."gateway_transaction_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_account_created_idx" ON "ledger_transactions" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);