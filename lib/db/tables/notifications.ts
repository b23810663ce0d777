import { sql } from "drizzle-orm";
import { bigint, bigserial, customType, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { gatewayAccounts } from "./core";

/** Bytes; PGlite hands them back as a Uint8Array, node-postgres as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/** "payment": the interface's payment webhook; "transfer": a transfer notification; "unknown": any other shape, kept as is. */
export type NotificationKind = "payment" | "transfer" | "unknown";

/**
 * One row per distinct notification received for an account. A retried delivery of the same
 * notification (same dedupe key, see lib/notifications/dedupe.ts) only bumps `deliveries` and
 * `lastReceivedAt`. The payload is stored with its token redacted.
 */
export const gatewayNotifications = pgTable(
  "gateway_notifications",
  {
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    accountId: text("account_id")
      .notNull()
      .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
    dedupeKey: text("dedupe_key").notNull(),
    kind: text("kind").$type<NotificationKind>().notNull(),
    /** The `event` field as sent (unknown names kept), or null when the payload had none. */
    event: text("event"),
    gatewayTransactionId: text("gateway_transaction_id"),
    identifier: text("identifier"),
    status: text("status"),
    paymentMethod: text("payment_method"),
    amountCents: bigint("amount_cents", { mode: "number" }),
    /** The ledger row this notification created or updated. */
    ledgerId: text("ledger_id"),
    /** A transfer notification's transfer, found and authenticated by the receiver; the applier applies it. */
    transferId: text("transfer_id"),
    /** Whether the notification's status was applied to the ledger (false: older than what the ledger had). */
    ledgerOutcome: text("ledger_outcome").$type<LedgerOutcome>(),
    /** "pending": stored and acknowledged, not yet applied to the ledger by the applier. */
    applyState: text("apply_state").$type<"pending" | "applied">().notNull().default("applied"),
    /**
     * For notifications that would move money: "confirming" until the gateway's own lookup
     * answers; "confirmed" when it agrees; "contradicted" when it does not (the gateway wins);
     * "unconfirmable" when the interface has no lookup (transfers rely on their own token).
     */
    confirmation: text("confirmation").$type<WebhookConfirmation>(),
    /** Sanitised when the delivery held what jsonb refuses or nested too deep (lib/notifications/sanitize.ts). */
    payload: jsonb("payload").$type<unknown>().notNull(),
    /** What sanitising changed in `payload`; null when the payload is as sent (token aside). */
    sanitized: text("sanitized").$type<WebhookSanitized>(),
    /**
     * The body as received (UTF-8), tokens redacted, kept only when `payload` had to be sanitised.
     * bytea, not text: text refuses NUL as jsonb does, and this column must take whatever arrived.
     */
    rawBody: bytea("raw_body"),
    deliveries: integer("deliveries").notNull().default(1),
    firstReceivedAt: timestamp("first_received_at", { withTimezone: true }).notNull().defaultNow(),
    lastReceivedAt: timestamp("last_received_at", { withTimezone: true }).notNull().defaultNow(),
    sourceIp: text("source_ip"),
    /** Bumped on every delivery (first or repeated): the cursor of the activity feed's polling fallback. */
    feedSeq: bigserial("feed_seq", { mode: "number" }).notNull(),
  },
  (t) => [
    uniqueIndex("gateway_notifications_account_dedupe_key").on(t.accountId, t.dedupeKey),
    index("gateway_notifications_account_first_idx").on(t.accountId, t.firstReceivedAt.desc()),
    index("gateway_notifications_feed_seq_idx").on(t.feedSeq),
    // Only linked events: most are stored before the applier links them, and an entry for each would be written for nothing.
    index("gateway_notifications_ledger_idx")
      .on(t.ledgerId)
      .where(sql`${t.ledgerId} is not null`),
    // In the applier's order, so it reads the first pending rows and stops (a plain index scan also
    // learns to skip the entries of rows already applied; a bitmap scan read them all every time).
    index("gateway_notifications_apply_pending_idx")
      .on(t.firstReceivedAt, t.feedSeq)
      .where(sql`${t.applyState} = 'pending'`),
  ],
);

export type LedgerOutcome = "created" | "updated" | "stale" | "confirming" | "refused" | "none";
/** What sanitising changed in a stored payload (lib/notifications/sanitize.ts), in this order. */
export type WebhookSanitized = "characters" | "depth" | "characters,depth";
export type WebhookConfirmation = "confirming" | "confirmed" | "contradicted" | "unconfirmable";

/** Refused deliveries: when, from where and why; never the payload or the token sent. */
export const webhookRejections = pgTable(
  "webhook_rejections",
  {
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    accountId: text("account_id")
      .notNull()
      .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    sourceIp: text("source_ip"),
    reason: text("reason").$type<WebhookRejectionReason>().notNull(),
    /** HTTP status answered. */
    status: integer("status").notNull(),
  },
  (t) => [index("webhook_rejections_account_idx").on(t.accountId, t.receivedAt.desc())],
);

export type WebhookRejectionReason =
  "missing_token" | "bad_token" | "no_token_configured" | "unknown_transfer" | "invalid_json" | "too_large" | "bad_callback_key";
