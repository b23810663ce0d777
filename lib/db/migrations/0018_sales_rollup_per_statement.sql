-- The sales rollups (migration 0015) are kept per statement from its transition tables instead of
-- through sales_daily_pending: each changed row used to insert its contributions there (logged
-- writes, and a table of dead rows that every statement's fold scanned and deleted again). 20,000
-- ledger rows confirmed five a statement on four connections (`npm run bench:destinations`' load)
-- cost Postgres 1.49-1.60 ms of CPU a row with the old triggers, 0.41-0.51 with these, 0.24-0.33
-- without any rollup. The row triggers keep their filter and only mark that the statement changed
-- what a row contributes (one flag per trigger depth, so a nested statement never takes another's
-- mark); a statement that changed none of it only reads the flag.
DROP TRIGGER "ledger_sales_rollup_fold" ON "ledger_transactions";--> statement-breakpoint
DROP FUNCTION "sales_rollup_fold"();--> statement-breakpoint
-- What the row triggers of 0015 (ledger_sales_rollup_insert and _update, their filters unchanged) now run.
CREATE OR REPLACE FUNCTION "sales_rollup_row"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('sales.rollup_' || lower(TG_OP) || '_' || pg_trigger_depth(), 'on', true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TABLE "sales_daily_pending" CASCADE;--> statement-breakpoint
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
CREATE TRIGGER "ledger_sales_rollup_inserted" AFTER INSERT ON "ledger_transactions" REFERENCING NEW TABLE AS changed_new
  FOR EACH STATEMENT EXECUTE FUNCTION sales_rollup_apply();
--> statement-breakpoint
CREATE TRIGGER "ledger_sales_rollup_updated" AFTER UPDATE ON "ledger_transactions" REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new
  FOR EACH STATEMENT EXECUTE FUNCTION sales_rollup_apply();
