ALTER TABLE "webhook_events" ADD COLUMN "sanitized" text;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "raw_body" "bytea";