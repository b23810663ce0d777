CREATE TABLE "subscription_charges" (
	"account_id" text NOT NULL,
	"gateway_transaction_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"identifier" text,
	"charge_number" integer,
	"first_heard_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_settings" (
	"account_id" text PRIMARY KEY NOT NULL,
	"grace_days" integer DEFAULT 3 NOT NULL,
	"lost_after_periods" integer DEFAULT 3 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"account_id" text NOT NULL,
	"gateway_subscription_id" text,
	"identifier" text,
	"source" text NOT NULL,
	"ledger_id" text,
	"payment_method" text,
	"amount_cents" bigint,
	"currency" text DEFAULT 'BRL' NOT NULL,
	"periodicity_type" text,
	"periodicity" integer,
	"first_charge_in" integer,
	"client_name" text,
	"client_email" text,
	"client_document" text,
	"product_id" text,
	"product_name" text,
	"started_at" timestamp with time zone,
	"gateway_record" jsonb,
	"gateway_status" text,
	"gateway_record_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscription_charges" ADD CONSTRAINT "subscription_charges_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_charges" ADD CONSTRAINT "subscription_charges_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_settings" ADD CONSTRAINT "subscription_settings_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_charges_account_transaction_key" ON "subscription_charges" USING btree ("account_id","gateway_transaction_id");--> statement-breakpoint
CREATE INDEX "subscription_charges_subscription_idx" ON "subscription_charges" USING btree ("subscription_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_account_gateway_id_key" ON "subscriptions" USING btree ("account_id","gateway_subscription_id") WHERE "subscriptions"."gateway_subscription_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_account_identifier_key" ON "subscriptions" USING btree ("account_id","identifier") WHERE "subscriptions"."identifier" is not null;--> statement-breakpoint
CREATE INDEX "subscriptions_account_started_idx" ON "subscriptions" USING btree ("account_id","started_at" DESC NULLS LAST,"id" DESC NULLS LAST);