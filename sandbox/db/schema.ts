import { sql } from "drizzle-orm";
import type { CheckoutRequest } from "../contract/requests";
import { bigint, bigserial, boolean, index, integer, json, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export type AddressJson = {
  zipCode?: string;
  country?: string;
  state?: string;
  city?: string;
  neighborhood?: string;
  street?: string;
  number?: string;
  complement?: string;
};

export const producers = pgTable("producers", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull(),
  phone: text("phone").notNull(),
  document: text("document"),
  address: jsonb("address").$type<AddressJson | null>(),
  legalRepresentative: jsonb("legal_representative").$type<{
    name: string;
    phone: string;
    document: string;
    address: AddressJson;
  } | null>(),
  publicKey: text("public_key").notNull().unique(),
  secretKey: text("secret_key").notNull(),
  webhookToken: text("webhook_token").notNull(),
  permissions: jsonb("permissions")
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  checkoutApiEnabled: boolean("checkout_api_enabled").notNull().default(false),
  webhookUrl: text("webhook_url"),
  clockOffsetMs: bigint("clock_offset_ms", { mode: "number" }).notNull().default(0),
  /** The producer's own release days (PUT /sandbox/v1/settings), over SANDBOX_RELEASE_DAYS and the defaults. */
  releaseDays: jsonb("release_days").$type<Partial<Record<string, number>> | null>(),
  createdAt: createdAt(),
});

/** Card data kept by the sandbox: never the number or the CVV. */
export type StoredCard = { brand: string; last4: string; bin?: string; owner: string };

export const transactions = pgTable(
  "transactions",
  {
    id: text("id").primaryKey(),
    // No foreign key here on purpose: its per-row check is a query of its own on the hot insert
    // path, and producer ids only ever come from the authenticated producer.
    producerId: text("producer_id").notNull(),
    kind: text("kind").notNull(),
    clientIdentifier: text("client_identifier").notNull(),
    orderId: text("order_id").notNull(),
    status: text("status").notNull(),
    statusDescription: text("status_description"),
    errorDescription: text("error_description"),
    paymentMethod: text("payment_method").notNull(),
    purchaseType: text("purchase_type").notNull().default("ONCE"),
    currency: text("currency").notNull().default("BRL"),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    feeCents: bigint("fee_cents", { mode: "number" }).notNull().default(0),
    splitsCents: bigint("splits_cents", { mode: "number" }).notNull().default(0),
    originalCurrency: text("original_currency").notNull().default("BRL"),
    originalAmount: text("original_amount"),
    installments: integer("installments").notNull().default(1),
    client: jsonb("client").$type<Record<string, unknown> | null>(),
    products: jsonb("products").$type<Array<Record<string, unknown>> | null>(),
    metadata: jsonb("metadata").$type<Record<string, unknown> | null>(),
    callbackUrl: text("callback_url"),
    pixCode: text("pix_code"),
    pixExpiresAt: ts("pix_expires_at"),
    endToEndId: text("end_to_end_id"),
    boleto: jsonb("boleto").$type<{ barcode: string; digitableLine: string; dueDate: string; bankCode: string } | null>(),
    crypto: jsonb("crypto").$type<{
      address: string;
      amount: number;
      currency: string;
      network: string;
      expiresAt: string;
      rate: number;
    } | null>(),
    card: jsonb("card").$type<StoredCard | null>(),
    subscriptionId: text("subscription_id"),
    checkoutId: text("checkout_id"),
    offerCode: text("offer_code"),
    checkoutUrl: text("checkout_url"),
    trackProps: jsonb("track_props").$type<Record<string, unknown> | null>(),
    response: json("response").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    payedAt: ts("payed_at"),
    refundedAt: ts("refunded_at"),
    /** When the net of a paid transaction counts as available (payedAt + the method's release days at payment). */
    availableAt: ts("available_at"),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    // (producer, identifier, kind): idempotency per kind, and the lookup by identifier alone.
    uniqueIndex("transactions_producer_identifier_kind_uq").on(t.producerId, t.clientIdentifier, t.kind),
    uniqueIndex("transactions_order_id_uq").on(t.orderId),
    index("transactions_subscription_idx")
      .on(t.subscriptionId)
      .where(sql`subscription_id is not null`),
  ],
);

export const refunds = pgTable(
  "refunds",
  {
    id: text("id").primaryKey(),
    producerId: text("producer_id")
      .notNull()
      .references(() => producers.id),
    transactionId: text("transaction_id")
      .notNull()
      .references(() => transactions.id),
    status: text("status").notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    reason: text("reason").notNull(),
    description: text("description"),
    createdAt: createdAt(),
    decidedAt: ts("decided_at"),
  },
  (t) => [uniqueIndex("refunds_transaction_uq").on(t.transactionId)],
);

