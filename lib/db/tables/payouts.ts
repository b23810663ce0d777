import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { gatewayAccounts } from "./core";
import type { SubmissionState } from "./ledger";

/**
 * Pix transfers (withdrawals) sent from this console. Recorded as SUBMITTING before the request
 * leaves, so an identifier is never sent twice; UNKNOWN (no answer) blocks re-sending until a
 * transfer notification tells what happened (the interface has no transfer lookup).
 */
export const transfers = pgTable(
  "transfers",
  {
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    accountId: text("account_id")
      .notNull()
      .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
    identifier: text("identifier").notNull(),
    submission: text("submission").$type<SubmissionState>().notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    discountFeeOfReceiver: boolean("discount_fee_of_receiver").notNull(),
    pixKeyType: text("pix_key_type").notNull(),
    pixKey: text("pix_key").notNull(),
    ownerName: text("owner_name").notNull(),
    ownerDocumentType: text("owner_document_type").notNull(),
    ownerDocumentNumber: text("owner_document_number").notNull(),
    ownerIp: text("owner_ip").notNull(),
    callbackUrl: text("callback_url").notNull(),
    /** sha256 of the unguessable path segment in callbackUrl, recorded before the call: notifications of a transfer whose answer was lost still authenticate. */
    callbackKeyHash: text("callback_key_hash"),
    withdrawId: text("withdraw_id"),
    /** The gateway's withdraw status string, exactly as reported (creation or notification). */
    withdrawStatus: text("withdraw_status"),
    withdrawStatusSource: text("withdraw_status_source").$type<"creation" | "notification">(),
    withdrawStatusAt: timestamp("withdraw_status_at", { withTimezone: true }),
    feeCents: bigint("fee_cents", { mode: "number" }),
    withdraw: jsonb("withdraw").$type<Record<string, unknown>>(),
    payoutAccount: jsonb("payout_account").$type<Record<string, unknown>>(),
    receiptUrl: text("receipt_url"),
    /** Encrypted with lib/crypto/secrets; validates this transfer's notifications. */
    webhookTokenEncrypted: text("webhook_token_encrypted"),
    error: jsonb("error").$type<{ kind: string; status?: number; errorCode?: string; message?: string }>(),
    lastNotificationEvent: text("last_notification_event"),
    lastNotificationAt: timestamp("last_notification_at", { withTimezone: true }),
    createdBy: text("created_by"),
    createdByEmail: text("created_by_email"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("transfers_account_identifier_key").on(t.accountId, t.identifier),
    uniqueIndex("transfers_account_withdraw_key")
      .on(t.accountId, t.withdrawId)
      .where(sql`${t.withdrawId} is not null`),
    index("transfers_account_created_idx").on(t.accountId, t.createdAt.desc()),
    uniqueIndex("transfers_callback_key_idx")
      .on(t.callbackKeyHash)
      .where(sql`${t.callbackKeyHash} is not null`),
  ],
);

/** Notifications accepted for a transfer; a repeated delivery bumps `deliveries` instead of adding a row. */
export const transferNotifications = pgTable(
  "transfer_notifications",
  {
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    transferId: text("transfer_id")
      .notNull()
      .references(() => transfers.id, { onDelete: "cascade" }),
    event: text("event"),
    withdrawStatus: text("withdraw_status"),
    /** sha256 of the payload without its token: recognises re-deliveries. */
    fingerprint: text("fingerprint").notNull(),
    /** The payload as received, minus the token. */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    deliveries: integer("deliveries").notNull().default(1),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    lastReceivedAt: timestamp("last_received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("transfer_notifications_fingerprint_key").on(t.transferId, t.fingerprint),
    index("transfer_notifications_transfer_idx").on(t.transferId, t.receivedAt),
  ],
);

export const transferSettings = pgTable("transfer_settings", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
  /** Null = no console-side daily limit. */
  dailyLimitCents: bigint("daily_limit_cents", { mode: "number" }),
  updatedBy: text("updated_by"),
  updatedByEmail: text("updated_by_email"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Refund requests, recorded as SUBMITTING before the request leaves (lib/refunds/submission.ts).
 * The interface allows one refund request per transaction, so the transaction's id is the
 * submission's identifier; rows from before submissions were recorded have none.
 */
export const refundRequests = pgTable(
  "refund_requests",
  {
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    accountId: text("account_id")
      .notNull()
      .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
    identifier: text("identifier"),
    submission: text("submission").$type<SubmissionState>().notNull().default("SUBMITTED"),
    error: jsonb("error").$type<{ kind: string; status?: number; errorCode?: string; message?: string }>(),
    gatewayTransactionId: text("gateway_transaction_id").notNull(),
    /** Ledger row the request was made from, when there is one. */
    ledgerTransactionId: text("ledger_transaction_id"),
    gatewayRefundId: text("gateway_refund_id"),
    /** The refund request status as last reported by the gateway (none while its answer is unknown). */
    status: text("status"),
    amountCents: bigint("amount_cents", { mode: "number" }),
    reason: text("reason").notNull(),
    description: text("description"),
    response: jsonb("response").$type<Record<string, unknown>>(),
    /** The transaction's status from the last on-demand lookup (for transactions not in the ledger). */
    transactionStatus: text("transaction_status"),
    transactionStatusAt: timestamp("transaction_status_at", { withTimezone: true }),
    requestedBy: text("requested_by"),
    requestedByEmail: text("requested_by_email"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("refund_requests_account_created_idx").on(t.accountId, t.createdAt.desc()),
    index("refund_requests_account_tx_idx").on(t.accountId, t.gatewayTransactionId),
    uniqueIndex("refund_requests_account_identifier_key").on(t.accountId, t.identifier),
  ],
);

/**
 * Hosted checkout links, recorded as SUBMITTING before the request leaves (lib/checkout-links/submission.ts).
 * The interface gives a checkout no identifier and no lookup: each submission has an identifier of
 * its own, and a link whose answer was lost waits for a person (no URL is known for it).
 */
export const checkoutLinks = pgTable(
  "checkout_links",
  {
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    accountId: text("account_id")
      .notNull()
      .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
    identifier: text("identifier"),
    submission: text("submission").$type<SubmissionState>().notNull().default("SUBMITTED"),
    error: jsonb("error").$type<{ kind: string; status?: number; errorCode?: string; message?: string }>(),
    /** Null until the gateway answered. */
    checkoutUrl: text("checkout_url"),
    productExternalId: text("product_external_id").notNull(),
    productName: text("product_name").notNull(),
    offerName: text("offer_name").notNull(),
    price: text("price").notNull(),
    currency: text("currency").notNull(),
    lang: text("lang").notNull(),
    /** The request as sent. */
    request: jsonb("request").$type<Record<string, unknown>>().notNull(),
    createdBy: text("created_by"),
    createdByEmail: text("created_by_email"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("checkout_links_account_created_idx").on(t.accountId, t.createdAt.desc()),
    uniqueIndex("checkout_links_account_identifier_key").on(t.accountId, t.identifier),
  ],
);
