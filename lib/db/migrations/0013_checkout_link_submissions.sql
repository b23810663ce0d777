ALTER TABLE "checkout_links" ALTER COLUMN "checkout_url" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_links" ADD COLUMN "identifier" text;--> statement-breakpoint
ALTER TABLE "checkout_links" ADD COLUMN "submission" text DEFAULT 'SUBMITTED' NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_links" ADD COLUMN "error" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_links_account_identifier_key" ON "checkout_links" USING btree ("account_id","identifier");