export const payoutAccounts = pgTable(
  "payout_accounts",
  {
    id: text("id").primaryKey(),
    producerId: text("producer_id")
      .notNull()
      .references(() => producers.id),
    status: text("status").notNull(),
    pixKey: text("pix_key").notNull(),
    pixType: text("pix_type").notNull(),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    deletedAt: ts("deleted_at"),
  },
  (t) => [uniqueIndex("payout_accounts_key_uq").on(t.producerId, t.pixType, t.pixKey)],
);

export const withdraws = pgTable(
  "withdraws",
  {
    id: text("id").primaryKey(),
    producerId: text("producer_id")
      .notNull()
      .references(() => producers.id),
    identifier: text("identifier").notNull(),
    payoutAccountId: text("payout_account_id")
      .notNull()
      .references(() => payoutAccounts.id),
    status: text("status").notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    feeCents: bigint("fee_cents", { mode: "number" }).notNull(),
    discountFeeOfReceiver: boolean("discount_fee_of_receiver").notNull().default(true),
    currency: text("currency").notNull().default("BRL"),
    callbackUrl: text("callback_url").notNull(),
    webhookToken: text("webhook_token").notNull(),
    owner: jsonb("owner").$type<Record<string, unknown>>().notNull(),
    errorDescription: text("error_description"),
    response: json("response").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("withdraws_identifier_uq").on(t.producerId, t.identifier)],
);

export const checkouts = pgTable("checkouts", {
  id: text("id").primaryKey(),
  producerId: text("producer_id")
    .notNull()
    .references(() => producers.id),
  offerCode: text("offer_code").notNull(),
  request: jsonb("request").$type<CheckoutRequest>().notNull(),
  salesCount: integer("sales_count").notNull().default(0),
  createdAt: createdAt(),
});

export const subscriptions = pgTable(
  "subscriptions",
  {
    id: text("id").primaryKey(),
    producerId: text("producer_id")
      .notNull()
      .references(() => producers.id),
    kind: text("kind").notNull(),
    identifier: text("identifier").notNull(),
    status: text("status").notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    client: jsonb("client").$type<Record<string, unknown>>().notNull(),
    product: jsonb("product").$type<Record<string, unknown>>().notNull(),
    periodicityType: text("periodicity_type").notNull(),
    periodicity: integer("periodicity").notNull(),
    firstChargeIn: integer("first_charge_in").notNull().default(0),
    /** The card's simulated outcome and its expiry month (`YYYY-MM`, checked at each charge); never the number or CVV. */
    card: jsonb("card").$type<(StoredCard & { outcome: string; expiresAt?: string }) | null>(),
    cryptoCurrency: text("crypto_currency"),
    network: text("network"),
    clientIp: text("client_ip"),
    callbackUrl: text("callback_url"),
    chargesCount: integer("charges_count").notNull().default(0),
    nextChargeAt: ts("next_charge_at").notNull(),
    response: json("response").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("subscriptions_identifier_uq").on(t.producerId, t.kind, t.identifier),
    index("subscriptions_due_idx").on(t.producerId, t.status, t.nextChargeAt),
  ],
);

export const webhookOutbox = pgTable(
  "webhook_outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    producerId: text("producer_id")
      .notNull()
      .references(() => producers.id),
    kind: text("kind").notNull(),
    event: text("event").notNull(),
    transactionId: text("transaction_id"),
    withdrawId: text("withdraw_id"),
    url: text("url").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status").notNull().default("PENDING"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at").notNull().defaultNow(),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    deliveredAt: ts("delivered_at"),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("webhook_outbox_due_idx").on(t.status, t.nextAttemptAt),
    index("webhook_outbox_producer_idx").on(t.producerId, t.transactionId),
  ],
);

export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    outboxId: bigint("outbox_id", { mode: "number" })
      .notNull()
      .references(() => webhookOutbox.id),
    attempt: integer("attempt").notNull(),
    startedAt: ts("started_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
  },
  (t) => [index("webhook_attempts_outbox_idx").on(t.outboxId)],
);

/**
 * The producer's balance, as signed movements in centavos. `available` counts from `occurred_at`;
 * `pending` counts as pending until `release_at`, then as available. Each transaction or withdraw
 * has at most one movement of each kind, and each producer one opening.
 */
export const balanceMovements = pgTable(
  "balance_movements",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    producerId: text("producer_id")
      .notNull()
      .references(() => producers.id),
    kind: text("kind").notNull(),
    bucket: text("bucket").$type<"available" | "pending">().notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    occurredAt: ts("occurred_at").notNull(),
    releaseAt: ts("release_at"),
    transactionId: text("transaction_id"),
    withdrawId: text("withdraw_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("balance_movements_producer_idx").on(t.producerId, t.bucket, t.releaseAt),
    uniqueIndex("balance_movements_transaction_kind_uq")
      .on(t.transactionId, t.kind)
      .where(sql`transaction_id is not null`),
    uniqueIndex("balance_movements_withdraw_kind_uq")
      .on(t.withdrawId, t.kind)
      .where(sql`withdraw_id is not null`),
    uniqueIndex("balance_movements_opening_uq")
      .on(t.producerId)
      .where(sql`kind = 'opening'`),
  ],
);
