CREATE TABLE "balance_entries" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"account_id" text NOT NULL,
	"available_cents" bigint NOT NULL,
	"pending_cents" bigint NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	"carried_available_cents" bigint,
	"carried_pending_cents" bigint,
	"by_user_id" text,
	"by_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_movement_days" (
	"account_id" text NOT NULL,
	"day" date NOT NULL,
	"available_cents" bigint NOT NULL,
	"pending_cents" bigint NOT NULL,
	"movements" bigint NOT NULL,
	CONSTRAINT "ledger_movement_days_account_id_day_pk" PRIMARY KEY("account_id","day")
);
--> statement-breakpoint
CREATE TABLE "ledger_movements" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"account_id" text NOT NULL,
	"kind" text NOT NULL,
	"ledger_id" text,
	"transfer_id" text,
	"reference" text,
	"available_cents" bigint NOT NULL,
	"pending_cents" bigint NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"untold" text
);
--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "available_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "reversed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "balance_entries" ADD CONSTRAINT "balance_entries_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_movement_days" ADD CONSTRAINT "ledger_movement_days_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_movements" ADD CONSTRAINT "ledger_movements_account_id_gateway_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."gateway_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_movements" ADD CONSTRAINT "ledger_movements_ledger_id_ledger_transactions_id_fk" FOREIGN KEY ("ledger_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_movements" ADD CONSTRAINT "ledger_movements_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "balance_entries_account_read_idx" ON "balance_entries" USING btree ("account_id","read_at");--> statement-breakpoint
CREATE INDEX "ledger_movements_account_time_idx" ON "ledger_movements" USING btree ("account_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "ledger_movements_account_kind_time_idx" ON "ledger_movements" USING btree ("account_id","kind","occurred_at");--> statement-breakpoint
CREATE INDEX "ledger_movements_untold_idx" ON "ledger_movements" USING btree ("account_id","untold") WHERE "ledger_movements"."untold" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_movements_ledger_kind_key" ON "ledger_movements" USING btree ("ledger_id","kind") WHERE "ledger_movements"."ledger_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_movements_transfer_kind_key" ON "ledger_movements" USING btree ("transfer_id","kind") WHERE "ledger_movements"."transfer_id" is not null;--> statement-breakpoint
-- The per-day sums the balance figures read (lib/balance/queries.ts): what a movement adds on insert, it takes back on delete.
CREATE OR REPLACE FUNCTION "ledger_movement_days_keep"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO ledger_movement_days AS d (account_id, day, available_cents, pending_cents, movements)
    VALUES (OLD.account_id, (OLD.occurred_at AT TIME ZONE 'America/Sao_Paulo')::date, -OLD.available_cents, -OLD.pending_cents, -1)
    ON CONFLICT (account_id, day) DO UPDATE SET available_cents = d.available_cents + excluded.available_cents,
      pending_cents = d.pending_cents + excluded.pending_cents, movements = d.movements + excluded.movements;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO ledger_movement_days AS d (account_id, day, available_cents, pending_cents, movements)
    VALUES (NEW.account_id, (NEW.occurred_at AT TIME ZONE 'America/Sao_Paulo')::date, NEW.available_cents, NEW.pending_cents, 1)
    ON CONFLICT (account_id, day) DO UPDATE SET available_cents = d.available_cents + excluded.available_cents,
      pending_cents = d.pending_cents + excluded.pending_cents, movements = d.movements + excluded.movements;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "ledger_movement_days_keep" AFTER INSERT OR UPDATE OR DELETE ON "ledger_movements"
  FOR EACH ROW EXECUTE FUNCTION "ledger_movement_days_keep"();
