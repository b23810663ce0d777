CREATE TABLE "subscription_recalcs" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"subscription_id" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscription_charges" ADD COLUMN "due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscription_charges" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscription_charges" ADD COLUMN "renewal" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_charges" ADD COLUMN "failed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_charges" ADD COLUMN "announced" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "since_day" date;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "cohort_month" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "monthly_cents" double precision;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "active_spans" "tstzmultirange" DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "awaiting_spans" "tstzmultirange" DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "overdue_spans" "tstzmultirange" DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "lost_spans" "tstzmultirange" DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "canceled_spans" "tstzmultirange" DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "churned_spans" "tstzmultirange" DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "retained_mask" integer;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "overdue_announced_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "lost_announced_from" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "subscription_recalcs_account_idx" ON "subscription_recalcs" USING btree ("account_id","seq");--> statement-breakpoint
CREATE INDEX "subscription_charges_renewal_due_idx" ON "subscription_charges" USING btree ("account_id","due_at") WHERE "subscription_charges"."renewal";--> statement-breakpoint
CREATE INDEX "subscriptions_account_facets_idx" ON "subscriptions" USING btree ("account_id","payment_method","product_name");--> statement-breakpoint
-- A charge's ledger row changing what the subscription's summary reads (its due time, payment,
-- status, amount) queues the subscription for a recalculation (lib/subscriptions/summaries.ts).
CREATE FUNCTION "subscription_recalc_from_ledger"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "subscription_recalcs" ("account_id", "subscription_id")
  SELECT c."account_id", c."subscription_id" FROM "subscription_charges" c
  WHERE c."account_id" = NEW."account_id" AND c."gateway_transaction_id" = NEW."gateway_transaction_id";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "ledger_subscription_recalc_insert" AFTER INSERT ON "ledger_transactions" FOR EACH ROW
  WHEN (NEW.gateway_transaction_id IS NOT NULL) EXECUTE FUNCTION subscription_recalc_from_ledger();
--> statement-breakpoint
CREATE TRIGGER "ledger_subscription_recalc_update" AFTER UPDATE ON "ledger_transactions" FOR EACH ROW
  WHEN (NEW.gateway_transaction_id IS NOT NULL AND (OLD.gateway_transaction_id IS DISTINCT FROM NEW.gateway_transaction_id
    OR OLD.status IS DISTINCT FROM NEW.status OR OLD.paid_at IS DISTINCT FROM NEW.paid_at OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.amount_cents IS DISTINCT FROM NEW.amount_cents))
  EXECUTE FUNCTION subscription_recalc_from_ledger();
--> statement-breakpoint
-- So do the subscription's own facts and its charges' links, whoever writes them.
CREATE FUNCTION "subscription_recalc_self"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'subscriptions' THEN
    INSERT INTO "subscription_recalcs" ("account_id", "subscription_id") VALUES (NEW."account_id", NEW."id");
  ELSE
    INSERT INTO "subscription_recalcs" ("account_id", "subscription_id") VALUES (NEW."account_id", NEW."subscription_id");
    IF TG_OP = 'UPDATE' AND OLD."subscription_id" IS DISTINCT FROM NEW."subscription_id" THEN
      INSERT INTO "subscription_recalcs" ("account_id", "subscription_id") VALUES (OLD."account_id", OLD."subscription_id");
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "subscriptions_recalc_insert" AFTER INSERT ON "subscriptions" FOR EACH ROW EXECUTE FUNCTION subscription_recalc_self();
--> statement-breakpoint
CREATE TRIGGER "subscriptions_recalc_update" AFTER UPDATE OF "gateway_status", "gateway_record_at", "periodicity_type", "periodicity",
  "amount_cents", "started_at" ON "subscriptions" FOR EACH ROW EXECUTE FUNCTION subscription_recalc_self();
--> statement-breakpoint
CREATE TRIGGER "subscription_charges_recalc" AFTER INSERT OR UPDATE OF "subscription_id" ON "subscription_charges" FOR EACH ROW
  EXECUTE FUNCTION subscription_recalc_self();
--> statement-breakpoint
-- Every subscription recorded before this migration gets its first summary.
INSERT INTO "subscription_recalcs" ("account_id", "subscription_id") SELECT "account_id", "id" FROM "subscriptions";
--> statement-breakpoint
-- What happened before this migration is not announced to destinations as news (lib/subscriptions/events.ts):
-- renewals already paid or failed count as announced, and overdue or lost episodes already begun too.
UPDATE "subscription_charges" c SET "announced" = CASE WHEN l."paid_at" IS NOT NULL THEN 'paid'
    WHEN upper(btrim(l."status")) IN ('FAILED', 'REFUSED', 'DECLINED') THEN 'failed' END
  FROM "ledger_transactions" l WHERE l."account_id" = c."account_id" AND l."gateway_transaction_id" = c."gateway_transaction_id";
--> statement-breakpoint
UPDATE "subscriptions" SET "overdue_announced_from" = now(), "lost_announced_from" = now();
