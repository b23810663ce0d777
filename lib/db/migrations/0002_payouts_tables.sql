CREATE TABLE "checkout_links" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"account_id" text NOT NULL,
	"checkout_url" text NOT NULL,
	"product_external_id" text NOT NULL,
	"product_name" text NOT NULL,
	"offer_name" text NOT NULL,
	"price" text NOT NULL,
	"currency" text NOT NULL,
	"lang" text NOT NULL,
	"request" jsonb NOT NULL,
	"created_by" text,
	"created_by_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refund_requests" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"account_id" text NOT NULL,
	"gateway_transaction_id" text NOT NULL,
	"ledger_transaction_id" text,
	"gateway_refund_id" text,
	"status" text NOT NULL,
	"amount_cents" bigint,
	"reason" text NOT NULL,
	"description" text,
	"response" jsonb,
	"transaction_status" text,
	"transaction_status_at" timestamp with time zone,
	"requested_by" text,
	"requested_by_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transfer_notifications" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"transfer_id" text NOT NULL,
	"event" text,
	"withdraw_status" text,
	"fingerprint" text NOT NULL,
	"payload" jsonb NOT NULL,
	"deliveries" integer DEFAULT 1 NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transfer_settings" (
	"account_id" text PRIMARY KEY NOT NULL,
	"daily_limit_cents" bigint,
	"updated_by" text,
	"updated_by_email" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transfers" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"account_id" text NOT NULL,
	"identifier" text NOT NULL,
	"submission" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"discount_fee_of_receiver" boolean NOT NULL,
	"pix_key_type" text NOT NULL,
	"pix_key" text NOT NULL,
	"owner_name" text NOT NULL,
	"owner_document_type" text NOT NULL,
	"owner_document_number" text NOT NULL,
	"owner_ip" text NOT NULL,
	"callback_url" text NOT NULL,
	"withdraw_id" text,
	"withdraw_status" text,
	"withdraw_status_source" text,
	"withdraw_status_at" timestamp with time zone,
	"fee_cents" bigint,
	"withdraw" jsonb,
	"payout_account" jsonb,
	"receipt_url" text,
	"webhook_token_encrypted" text,
	"error" jsonb,
	"last_notification_event" text,
	"last_notification_at" timestamp with time zone,
	"created_by" text,
	"created_by_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "checkout_links" ADD CONSTRAINT "checkout_links_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_notifications" ADD CONSTRAINT "transfer_notifications_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_settings" ADD CONSTRAINT "transfer_settings_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkout_links_account_created_idx" ON "checkout_links" USING btree ("account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "refund_requests_account_created_idx" ON "refund_requests" USING btree ("account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "refund_requests_account_tx_idx" ON "refund_requests" USING btree ("account_id","gateway_transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "transfer_notifications_fingerprint_key" ON "transfer_notifications" USING btree ("transfer_id","fingerprint");--> statement-breakpoint
CREATE INDEX "transfer_notifications_transfer_idx" ON "transfer_notifications" USING btree ("transfer_id","received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "transfers_account_identifier_key" ON "transfers" USING btree ("account_id","identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "transfers_account_withdraw_key" ON "transfers" USING btree ("account_id","withdraw_id") WHERE "transfers"."withdraw_id" is not null;--> statement-breakpoint
CREATE INDEX "transfers_account_created_idx" ON "transfers" USING btree ("account_id","created_at" DESC NULLS LAST);