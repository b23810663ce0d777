CREATE TABLE "destination_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" text NOT NULL,
	"destination_id" text NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"attempt" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"duration_ms" integer,
	"http_status" integer,
	"error" text,
	"response_excerpt" text,
	"next_retry_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "destination_deliveries" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"destination_id" text NOT NULL,
	"account_id" text NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"round_start" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_status" integer,
	"last_error" text,
	"last_attempt_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_destinations" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"account_id" text NOT NULL,
	"kind" text DEFAULT 'http' NOT NULL,
	"url" text NOT NULL,
	"description" text,
	"event_types" jsonb,
	"state" text DEFAULT 'enabled' NOT NULL,
	"disabled_reason" text,
	"disabled_at" timestamp with time zone,
	"secret_encrypted" text NOT NULL,
	"secret_last4" text NOT NULL,
	"previous_secret_encrypted" text,
	"previous_secret_expires_at" timestamp with time zone,
	"failing_since" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone,
	"listen_token_id" text,
	"created_by" text,
	"created_by_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_outbox" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"account_id" text NOT NULL,
	"source" text NOT NULL,
	"object_id" text NOT NULL,
	"previous_status" text,
	"status" text,
	"snapshot" jsonb NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"type" text,
	"payload" jsonb,
	"published_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "listen_tokens" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"account_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"token_last4" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_by" text,
	"created_by_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "destination_deliveries" ADD CONSTRAINT "destination_deliveries_destination_id_event_destinations_id_fk" FOREIGN KEY ("destination_id") REFERENCES "public"."event_destinations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_destinations" ADD CONSTRAINT "event_destinations_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_outbox" ADD CONSTRAINT "event_outbox_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listen_tokens" ADD CONSTRAINT "listen_tokens_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "destination_attempts_key" ON "destination_attempts" USING btree ("delivery_id","attempt");--> statement-breakpoint
CREATE INDEX "destination_attempts_destination_idx" ON "destination_attempts" USING btree ("destination_id","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "destination_deliveries_key" ON "destination_deliveries" USING btree ("destination_id","event_id");--> statement-breakpoint
CREATE INDEX "destination_deliveries_due_idx" ON "destination_deliveries" USING btree ("next_at") WHERE "destination_deliveries"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "destination_deliveries_destination_idx" ON "destination_deliveries" USING btree ("destination_id","created_at");--> statement-breakpoint
CREATE INDEX "event_destinations_account_idx" ON "event_destinations" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "event_destinations_listen_key" ON "event_destinations" USING btree ("listen_token_id") WHERE "event_destinations"."listen_token_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "event_outbox_id_key" ON "event_outbox" USING btree ("id");--> statement-breakpoint
CREATE INDEX "event_outbox_pending_idx" ON "event_outbox" USING btree ("seq") WHERE "event_outbox"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "event_outbox_account_idx" ON "event_outbox" USING btree ("account_id","occurred_at") WHERE "event_outbox"."state" = 'published';--> statement-breakpoint
CREATE UNIQUE INDEX "listen_tokens_hash_key" ON "listen_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "listen_tokens_account_idx" ON "listen_tokens" USING btree ("account_id","created_at");--> statement-breakpoint
-- The transactional outbox (lib/destinations/): a fact and its outbox row commit together or not
-- at all, whichever code path records the fact. The worker reads the rows, in order, and turns
-- each into an event of the console's vocabulary or skips it.
CREATE OR REPLACE FUNCTION "console_outbox_write"(account text, source text, object_id text, previous text, current text, snapshot jsonb) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "event_outbox" ("id", "account_id", "source", "object_id", "previous_status", "status", "snapshot", "occurred_at")
  VALUES ('msg_' || replace(gen_random_uuid()::text, '-', ''), account, source, object_id, previous, current, snapshot, clock_timestamp());
  PERFORM pg_notify('event_outbox', '');
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "console_outbox_ledger"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM console_outbox_write(NEW.account_id, 'ledger', NEW.id, NULL, NEW.status, to_jsonb(NEW));
  ELSE
    PERFORM console_outbox_write(NEW.account_id, 'ledger', NEW.id, OLD.status, NEW.status, to_jsonb(NEW));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "ledger_outbox_insert" AFTER INSERT ON "ledger_transactions" FOR EACH ROW WHEN (NEW.status IS NOT NULL) EXECUTE FUNCTION console_outbox_ledger();
--> statement-breakpoint
CREATE TRIGGER "ledger_outbox_update" AFTER UPDATE OF "status" ON "ledger_transactions" FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION console_outbox_ledger();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "console_outbox_transfer"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM console_outbox_write(NEW.account_id, 'transfer', NEW.id, NULL, NEW.withdraw_status, to_jsonb(NEW) - 'webhook_token_encrypted');
  ELSE
    PERFORM console_outbox_write(NEW.account_id, 'transfer', NEW.id, OLD.withdraw_status, NEW.withdraw_status, to_jsonb(NEW) - 'webhook_token_encrypted');
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "transfers_outbox_insert" AFTER INSERT ON "transfers" FOR EACH ROW WHEN (NEW.withdraw_status IS NOT NULL) EXECUTE FUNCTION console_outbox_transfer();
--> statement-breakpoint
CREATE TRIGGER "transfers_outbox_update" AFTER UPDATE OF "withdraw_status" ON "transfers" FOR EACH ROW WHEN (OLD.withdraw_status IS DISTINCT FROM NEW.withdraw_status) EXECUTE FUNCTION console_outbox_transfer();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "console_outbox_refund_request"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR OLD.gateway_refund_id IS NULL THEN
    PERFORM console_outbox_write(NEW.account_id, 'refund_request', NEW.id, NULL, NEW.status, to_jsonb(NEW));
  ELSE
    PERFORM console_outbox_write(NEW.account_id, 'refund_request', NEW.id, OLD.status, NEW.status, to_jsonb(NEW));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "refund_requests_outbox_insert" AFTER INSERT ON "refund_requests" FOR EACH ROW WHEN (NEW.gateway_refund_id IS NOT NULL) EXECUTE FUNCTION console_outbox_refund_request();
--> statement-breakpoint
CREATE TRIGGER "refund_requests_outbox_update" AFTER UPDATE ON "refund_requests" FOR EACH ROW
  WHEN (NEW.gateway_refund_id IS NOT NULL AND (OLD.gateway_refund_id IS NULL OR OLD.status IS DISTINCT FROM NEW.status)) EXECUTE FUNCTION console_outbox_refund_request();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "console_outbox_checkout_link"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM console_outbox_write(NEW.account_id, 'checkout_link', NEW.id, NULL, NULL, to_jsonb(NEW));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "checkout_links_outbox_insert" AFTER INSERT ON "checkout_links" FOR EACH ROW WHEN (NEW.checkout_url IS NOT NULL) EXECUTE FUNCTION console_outbox_checkout_link();
--> statement-breakpoint
CREATE TRIGGER "checkout_links_outbox_update" AFTER UPDATE OF "checkout_url" ON "checkout_links" FOR EACH ROW
  WHEN (OLD.checkout_url IS NULL AND NEW.checkout_url IS NOT NULL) EXECUTE FUNCTION console_outbox_checkout_link();
