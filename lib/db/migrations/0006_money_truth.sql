CREATE TABLE "gateway_checks" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"account_id" text NOT NULL,
	"target" text NOT NULL,
	"target_id" text NOT NULL,
	"reason" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"last_outcome" text,
	"last_error" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "pending_status" text;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "pending_status_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "callback_key_hash" text;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "apply_state" text DEFAULT 'applied' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "confirmation" text;--> statement-breakpoint
ALTER TABLE "gateway_checks" ADD CONSTRAINT "gateway_checks_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gateway_checks_open_key" ON "gateway_checks" USING btree ("target","target_id") WHERE "gateway_checks"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "gateway_checks_due_idx" ON "gateway_checks" USING btree ("next_at") WHERE "gateway_checks"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "gateway_checks_target_idx" ON "gateway_checks" USING btree ("target","target_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "transfers_callback_key_idx" ON "transfers" USING btree ("callback_key_hash") WHERE "transfers"."callback_key_hash" is not null;--> statement-breakpoint
CREATE INDEX "webhook_events_apply_pending_idx" ON "webhook_events" USING btree ("first_received_at") WHERE "webhook_events"."apply_state" = 'pending';