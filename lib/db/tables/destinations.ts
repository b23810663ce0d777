import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { gatewayAccounts } from "./core";

/** "enabled": receives events; "paused": events queue until resumed; "disabled": the console stopped it (410, or days of failures). */
export type DestinationState = "enabled" | "paused" | "disabled";
export type DestinationDisabledReason = "gone" | "failing";
/** "http": the console POSTs to the URL; "listen": a developer's `npm run listen` session pulls and forwards them. */
export type DestinationKind = "http" | "listen";

/** A producer's own system that hears the console's events, signed as Standard Webhooks describes. */
export const eventDestinations = pgTable(
  "event_destinations",
  {
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    accountId: text("account_id")
      .notNull()
      .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
    kind: text("kind").$type<DestinationKind>().notNull().default("http"),
    url: text("url").notNull(),
    description: text("description"),
    /** The event types it wants; null = every type. */
    eventTypes: jsonb("event_types").$type<string[] | null>(),
    state: text("state").$type<DestinationState>().notNull().default("enabled"),
    disabledReason: text("disabled_reason").$type<DestinationDisabledReason>(),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    /** `whsec_…`, encrypted with lib/crypto/secrets; shown in full once, at creation or rotation. */
    secretEncrypted: text("secret_encrypted").notNull(),
    secretLast4: text("secret_last4").notNull(),
    /** The secret being rotated out: deliveries carry both signatures until it expires. */
    previousSecretEncrypted: text("previous_secret_encrypted"),
    previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true }),
    /** Start of the current run of failed attempts (null after a success): days of failures disable it. */
    failingSince: timestamp("failing_since", { withTimezone: true }),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    lastSuccessAt: timestamp("last_success_at", { withTimezone: true }),
    /** Listen sessions: the last time the developer's command asked for deliveries. */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }),
    listenTokenId: text("listen_token_id"),
    createdBy: text("created_by"),
    createdByEmail: text("created_by_email"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("event_destinations_account_idx").on(t.accountId, t.createdAt),
    uniqueIndex("event_destinations_listen_key")
      .on(t.listenTokenId)
      .where(sql`${t.listenTokenId} is not null`),
  ],
);

/** "subscription": recorded by lib/subscriptions through lib/destinations/record.ts (not a trigger): a renewal's outcome, a calculated state. */
export type OutboxSource = "ledger" | "transfer" | "refund_request" | "checkout_link" | "subscription" | "test";
/** "pending": recorded with its fact, not yet read; "published": an event with deliveries; "skipped": the fact is no event of the vocabulary. */
export type OutboxState = "pending" | "published" | "skipped";

/**
 * The transactional outbox: database triggers write one row per recorded fact (a status a ledger
 * row, transfer or refund request takes; a checkout link created) in the same transaction as the
 * fact itself, so a rolled-back fact leaves nothing and a committed one is never missed
 * (lib/subscriptions records its own, source "subscription", by lib/destinations/record.ts). The
 * background worker turns each row into an event of the console's vocabulary (or skips it) and
 * fans it out to the account's destinations. `id` is the event's `webhook-id`.
 */
export const eventOutbox = pgTable(
  "event_outbox",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    id: text("id").notNull(),
    accountId: text("account_id")
      .notNull()
      .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
    source: text("source").$type<OutboxSource>().notNull(),
    objectId: text("object_id").notNull(),
    previousStatus: text("previous_status"),
    status: text("status"),
    /** The record as the fact left it (secrets removed by the trigger). */
    snapshot: jsonb("snapshot").$type<Record<string, unknown>>().notNull(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    state: text("state").$type<OutboxState>().notNull().default("pending"),
    type: text("type"),
    /** The body sent: `{ type, timestamp, data }`. */
    payload: jsonb("payload").$type<Record<string, unknown>>(),
    publishedAt: timestamp("published_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("event_outbox_id_key").on(t.id),
    index("event_outbox_pending_idx")
      .on(t.seq)
      .where(sql`${t.state} = 'pending'`),
    index("event_outbox_account_idx")
      .on(t.accountId, t.occurredAt)
      .where(sql`${t.state} = 'published'`),
  ],
);

export type DeliveryState = "pending" | "delivered" | "failed" | "canceled";

/** One event for one destination: retried on the schedule with the same `webhook-id`. */
export const destinationDeliveries = pgTable(
  "destination_deliveries",
  {
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    destinationId: text("destination_id")
      .notNull()
      .references(() => eventDestinations.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    state: text("state").$type<DeliveryState>().notNull().default("pending"),
    /** Attempts made so far (a resend keeps counting); the schedule counts from `roundStart`. */
    attempts: integer("attempts").notNull().default(0),
    roundStart: integer("round_start").notNull().default(0),
    /** When it is due; while an attempt is in flight, the end of that attempt's lease. */
    nextAt: timestamp("next_at", { withTimezone: true }).notNull().defaultNow(),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("destination_deliveries_key").on(t.destinationId, t.eventId),
    index("destination_deliveries_due_idx")
      .on(t.nextAt)
      .where(sql`${t.state} = 'pending'`),
    index("destination_deliveries_destination_idx").on(t.destinationId, t.createdAt),
  ],
);

/** Every attempt, as the destination's page lists it. */
export const destinationAttempts = pgTable(
  "destination_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** No foreign key: a check per logged attempt cost more than the attempt's own insert; deleting a destination deletes its attempts (lib/destinations/queries.ts). */
    deliveryId: text("delivery_id").notNull(),
    destinationId: text("destination_id").notNull(),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    /** The delivery's attempt number: one process sends it, once. */
    attempt: integer("attempt").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    durationMs: integer("duration_ms"),
    /** The HTTP status answered; null when there was no answer (see `error`). */
    httpStatus: integer("http_status"),
    /** timeout, connection, redirect, blocked_address, … */
    error: text("error"),
    /** The first 1 KB of the answer, secrets redacted. */
    responseExcerpt: text("response_excerpt"),
    nextRetryAt: timestamp("next_retry_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("destination_attempts_key").on(t.deliveryId, t.attempt),
    index("destination_attempts_destination_idx").on(t.destinationId, t.startedAt.desc()),
  ],
);

/** A key for `npm run listen`: lets a developer's machine pull an account's events without a public URL. */
export const listenTokens = pgTable(
  "listen_tokens",
  {
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    accountId: text("account_id")
      .notNull()
      .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
    /** sha256 of the token; the token itself is shown once. */
    tokenHash: text("token_hash").notNull(),
    tokenLast4: text("token_last4").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdBy: text("created_by"),
    createdByEmail: text("created_by_email"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("listen_tokens_hash_key").on(t.tokenHash), index("listen_tokens_account_idx").on(t.accountId, t.createdAt)],
);
