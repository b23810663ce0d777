-- Net revenue in Vendas: the paid cohort of the sales rollups also sums the fees and splits the
-- gateway reported for its sales (the ledger row's fee_cents plus its request's splits, as the
-- fee and split movements of lib/ledger/movements.ts take them) and counts the sales with no fee
-- reported yet. Read from ledger_movements joined to their ledger rows instead, a 90-day overview
-- on the 1,000,000-row bench took 1.7 s (its rollups alone, 80 ms).
ALTER TABLE "sales_daily" ADD COLUMN "fee_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sales_daily" ADD COLUMN "fee_untold" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The same contributions as 0015's, with the two new columns last (sales_daily's order: the trigger casts its rows to that type).
-- Splits in cents as splitsCents() reads them: the numeric amounts of the request's splits array, in reais.
DROP FUNCTION "sales_contributions"("ledger_transactions");--> statement-breakpoint
CREATE FUNCTION "sales_contributions"(l "ledger_transactions")
RETURNS TABLE ("cohort" text, "dimension" text, "day" date, "value" text, "currency" text, "charges" bigint, "paid" bigint,
  "amount_cents" bigint, "refunded" bigint, "refunded_cents" bigint, "charged_back" bigint, "charged_back_cents" bigint,
  "fee_cents" bigint, "fee_untold" bigint)
