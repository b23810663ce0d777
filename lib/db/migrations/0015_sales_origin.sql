CREATE TABLE "recovery_marks" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"account_id" text NOT NULL,
	"ledger_id" text NOT NULL,
	"state" text NOT NULL,
	"note" text,
	"by_user_id" text,
	"by_email" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_daily" (
	"account_id" text NOT NULL,
	"cohort" text NOT NULL,
	"dimension" text NOT NULL,
	"day" date NOT NULL,
	"value" text NOT NULL,
	"currency" text NOT NULL,
	"charges" bigint DEFAULT 0 NOT NULL,
	"paid" bigint DEFAULT 0 NOT NULL,
	"amount_cents" bigint DEFAULT 0 NOT NULL,
	"refunded" bigint DEFAULT 0 NOT NULL,
	"refunded_cents" bigint DEFAULT 0 NOT NULL,
	"charged_back" bigint DEFAULT 0 NOT NULL,
	"charged_back_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "sales_daily_pkey" PRIMARY KEY("account_id","cohort","dimension","day","value","currency")
);
--> statement-breakpoint
CREATE TABLE "sales_daily_pending" (
	"account_id" text NOT NULL,
	"cohort" text NOT NULL,
	"dimension" text NOT NULL,
	"day" date NOT NULL,
	"value" text NOT NULL,
	"currency" text NOT NULL,
	"charges" bigint NOT NULL,
	"paid" bigint NOT NULL,
	"amount_cents" bigint NOT NULL,
	"refunded" bigint NOT NULL,
	"refunded_cents" bigint NOT NULL,
	"charged_back" bigint NOT NULL,
	"charged_back_cents" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_settings" (
	"account_id" text PRIMARY KEY NOT NULL,
	"pix_delay_ms" bigint NOT NULL,
	"boleto_delay_ms" bigint NOT NULL,
	"message_template" text NOT NULL,
	"updated_by_email" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "utm_source" text;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "utm_medium" text;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "utm_campaign" text;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "product_name" text;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "offer_code" text;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "origin_label" text;--> statement-breakpoint
ALTER TABLE "recovery_marks" ADD CONSTRAINT "recovery_marks_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_marks" ADD CONSTRAINT "recovery_marks_ledger_id_ledger_transactions_id_fk" FOREIGN KEY ("ledger_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_daily" ADD CONSTRAINT "sales_daily_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_settings" ADD CONSTRAINT "sales_settings_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recovery_marks_ledger_idx" ON "recovery_marks" USING btree ("ledger_id","at");--> statement-breakpoint
CREATE INDEX "recovery_marks_account_at_idx" ON "recovery_marks" USING btree ("account_id","at");--> statement-breakpoint
CREATE INDEX "ledger_account_awaiting_idx" ON "ledger_transactions" USING btree ("account_id","created_at") WHERE "ledger_transactions"."paid_at" is null and "ledger_transactions"."pending_status" is null and upper(regexp_replace(trim("ledger_transactions"."status"), '[\s-]+', '_', 'g')) in ('OK', 'PENDING', 'CREATED', 'WAITING_PAYMENT', 'AWAITING_PAYMENT', 'PROCESSING');--> statement-breakpoint
-- Origin facts the console already holds (lib/gateway/origin.ts reads new ones): a console charge's
-- first product and `metadata.origem` from its request; UTM values (trackProps first, then the
-- checkout URL's query when it needs no decoding), first product and offer from its payment
-- notifications the gateway did not contradict, the first notification that has a value winning,
-- as the applier fills them. Values are trimmed and cut at 200 characters.
CREATE FUNCTION "sales_origin_text"(value jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(value) = 'string' THEN left(nullif(trim(value #>> '{}'), ''), 200) END
$$;
--> statement-breakpoint
CREATE FUNCTION "sales_origin_query"(url text, name text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN v !~ '[%+]' THEN left(nullif(trim(v), ''), 200) END
  FROM (SELECT substring(url FROM '[?&]' || name || '=([^&#]*)') AS v) q
$$;
--> statement-breakpoint
UPDATE "ledger_transactions" SET
  "product_name" = coalesce(sales_origin_text("request" -> 'products' -> 0 -> 'name'), sales_origin_text("request" -> 'product' -> 'name')),
  "origin_label" = sales_origin_text("request" -> 'metadata' -> 'origem')
WHERE "request" IS NOT NULL AND ("request" ? 'products' OR "request" ? 'product' OR "request" -> 'metadata' ? 'origem');
--> statement-breakpoint
UPDATE "ledger_transactions" AS l SET
  "utm_source" = coalesce(l."utm_source", n.utm_source),
  "utm_medium" = coalesce(l."utm_medium", n.utm_medium),
  "utm_campaign" = coalesce(l."utm_campaign", n.utm_campaign),
  "product_name" = coalesce(l."product_name", n.product_name),
  "offer_code" = coalesce(l."offer_code", n.offer_code)
FROM (
  SELECT ledger_id,
    (array_agg(utm_source ORDER BY first_received_at) FILTER (WHERE utm_source IS NOT NULL))[1] AS utm_source,
    (array_agg(utm_medium ORDER BY first_received_at) FILTER (WHERE utm_medium IS NOT NULL))[1] AS utm_medium,
    (array_agg(utm_campaign ORDER BY first_received_at) FILTER (WHERE utm_campaign IS NOT NULL))[1] AS utm_campaign,
    (array_agg(product_name ORDER BY first_received_at) FILTER (WHERE product_name IS NOT NULL))[1] AS product_name,
    (array_agg(offer_code ORDER BY first_received_at) FILTER (WHERE offer_code IS NOT NULL))[1] AS offer_code
  FROM (
    SELECT ledger_id, first_received_at,
      coalesce(sales_origin_text(payload -> 'trackProps' -> 'utm_source'), sales_origin_text(payload -> 'trackProps' -> 'utmSource'),
        sales_origin_query(payload ->> 'checkoutUrl', 'utm_source')) AS utm_source,
      coalesce(sales_origin_text(payload -> 'trackProps' -> 'utm_medium'), sales_origin_text(payload -> 'trackProps' -> 'utmMedium'),
        sales_origin_query(payload ->> 'checkoutUrl', 'utm_medium')) AS utm_medium,
      coalesce(sales_origin_text(payload -> 'trackProps' -> 'utm_campaign'), sales_origin_text(payload -> 'trackProps' -> 'utmCampaign'),
        sales_origin_query(payload ->> 'checkoutUrl', 'utm_campaign')) AS utm_campaign,
      coalesce(sales_origin_text(payload -> 'orderItems' -> 0 -> 'product' -> 'name'), sales_origin_text(payload -> 'orderItems' -> 0 -> 'name')) AS product_name,
      sales_origin_text(payload -> 'offerCode') AS offer_code
    FROM "webhook_events"
    WHERE "kind" = 'payment' AND "ledger_id" IS NOT NULL AND coalesce("confirmation", '') <> 'contradicted'
  ) notified
  GROUP BY ledger_id
) n
WHERE l."id" = n.ledger_id
  AND (n.utm_source IS NOT NULL OR n.utm_medium IS NOT NULL OR n.utm_campaign IS NOT NULL OR n.product_name IS NOT NULL OR n.offer_code IS NOT NULL);
--> statement-breakpoint
DROP FUNCTION "sales_origin_text"(jsonb);
--> statement-breakpoint
DROP FUNCTION "sales_origin_query"(text, text);
--> statement-breakpoint
-- The sales rollups (lib/sales/README.md). What one ledger row adds to `sales_daily`: nothing
-- unless it is a sale (not a subscription definition, not a Pix deposit); to the `created` cohort
-- on its São Paulo creation day when the gateway created it (the console's submission it answered,
-- or a transaction its lookup confirmed), counting it paid when it has a confirmed payment time;
-- to the `paid` cohort on the São Paulo day of that payment, with its amount and whether its
-- confirmed status is refunded or charged back (the spellings of lib/status/machine.ts'
-- transactionMachine; a test checks they agree). One row per dimension, '' for no value; paid Pix
-- sales also add one to the bucket of their time to pay (16 buckets per doubling of the seconds).
CREATE OR REPLACE FUNCTION "sales_contributions"(l "ledger_transactions")
RETURNS TABLE ("cohort" text, "dimension" text, "day" date, "value" text, "currency" text, "charges" bigint, "paid" bigint,
  "amount_cents" bigint, "refunded" bigint, "refunded_cents" bigint, "charged_back" bigint, "charged_back_cents" bigint)
LANGUAGE sql STABLE AS $$
  SELECT c.cohort, v.dimension, c.day, v.value, l.currency, 1::bigint, c.paid, c.amount_cents, c.refunded, c.refunded_cents,
    c.charged_back, c.charged_back_cents
  FROM (SELECT upper(regexp_replace(trim(l.status), '[\s-]+', '_', 'g')) AS state_key, coalesce(upper(trim(l.payment_method)), '') AS method,
      extract(epoch FROM l.paid_at - l.created_at)::double precision AS seconds) s
  CROSS JOIN LATERAL (VALUES
    ('created', (l.created_at AT TIME ZONE 'America/Sao_Paulo')::date, (l.paid_at IS NOT NULL)::int::bigint, 0::bigint, 0::bigint, 0::bigint,
      0::bigint, 0::bigint, l.origin <> 'console' OR l.submission = 'SUBMITTED'),
    ('paid', (l.paid_at AT TIME ZONE 'America/Sao_Paulo')::date, 0::bigint, coalesce(l.amount_cents, 0),
      (s.state_key IN ('REFUNDED'))::int::bigint, CASE WHEN s.state_key IN ('REFUNDED') THEN coalesce(l.amount_cents, 0) ELSE 0 END,
      (s.state_key IN ('CHARGED_BACK', 'CHARGEBACK'))::int::bigint,
      CASE WHEN s.state_key IN ('CHARGED_BACK', 'CHARGEBACK') THEN coalesce(l.amount_cents, 0) ELSE 0 END,
      l.paid_at IS NOT NULL)
  ) AS c(cohort, day, paid, amount_cents, refunded, refunded_cents, charged_back, charged_back_cents, applies)
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
-- Rebuilds one account's rollups (or every account's) from its ledger: for a repair, or after a bulk load with triggers off.
CREATE OR REPLACE FUNCTION "sales_rollup_rebuild"(account text DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "sales_daily" WHERE account IS NULL OR "account_id" = account;
  INSERT INTO "sales_daily" ("account_id", "cohort", "dimension", "day", "value", "currency", "charges", "paid", "amount_cents", "refunded",
    "refunded_cents", "charged_back", "charged_back_cents")
  SELECT l."account_id", c.cohort, c.dimension, c.day, c.value, c.currency, sum(c.charges), sum(c.paid), sum(c.amount_cents), sum(c.refunded),
    sum(c.refunded_cents), sum(c.charged_back), sum(c.charged_back_cents)
  FROM "ledger_transactions" l CROSS JOIN LATERAL sales_contributions(l) c
  WHERE account IS NULL OR l."account_id" = account
  GROUP BY 1, 2, 3, 4, 5, 6;
END
$$;
--> statement-breakpoint
-- Keeps the rollups in the transaction that records the fact. Each changed row writes what it
-- changes (its new contributions minus its old ones, most cancel out) to sales_daily_pending; at
-- the end of the statement those are summed per key and added to sales_daily in key order, so
-- concurrent writers (several appliers, the reconciler) take the rollup rows' locks in one order
-- and cannot deadlock on them. A statement that changed no row's contributions only reads a flag.
CREATE OR REPLACE FUNCTION "sales_rollup_row"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "sales_daily_pending" ("account_id", "cohort", "dimension", "day", "value", "currency", "charges", "paid", "amount_cents",
    "refunded", "refunded_cents", "charged_back", "charged_back_cents")
  SELECT account_id, cohort, dimension, day, value, currency, sum(charges), sum(paid), sum(amount_cents), sum(refunded), sum(refunded_cents),
    sum(charged_back), sum(charged_back_cents)
  FROM (
    SELECT NEW.account_id AS account_id, c.* FROM sales_contributions(NEW) c
    UNION ALL
    SELECT OLD.account_id, c.cohort, c.dimension, c.day, c.value, c.currency, -c.charges, -c.paid, -c.amount_cents, -c.refunded,
      -c.refunded_cents, -c.charged_back, -c.charged_back_cents
    FROM sales_contributions(OLD) c WHERE TG_OP = 'UPDATE'
  ) delta
  GROUP BY 1, 2, 3, 4, 5, 6
  HAVING sum(charges) <> 0 OR sum(paid) <> 0 OR sum(amount_cents) <> 0 OR sum(refunded) <> 0 OR sum(refunded_cents) <> 0
    OR sum(charged_back) <> 0 OR sum(charged_back_cents) <> 0;
  PERFORM set_config('sales.rollup_pending', 'on', true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "sales_rollup_fold"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('sales.rollup_pending', true) IS DISTINCT FROM 'on' THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('sales.rollup_pending', 'off', true);
  -- Only this transaction's rows are visible here (the others' are uncommitted, and none outlives its statement).
  WITH moved AS (DELETE FROM "sales_daily_pending" RETURNING *)
  INSERT INTO "sales_daily" AS d ("account_id", "cohort", "dimension", "day", "value", "currency", "charges", "paid", "amount_cents",
    "refunded", "refunded_cents", "charged_back", "charged_back_cents")
  SELECT account_id, cohort, dimension, day, value, currency, sum(charges), sum(paid), sum(amount_cents), sum(refunded), sum(refunded_cents),
    sum(charged_back), sum(charged_back_cents)
  FROM moved
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
SELECT sales_rollup_rebuild();
--> statement-breakpoint
-- A console claim (SUBMITTING) adds nothing yet; an update that changes none of what a row adds costs only this comparison.
CREATE TRIGGER "ledger_sales_rollup_insert" AFTER INSERT ON "ledger_transactions" FOR EACH ROW
  WHEN (NEW.paid_at IS NOT NULL OR NEW.origin <> 'console' OR NEW.submission = 'SUBMITTED') EXECUTE FUNCTION sales_rollup_row();
--> statement-breakpoint
CREATE TRIGGER "ledger_sales_rollup_update" AFTER UPDATE ON "ledger_transactions" FOR EACH ROW
  WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id OR OLD.kind IS DISTINCT FROM NEW.kind OR OLD.origin IS DISTINCT FROM NEW.origin
    OR OLD.submission IS DISTINCT FROM NEW.submission OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.paid_at IS DISTINCT FROM NEW.paid_at
    OR OLD.status IS DISTINCT FROM NEW.status OR OLD.payment_method IS DISTINCT FROM NEW.payment_method OR OLD.currency IS DISTINCT FROM NEW.currency
    OR OLD.amount_cents IS DISTINCT FROM NEW.amount_cents OR OLD.utm_source IS DISTINCT FROM NEW.utm_source
    OR OLD.utm_medium IS DISTINCT FROM NEW.utm_medium OR OLD.utm_campaign IS DISTINCT FROM NEW.utm_campaign
    OR OLD.product_name IS DISTINCT FROM NEW.product_name OR OLD.offer_code IS DISTINCT FROM NEW.offer_code
    OR OLD.origin_label IS DISTINCT FROM NEW.origin_label)
  EXECUTE FUNCTION sales_rollup_row();
--> statement-breakpoint
CREATE TRIGGER "ledger_sales_rollup_fold" AFTER INSERT OR UPDATE ON "ledger_transactions" FOR EACH STATEMENT EXECUTE FUNCTION sales_rollup_fold();
