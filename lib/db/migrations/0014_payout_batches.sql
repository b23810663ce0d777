CREATE TABLE "payout_batch_rows" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"batch_id" text NOT NULL,
	"account_id" text NOT NULL,
	"line" integer NOT NULL,
	"cells" jsonb NOT NULL,
	"date_cells" jsonb,
	"problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"pix_key_type" text,
	"pix_key" text,
	"amount_cents" bigint,
	"owner_name" text,
	"owner_document_type" text,
	"owner_document_number" text,
	"description" text,
	"reference" text,
	"removed" boolean DEFAULT false NOT NULL,
	"execution" text,
	"identifier" text NOT NULL,
	"transfer_id" text,
	"lease_until" timestamp with time zone,
	"not_before" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_batches" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"account_id" text NOT NULL,
	"name" text NOT NULL,
	"source" text NOT NULL,
	"file_name" text,
	"state" text DEFAULT 'DRAFT' NOT NULL,
	"row_count" integer DEFAULT 0 NOT NULL,
	"total_cents" bigint DEFAULT 0 NOT NULL,
	"discount_fee_of_receiver" boolean DEFAULT true NOT NULL,
	"created_by" text NOT NULL,
	"created_by_email" text NOT NULL,
	"submitted_at" timestamp with time zone,
	"submitted_by" text,
	"submitted_by_email" text,
	"approved_at" timestamp with time zone,
	"approved_by" text,
	"approved_by_email" text,
	"approver_ip" text,
	"self_approved" boolean DEFAULT false NOT NULL,
	"rejected_at" timestamp with time zone,
	"rejected_by_email" text,
	"rejection_reason" text,
	"paused_at" timestamp with time zone,
	"paused_by_email" text,
	"canceled_at" timestamp with time zone,
	"canceled_by_email" text,
	"finished_at" timestamp with time zone,
	"not_before" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_settings" (
	"account_id" text PRIMARY KEY NOT NULL,
	"allow_self_approval" boolean DEFAULT false NOT NULL,
	"updated_by_email" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payout_batch_rows" ADD CONSTRAINT "payout_batch_rows_batch_id_payout_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batch_rows" ADD CONSTRAINT "payout_batch_rows_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batch_rows" ADD CONSTRAINT "payout_batch_rows_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_settings" ADD CONSTRAINT "payout_settings_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_batch_rows_batch_line_key" ON "payout_batch_rows" USING btree ("batch_id","line");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_batch_rows_identifier_key" ON "payout_batch_rows" USING btree ("account_id","identifier");--> statement-breakpoint
CREATE INDEX "payout_batch_rows_queue_idx" ON "payout_batch_rows" USING btree ("batch_id","line") WHERE "payout_batch_rows"."execution" in ('QUEUED', 'SENDING');--> statement-breakpoint
CREATE INDEX "payout_batch_rows_transfer_idx" ON "payout_batch_rows" USING btree ("transfer_id") WHERE "payout_batch_rows"."transfer_id" is not null;--> statement-breakpoint
CREATE INDEX "payout_batches_account_created_idx" ON "payout_batches" USING btree ("account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payout_batches_running_idx" ON "payout_batches" USING btree ("state") WHERE "payout_batches"."state" = 'RUNNING';