LANGUAGE sql STABLE AS $$
  SELECT c.cohort, v.dimension, c.day, v.value, l.currency, 1::bigint, c.paid, c.amount_cents, c.refunded, c.refunded_cents,
    c.charged_back, c.charged_back_cents, c.fee_cents, c.fee_untold
  FROM (SELECT upper(regexp_replace(trim(l.status), '[\s-]+', '_', 'g')) AS state_key, coalesce(upper(trim(l.payment_method)), '') AS method,
      extract(epoch FROM l.paid_at - l.created_at)::double precision AS seconds,
      CASE WHEN jsonb_typeof(l.request->'splits') = 'array' THEN (
        SELECT coalesce(sum(round((s.split->'amount')::text::numeric * 100)), 0)::bigint
        FROM jsonb_array_elements(l.request->'splits') AS s(split)
        WHERE jsonb_typeof(s.split->'amount') = 'number') ELSE 0 END AS splits_cents) s
  CROSS JOIN LATERAL (VALUES
    ('created', (l.created_at AT TIME ZONE 'America/Sao_Paulo')::date, (l.paid_at IS NOT NULL)::int::bigint, 0::bigint, 0::bigint, 0::bigint,
      0::bigint, 0::bigint, 0::bigint, 0::bigint, l.origin <> 'console' OR l.submission = 'SUBMITTED'),
    ('paid', (l.paid_at AT TIME ZONE 'America/Sao_Paulo')::date, 0::bigint, coalesce(l.amount_cents, 0),
      (s.state_key IN ('REFUNDED'))::int::bigint, CASE WHEN s.state_key IN ('REFUNDED') THEN coalesce(l.amount_cents, 0) ELSE 0 END,
      (s.state_key IN ('CHARGED_BACK', 'CHARGEBACK'))::int::bigint,
      CASE WHEN s.state_key IN ('CHARGED_BACK', 'CHARGEBACK') THEN coalesce(l.amount_cents, 0) ELSE 0 END,
      coalesce(l.fee_cents, 0) + s.splits_cents, (l.fee_cents IS NULL)::int::bigint,
      l.paid_at IS NOT NULL)
  ) AS c(cohort, day, paid, amount_cents, refunded, refunded_cents, charged_back, charged_back_cents, fee_cents, fee_untold, applies)
  CROSS JOIN LATERAL (VALUES
    ('method', s.method),
    ('utm_source', coalesce(l.utm_source, '')),
    ('utm_medium', coalesce(l.utm_medium, '')),
    ('utm_campaign', coalesce(l.utm_campaign, '')),
    ('product', coalesce(l.product_name, '')),
    ('offer', coalesce(l.offer_code, '')),
    ('origin_label', coalesce(l.origin_label, '')),
    ('pix_seconds', CASE WHEN c.cohort = 'paid' AND s.method = 'PIX' THEN
      (CASE WHEN s.seconds < 1 THEN 0 ELSE 1 + floor(16 * ln(s.seconds) / ln(2))::int END)::text END)
  ) AS v(dimension, value)
  WHERE c.applies AND v.value IS NOT NULL
    AND l.kind NOT IN ('pix_subscription', 'card_subscription', 'crypto_subscription', 'pix_deposit')
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "sales_rollup_rebuild"(account text DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "sales_daily" WHERE account IS NULL OR "account_id" = account;
  INSERT INTO "sales_daily" ("account_id", "cohort", "dimension", "day", "value", "currency", "charges", "paid", "amount_cents", "refunded",
    "refunded_cents", "charged_back", "charged_back_cents", "fee_cents", "fee_untold")
  SELECT l."account_id", c.cohort, c.dimension, c.day, c.value, c.currency, sum(c.charges), sum(c.paid), sum(c.amount_cents), sum(c.refunded),
    sum(c.refunded_cents), sum(c.charged_back), sum(c.charged_back_cents), sum(c.fee_cents), sum(c.fee_untold)
  FROM "ledger_transactions" l CROSS JOIN LATERAL sales_contributions(l) c
  WHERE account IS NULL OR l."account_id" = account
  GROUP BY 1, 2, 3, 4, 5, 6;
END
$$;
--> statement-breakpoint
-- 0018's statement trigger, summing the two new columns too.
CREATE OR REPLACE FUNCTION "sales_rollup_apply"() RETURNS trigger
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
        -c.refunded_cents, -c.charged_back, -c.charged_back_cents, -c.fee_cents, -c.fee_untold)::"sales_daily"
      FROM changed_old o CROSS JOIN LATERAL sales_contributions(o) c);
  ELSE
    delta := ARRAY(SELECT ROW(n.account_id, c.*)::"sales_daily" FROM changed_new n CROSS JOIN LATERAL sales_contributions(n) c);
  END IF;
  INSERT INTO "sales_daily" AS d ("account_id", "cohort", "dimension", "day", "value", "currency", "charges", "paid", "amount_cents",
    "refunded", "refunded_cents", "charged_back", "charged_back_cents", "fee_cents", "fee_untold")
  SELECT account_id, cohort, dimension, day, value, currency, sum(charges), sum(paid), sum(amount_cents), sum(refunded), sum(refunded_cents),
    sum(charged_back), sum(charged_back_cents), sum(fee_cents), sum(fee_untold)
  FROM unnest(delta)
  GROUP BY 1, 2, 3, 4, 5, 6
  HAVING sum(charges) <> 0 OR sum(paid) <> 0 OR sum(amount_cents) <> 0 OR sum(refunded) <> 0 OR sum(refunded_cents) <> 0
    OR sum(charged_back) <> 0 OR sum(charged_back_cents) <> 0 OR sum(fee_cents) <> 0 OR sum(fee_untold) <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("account_id", "cohort", "dimension", "day", "value", "currency") DO UPDATE SET
    "charges" = d."charges" + excluded."charges", "paid" = d."paid" + excluded."paid", "amount_cents" = d."amount_cents" + excluded."amount_cents",
    "refunded" = d."refunded" + excluded."refunded", "refunded_cents" = d."refunded_cents" + excluded."refunded_cents",
    "charged_back" = d."charged_back" + excluded."charged_back", "charged_back_cents" = d."charged_back_cents" + excluded."charged_back_cents",
    "fee_cents" = d."fee_cents" + excluded."fee_cents", "fee_untold" = d."fee_untold" + excluded."fee_untold";
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- 0015's filter, and a change of the fee or of the request's splits.
DROP TRIGGER "ledger_sales_rollup_update" ON "ledger_transactions";--> statement-breakpoint
CREATE TRIGGER "ledger_sales_rollup_update" AFTER UPDATE ON "ledger_transactions" FOR EACH ROW
  WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id OR OLD.kind IS DISTINCT FROM NEW.kind OR OLD.origin IS DISTINCT FROM NEW.origin
    OR OLD.submission IS DISTINCT FROM NEW.submission OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.paid_at IS DISTINCT FROM NEW.paid_at
    OR OLD.status IS DISTINCT FROM NEW.status OR OLD.payment_method IS DISTINCT FROM NEW.payment_method OR OLD.currency IS DISTINCT FROM NEW.currency
    OR OLD.amount_cents IS DISTINCT FROM NEW.amount_cents OR OLD.utm_source IS DISTINCT FROM NEW.utm_source
    OR OLD.utm_medium IS DISTINCT FROM NEW.utm_medium OR OLD.utm_campaign IS DISTINCT FROM NEW.utm_campaign
    OR OLD.product_name IS DISTINCT FROM NEW.product_name OR OLD.offer_code IS DISTINCT FROM NEW.offer_code
    OR OLD.origin_label IS DISTINCT FROM NEW.origin_label OR OLD.fee_cents IS DISTINCT FROM NEW.fee_cents
    OR OLD.request->'splits' IS DISTINCT FROM NEW.request->'splits')
  EXECUTE FUNCTION sales_rollup_row();
--> statement-breakpoint
SELECT sales_rollup_rebuild();--> statement-breakpoint
-- The rebuild replaced every row: fresh statistics for the reports' plans (autovacuum clears the old rows later).
ANALYZE "sales_daily";
