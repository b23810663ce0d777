-- The sales rollups (migration 0015) are kept per statement from its transition tables instead of
-- through sales_daily_pending: each changed row used to insert its contributions there (logged
-- writes, and a table of dead rows that every statement's fold scanned and deleted again). 20,000
-- ledger rows confirmed five a statement on four connections (`npm run bench:destinations`' load)
-- cost Postgres 1.49-1.60 ms of CPU a row with the old triggers, 0.41-0.51 with these, 0.24-0.33
-- without any rollup. The row
-- triggers keep their filter and only mark that the statement changed what a row contributes
-- (one flag per trigger depth, so a nested statement never takes another's mark); a statement
-- that changed none of it only reads the flag.
DROP TRIGGER "ledger_sales_rollup_insert" ON "ledger_transactions";--> statement-breakpoint
DROP TRIGGER "ledger_sales_rollup_update" ON "ledger_transactions";--> statement-breakpoint
DROP TRIGGER "ledger_sales_rollup_fold" ON "ledger_transactions";--> statement-breakpoint
DROP FUNCTION "sales_rollup_row"();--> statement-breakpoint
DROP FUNCTION "sales_rollup_fold"();--> statement-breakpoint
DROP TABLE "sales_daily_pending" CASCADE;--> statement-breakpoint
CREATE FUNCTION "sales_rollup_mark"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('sales.rollup_' || lower(TG_OP) || '_' || pg_trigger_depth(), 'on', true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The statement's new contributions minus its old ones, summed per key and added to sales_daily in
-- key order, so concurrent writers take the rollup rows' locks in one order and cannot deadlock.
-- Planning these queries takes about 10 ms: one generic plan per connection (and after each
-- ANALYZE of the tables), not a custom plan for each of a connection's first five statements.
CREATE FUNCTION "sales_rollup_apply"() RETURNS trigger
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  flag text := 'sales.rollup_' || lower(TG_OP) || '_' || pg_trigger_depth();
  delta "sales_daily"[];
BEGIN
  IF current_setting(flag, true) IS DISTINCT FROM 'on' THEN
    RETURN NULL;
  END IF;
  PERFORM set_config(flag, 'off', true);
  IF TG_OP = 'UPDATE' THEN
    delta := ARRAY(
      SELECT ROW(n.account_id, c.*)::"sales_daily" FROM changed_new n CROSS JOIN LATERAL sales_contributions(n) c
      UNION ALL
      SELECT ROW(o.account_id, c.cohort, c.dimension, c.day, c.value, c.currency, -c.charges, -c.paid, -c.amount_cents, -c.refunded,
        -c.refunded_cents, -c.charged_back, -c.charged_back_cents)::"sales_daily"
      FROM changed_old o CROSS JOIN LATERAL sales_contributions(o) c);
  ELSE
    delta := ARRAY(SELECT ROW(n.account_id, c.*)::"sales_daily" FROM changed_new n CROSS JOIN LATERAL sales_contributions(n) c);
  END IF;
  INSERT INTO "sales_daily" AS d ("account_id", "cohort", "dimension", "day", "value", "currency", "charges", "paid", "amount_cents",
    "refunded", "refunded_cents", "charged_back", "charged_back_cents")
  SELECT account_id, cohort, dimension, day, value, currency, sum(charges), sum(paid), sum(amount_cents), sum(refunded), sum(refunded_cents),
    sum(charged_back), sum(charged_back_cents)
  FROM unnest(delta)
  GROUP BY 1, 2, 3, 4, 5, 6
  HAVING sum(charges) <> 0 OR sum(paid) <> 0 OR sum(amount_cents) <> 0 OR sum(refunded) <> 0 OR sum(refunded_cents) <> 0
    OR sum(charged_back) <> 0 OR sum(charged_back_cents) <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("account_id", "cohort", "dimension", "day", "value", "currency") DO UPDATE SET
    "charges" = d."charges" + excluded."charges", "paid" = d."paid" + excluded."paid", "amount_cents" = d."amount_cents" + excluded."amount_cents",
    "refunded" = d."refunded" + excluded."refunded", "refunded_cents" = d."refunded_cents" + excluded."refunded_cents",
    "charged_back" = d."charged_back" + excluded."charged_back", "charged_back_cents" = d."charged_back_cents" + excluded."charged_back_cents";
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A console claim (SUBMITTING) adds nothing yet; an update that changes none of what a row adds costs only this comparison.
CREATE TRIGGER "ledger_sales_rollup_insert" AFTER INSERT ON "ledger_transactions" FOR EACH ROW
  WHEN (NEW.paid_at IS NOT NULL OR NEW.origin <> 'console' OR NEW.submission = 'SUBMITTED') EXECUTE FUNCTION sales_rollup_mark();
--> statement-breakpoint
CREATE TRIGGER "ledger_sales_rollup_update" AFTER UPDATE ON "ledger_transactions" FOR EACH ROW
  WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id OR OLD.kind IS DISTINCT FROM NEW.kind OR OLD.origin IS DISTINCT FROM NEW.origin
    OR OLD.submission IS DISTINCT FROM NEW.submission OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.paid_at IS DISTINCT FROM NEW.paid_at
    OR OLD.status IS DISTINCT FROM NEW.status OR OLD.payment_method IS DISTINCT FROM NEW.payment_method OR OLD.currency IS DISTINCT FROM NEW.currency
    OR OLD.amount_cents IS DISTINCT FROM NEW.amount_cents OR OLD.utm_source IS DISTINCT FROM NEW.utm_source
    OR OLD.utm_medium IS DISTINCT FROM NEW.utm_medium OR OLD.utm_campaign IS DISTINCT FROM NEW.utm_campaign
    OR OLD.product_name IS DISTINCT FROM NEW.product_name OR OLD.offer_code IS DISTINCT FROM NEW.offer_code
    OR OLD.origin_label IS DISTINCT FROM NEW.origin_label)
  EXECUTE FUNCTION sales_rollup_mark();
--> statement-breakpoint
CREATE TRIGGER "ledger_sales_rollup_inserted" AFTER INSERT ON "ledger_transactions" REFERENCING NEW TABLE AS changed_new
  FOR EACH STATEMENT EXECUTE FUNCTION sales_rollup_apply();
--> statement-breakpoint
CREATE TRIGGER "ledger_sales_rollup_updated" AFTER UPDATE ON "ledger_transactions" REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new
  FOR EACH STATEMENT EXECUTE FUNCTION sales_rollup_apply();
