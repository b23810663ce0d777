CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"account_id" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"kind" text NOT NULL,
	"event" text,
	"gateway_transaction_id" text,
	"identifier" text,
	"status" text,
	"payment_method" text,
	"amount_cents" bigint,
	"ledger_id" text,
	"ledger_outcome" text,
	"payload" jsonb NOT NULL,
	"deliveries" integer DEFAULT 1 NOT NULL,
	"first_received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"source_ip" text,
	"feed_seq" bigserial NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_rejections" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"account_id" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"source_ip" text,
	"reason" text NOT NULL,
	"status" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_rejections" ADD CONSTRAINT "webhook_rejections_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_account_dedupe_key" ON "webhook_events" USING btree ("account_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "webhook_events_account_first_idx" ON "webhook_events" USING btree ("account_id","first_received_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_events_feed_seq_idx" ON "webhook_events" USING btree ("feed_seq");--> statement-breakpoint
CREATE INDEX "webhook_events_ledger_idx" ON "webhook_events" USING btree ("ledger_id");--> statement-breakpoint
CREATE INDEX "webhook_rejections_account_idx" ON "webhook_rejections" USING btree ("account_id","received_at" DESC NULLS LAST);