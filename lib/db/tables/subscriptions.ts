import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { gatewayAccounts } from "./core";

/** A set of time spans (Postgres `tstzmultirange`), written and read as its text literal. */
const tstzmultirange = customType<{ data: string; driverData: string }>({ dataType: () => "tstzmultirange" });

/**
 * The subscriptions the console created or learned from payment notifications (lib/subscriptions
 * owns these tables). The interface shows no subscription record: a row holds what the console
 * sent when it created the subscription and/or the latest `subscription` object a notification
 * carried, kept exactly as received. Keyed per account by the gateway's subscription id or the
 * caller's identifier, whichever is known (both once known).
 */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    accountId: text("account_id")
      .notNull()
      .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
    /** The gateway's id of the subscription (the notification object's `id`), when told. */
    gatewaySubscriptionId: text("gateway_subscription_id"),
    /** The caller's identifier (the console's own, or the notification object's `identifier`). */
    identifier: text("identifier"),
    /** How the console first heard of it: it created it, or a notification named it. */
    source: text("source").$type<"console" | "notification">().notNull(),
    /** The console's creation row in the ledger (a *_subscription kind), when the console created it. */
    ledgerId: text("ledger_id"),
    /** The facts below: what the console sent when it has them, else the first notification's object. */
    paymentMethod: text("payment_method"),
    amountCents: bigint("amount_cents", { mode: "number" }),
    currency: text("currency").notNull().default("BRL"),
    periodicityType: text("periodicity_type"),
    periodicity: integer("periodicity"),
    firstChargeIn: integer("first_charge_in"),
    clientName: text("client_name"),
    clientEmail: text("client_email"),
    clientDocument: text("client_document"),
    productId: text("product_id"),
    productName: text("product_name"),
    /** When it started: the console's creation, else the object's `createdAt`, else its first charge's. */
    startedAt: timestamp("started_at", { withTimezone: true }),
    /** The latest `subscription` object received, untouched (its shape is not shown by the interface). */
    gatewayRecord: jsonb("gateway_record").$type<Record<string, unknown>>(),
    /** That object's `status`, exactly as it came; null when it had none. */
    gatewayStatus: text("gateway_status"),
    /** The time of the notification that carried the latest object (its own time, else its arrival). */
    gatewayRecordAt: timestamp("gateway_record_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),

    // The summary (lib/subscriptions/summaries.ts): worked out from the facts above, the charges
    // and their ledger rows, and the account's rules. Anything that changes one of them queues the
    // subscription in `subscription_recalcs` (by triggers, migration 0023).
    /** When it started: `started_at`, else its first confirmed charge's due time. */
    since: timestamp("since", { withTimezone: true }),
    /** The São Paulo day and month of `since` (the cohort). */
    sinceDay: date("since_day", { mode: "string" }),
    cohortMonth: text("cohort_month"),
    /** The amount brought to a month (fractional centavos); null when the amount or periodicity is unknown. */
    monthlyCents: doublePrecision("monthly_cents"),
    /** Where each state holds, over all time (lib/subscriptions/timeline.ts); "desconhecido" is where none does. */
    activeSpans: tstzmultirange("active_spans").notNull().default("{}"),
    awaitingSpans: tstzmultirange("awaiting_spans").notNull().default("{}"),
    overdueSpans: tstzmultirange("overdue_spans").notNull().default("{}"),
    lostSpans: tstzmultirange("lost_spans").notNull().default("{}"),
    canceledSpans: tstzmultirange("canceled_spans").notNull().default("{}"),
    /** Lost or canceled: out of the subscriber base (MRR, churn). */
    churnedSpans: tstzmultirange("churned_spans").notNull().default("{}"),
    /** Bit k−1 set: neither canceled nor lost on the day it completed k months (k = 1…12). */
    retainedMask: integer("retained_mask"),
    /** The start of the overdue and lost spans last announced to destinations (subscription.overdue / .lost). */
    overdueAnnouncedFrom: timestamp("overdue_announced_from", { withTimezone: true }),
    lostAnnouncedFrom: timestamp("lost_announced_from", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("subscriptions_account_gateway_id_key")
      .on(t.accountId, t.gatewaySubscriptionId)
      .where(sql`${t.gatewaySubscriptionId} is not null`),
    uniqueIndex("subscriptions_account_identifier_key")
      .on(t.accountId, t.identifier)
      .where(sql`${t.identifier} is not null`),
    index("subscriptions_account_started_idx").on(t.accountId, t.startedAt.desc(), t.id.desc()),
    index("subscriptions_account_facets_idx").on(t.accountId, t.paymentMethod, t.productName),
  ],
);

/**
 * The charges of a subscription: each transaction a notification named with that subscription
 * (a renewal, or its first charge), or the first charge the creation answer named. The charge
 * itself is the ledger row with the same gateway transaction id, once the gateway confirmed it:
 * the link is kept here, so a notification arriving before the ledger row loses nothing.
 */
export const subscriptionCharges = pgTable(
  "subscription_charges",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
    gatewayTransactionId: text("gateway_transaction_id").notNull(),
    subscriptionId: text("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    /** The transaction's identifier as the notification gave it. */
    identifier: text("identifier"),
    /** The object's `chargeNumber` as received (1 = the first charge), when it was a whole number. */
    chargeNumber: integer("charge_number"),
    firstHeardAt: timestamp("first_heard_at", { withTimezone: true }).notNull().defaultNow(),
    // Copied from the ledger row by the subscription's summary, for the renewal figures (null until confirmed).
    dueAt: timestamp("due_at", { withTimezone: true }),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** A charge after the subscription's first that fell due. */
    renewal: boolean("renewal").notNull().default(false),
    /** The gateway reports it failed (and it was never paid). */
    failed: boolean("failed").notNull().default(false),
    /** The outcome last announced to destinations: "paid" (subscription.renewed) or "failed" (subscription.renewal_failed). */
    announced: text("announced"),
  },
  (t) => [
    index("subscription_charges_renewal_due_idx")
      .on(t.accountId, t.dueAt)
      .where(sql`${t.renewal}`),
    uniqueIndex("subscription_charges_account_transaction_key").on(t.accountId, t.gatewayTransactionId),
    index("subscription_charges_subscription_idx").on(t.subscriptionId),
  ],
);

/**
 * Subscriptions whose summary must be worked out again. Plain inserts (no unique key, so the
 * ledger's trigger never waits on another writer); whoever recalculates deletes the rows it
 * takes first, so a change committed meanwhile leaves its row for the next pass.
 */
export const subscriptionRecalcs = pgTable(
  "subscription_recalcs",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    accountId: text("account_id").notNull(),
    subscriptionId: text("subscription_id").notNull(),
  },
  (t) => [index("subscription_recalcs_account_idx").on(t.accountId, t.seq)],
);

/** Per-account rules of the derived states (lib/subscriptions/rules.ts); an account without a row uses the defaults. */
export const subscriptionSettings = pgTable("subscription_settings", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
  /** Days after a charge's due date during which it reads "aguardando pagamento". */
  graceDays: integer("grace_days").notNull().default(3),
  /** Missed periods after which a subscription reads "perdida". */
  lostAfterPeriods: integer("lost_after_periods").notNull().default(3),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
