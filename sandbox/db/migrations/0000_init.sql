CREATE TABLE "checkouts" (
	"id" text PRIMARY KEY NOT NULL,
	"producer_id" text NOT NULL,
	"offer_code" text NOT NULL,
	"request" jsonb NOT NULL,
	"sales_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"producer_id" text NOT NULL,
	"status" text NOT NULL,
	"pix_key" text NOT NULL,
	"pix_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "producers" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"document" text,
	"address" jsonb,
	"legal_representative" jsonb,
	"public_key" text NOT NULL,
	"secret_key" text NOT NULL,
	"webhook_token" text NOT NULL,
	"permissions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"checkout_api_enabled" boolean DEFAULT false NOT NULL,
	"webhook_url" text,
	"clock_offset_ms" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "producers_public_key_unique" UNIQUE("public_key")
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"producer_id" text NOT NULL,
	"transaction_id" text NOT NULL,
	"status" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"reason" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"producer_id" text NOT NULL,
	"kind" text NOT NULL,
	"identifier" text NOT NULL,
	"status" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"client" jsonb NOT NULL,
	"product" jsonb NOT NULL,
	"periodicity_type" text NOT NULL,
	"periodicity" integer NOT NULL,
	"first_charge_in" integer DEFAULT 0 NOT NULL,
	"card" jsonb,
	"crypto_currency" text,
	"network" text,
	"client_ip" text,
	"callback_url" text,
	"charges_count" integer DEFAULT 0 NOT NULL,
	"next_charge_at" timestamp with time zone NOT NULL,
	"response" json NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" text PRIMARY KEY NOT NULL,
	"producer_id" text NOT NULL,
	"kind" text NOT NULL,
	"client_identifier" text NOT NULL,
	"order_id" text NOT NULL,
	"status" text NOT NULL,
	"status_description" text,
	"error_description" text,
	"payment_method" text NOT NULL,
	"purchase_type" text DEFAULT 'ONCE' NOT NULL,
	"currency" text DEFAULT 'BRL' NOT NULL,
	"amount_cents" bigint NOT NULL,
	"fee_cents" bigint DEFAULT 0 NOT NULL,
	"original_currency" text DEFAULT 'BRL' NOT NULL,
	"original_amount" text,
	"installments" integer DEFAULT 1 NOT NULL,
	"client" jsonb,
	"products" jsonb,
	"metadata" jsonb,
	"callback_url" text,
	"pix_code" text,
	"pix_expires_at" timestamp with time zone,
	"end_to_end_id" text,
	"boleto" jsonb,
	"crypto" jsonb,
	"card" jsonb,
	"subscription_id" text,
	"checkout_id" text,
	"offer_code" text,
	"checkout_url" text,
	"track_props" jsonb,
	"response" json NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"payed_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"outbox_id" bigint NOT NULL,
	"attempt" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"status_code" integer,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "webhook_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"producer_id" text NOT NULL,
	"kind" text NOT NULL,
	"event" text NOT NULL,
	"transaction_id" text,
	"withdraw_id" text,
	"url" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_status_code" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdraws" (
	"id" text PRIMARY KEY NOT NULL,
	"producer_id" text NOT NULL,
	"identifier" text NOT NULL,
	"payout_account_id" text NOT NULL,
	"status" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"fee_cents" bigint NOT NULL,
	"discount_fee_of_receiver" boolean DEFAULT true NOT NULL,
	"currency" text DEFAULT 'BRL' NOT NULL,
	"callback_url" text NOT NULL,
	"webhook_token" text NOT NULL,
	"owner" jsonb NOT NULL,
	"error_description" text,
	"response" json NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_producer_id_producers_id_fk" FOREIGN KEY ("producer_id") REFERENCES "public"."producers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_accounts" ADD CONSTRAINT "payout_accounts_producer_id_producers_id_fk" FOREIGN KEY ("producer_id") REFERENCES "public"."producers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_producer_id_producers_id_fk" FOREIGN KEY ("producer_id") REFERENCES "public"."producers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_producer_id_producers_id_fk" FOREIGN KEY ("producer_id") REFERENCES "public"."producers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_producer_id_producers_id_fk" FOREIGN KEY ("producer_id") REFERENCES "public"."producers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_outbox_id_webhook_outbox_id_fk" FOREIGN KEY ("outbox_id") REFERENCES "public"."webhook_outbox"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_outbox" ADD CONSTRAINT "webhook_outbox_producer_id_producers_id_fk" FOREIGN KEY ("producer_id") REFERENCES "public"."producers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdraws" ADD CONSTRAINT "withdraws_producer_id_producers_id_fk" FOREIGN KEY ("producer_id") REFERENCES "public"."producers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdraws" ADD CONSTRAINT "withdraws_payout_account_id_payout_accounts_id_fk" FOREIGN KEY ("payout_account_id") REFERENCES "public"."payout_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_accounts_key_uq" ON "payout_accounts" USING btree ("producer_id","pix_type","pix_key");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_transaction_uq" ON "refunds" USING btree ("transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_identifier_uq" ON "subscriptions" USING btree ("producer_id","kind","identifier");--> statement-breakpoint
CREATE INDEX "subscriptions_due_idx" ON "subscriptions" USING btree ("producer_id","status","next_charge_at");--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_identifier_uq" ON "transactions" USING btree ("producer_id","kind","client_identifier");--> statement-breakpoint
CREATE INDEX "transactions_client_identifier_idx" ON "transactions" USING btree ("producer_id","client_identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_order_id_uq" ON "transactions" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "transactions_subscription_idx" ON "transactions" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "webhook_attempts_outbox_idx" ON "webhook_attempts" USING btree ("outbox_id");--> statement-breakpoint
CREATE INDEX "webhook_outbox_due_idx" ON "webhook_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhook_outbox_producer_idx" ON "webhook_outbox" USING btree ("producer_id","transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "withdraws_identifier_uq" ON "withdraws" USING btree ("producer_id","identifier");