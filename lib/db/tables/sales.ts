import { sql } from "drizzle-orm";
import { bigint, date, index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { gatewayAccounts } from "./core";
import { ledgerTransactions } from "./ledger";

/** What a person did about an unpaid charge on the recovery list: reached the customer, or gave the sale up. */
export type RecoveryMarkState = "contacted" | "lost";

/**
 * Marks on the recovery list (lib/sales): a marked charge leaves the list; one paid after a
 * `contacted` mark counts as recovered revenue. A charge may be marked more than once (contacted,
 * then lost): every mark is kept.
 */
export const recoveryMarks = pgTable(
  "recovery_marks",
  {
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    accountId: text("account_id")
      .notNull()
      .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
    ledgerId: text("ledger_id")
      .notNull()
      .references(() => ledgerTransactions.id, { onDelete: "cascade" }),
    state: text("state").$type<RecoveryMarkState>().notNull(),
    note: text("note"),
    byUserId: text("by_user_id"),
    byEmail: text("by_email"),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("recovery_marks_ledger_idx").on(t.ledgerId, t.at), index("recovery_marks_account_at_idx").on(t.accountId, t.at)],
);

/** Per-account settings of the sales area; an account without a row has the defaults (lib/sales/settings.ts). */
export const salesSettings = pgTable("sales_settings", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
  /** A Pix charge joins the recovery list this long after it was created unpaid. */
  pixDelayMs: bigint("pix_delay_ms", { mode: "number" }).notNull(),
  /** A boleto joins it this long after the start of its due day (São Paulo). */
  boletoDelayMs: bigint("boleto_delay_ms", { mode: "number" }).notNull(),
  /** The recovery message, with {nome} {valor} {produto} {link}. */
  messageTemplate: text("message_template").notNull(),
  /** The message for a subscription's unpaid or failed renewal, same placeholders; null = the default (lib/sales/message.ts). */
  renewalTemplate: text("renewal_template"),
  updatedByEmail: text("updated_by_email"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The rollup's groupings: the payment method, each origin fact, and the Pix time-to-pay histogram (paid cohort only). */
export type SalesRollupDimension =
  "method" | "utm_source" | "utm_medium" | "utm_campaign" | "product" | "offer" | "origin_label" | "pix_seconds";

/**
 * Daily rollups of the ledger for the sales reports, kept by a trigger on `ledger_transactions`
 * (migration 0015: `sales_contributions` says what each row adds), in the same transaction as the
 * fact, so they are never behind. Two cohorts: `created` (by the São Paulo day the gateway created
 * the charge: `charges`, and `paid` = of them, paid by now) and `paid` (by the São Paulo day of its
 * confirmed payment: `charges` sales, their amount, how many are now refunded or charged back).
 * `value` is '' when the row has none (direct / unknown origin). Never written by application code.
 */
export const salesDaily = pgTable(
  "sales_daily",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
    cohort: text("cohort").$type<"created" | "paid">().notNull(),
    dimension: text("dimension").$type<SalesRollupDimension>().notNull(),
    day: date("day", { mode: "string" }).notNull(),
    value: text("value").notNull(),
    currency: text("currency").notNull(),
    charges: bigint("charges", { mode: "number" }).notNull().default(0),
    paid: bigint("paid", { mode: "number" }).notNull().default(0),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull().default(0),
    refunded: bigint("refunded", { mode: "number" }).notNull().default(0),
    refundedCents: bigint("refunded_cents", { mode: "number" }).notNull().default(0),
    chargedBack: bigint("charged_back", { mode: "number" }).notNull().default(0),
    chargedBackCents: bigint("charged_back_cents", { mode: "number" }).notNull().default(0),
    /** Paid cohort: the fees and splits the gateway reported for these sales (fee_cents + the request's splits), and how many have no fee reported. */
    feeCents: bigint("fee_cents", { mode: "number" }).notNull().default(0),
    feeUntold: bigint("fee_untold", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ name: "sales_daily_pkey", columns: [t.accountId, t.cohort, t.dimension, t.day, t.value, t.currency] })],
);
