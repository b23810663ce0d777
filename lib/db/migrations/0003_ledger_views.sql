CREATE TABLE "saved_views" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"account_id" text NOT NULL,
	"name" text NOT NULL,
	"filters" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "saved_views" ADD CONSTRAINT "saved_views_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_views" ADD CONSTRAINT "saved_views_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "saved_views_user_account_name_key" ON "saved_views" USING btree ("user_id","account_id","name");--> statement-breakpoint
CREATE INDEX "saved_views_user_account_idx" ON "saved_views" USING btree ("user_id","account_id");--> statement-breakpoint
CREATE INDEX "ledger_account_status_created_idx" ON "ledger_transactions" USING btree ("account_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ledger_account_method_created_idx" ON "ledger_transactions" USING btree ("account_id","payment_method","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ledger_account_updated_idx" ON "ledger_transactions" USING btree ("account_id","updated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ledger_account_paid_idx" ON "ledger_transactions" USING btree ("account_id","paid_at");