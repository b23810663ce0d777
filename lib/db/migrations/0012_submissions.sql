ALTER TABLE "refund_requests" ALTER COLUMN "status" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD COLUMN "identifier" text;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD COLUMN "submission" text DEFAULT 'SUBMITTED' NOT NULL;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD COLUMN "error" jsonb;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "transfer_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "refund_requests_account_identifier_key" ON "refund_requests" USING btree ("account_id","identifier");