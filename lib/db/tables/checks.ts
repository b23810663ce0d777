import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { gatewayAccounts } from "./core";

/**
 * The submission kinds' rows ("ledger": transactions, "transfer", "refund": refund requests,
 * "checkout_link"), and "notification": a payment notification about a transaction the ledger
 * does not have, per (account, gateway id).
 */
export type CheckTarget = "ledger" | "transfer" | "refund" | "checkout_link" | "notification";
/**
 * "confirm": a notification would move money, the gateway's lookup decides; "unknown": a submission
 * without a usable answer; "release": a paid sale's release date, learned or confirmed by a lookup.
 */
export type CheckReason = "confirm" | "unknown" | "release";
export type CheckState = "pending" | "done" | "needs_person";

/**
 * The reconciler's durable queue: one open check per record, claimed with `for update skip
 * locked` and a lease, so several console processes never ask the gateway twice for one row.
 */
export const gatewayChecks = pgTable(
  "gateway_checks",
  {
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    accountId: text("account_id")
      .notNull()
      .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
    target: text("target").$type<CheckTarget>().notNull(),
    targetId: text("target_id").notNull(),
    reason: text("reason").$type<CheckReason>().notNull(),
    state: text("state").$type<CheckState>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAt: timestamp("next_at", { withTimezone: true }).notNull(),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    /** What the last attempt learned: found, not_found, gateway error kind. */
    lastOutcome: text("last_outcome"),
    lastError: jsonb("last_error").$type<{ kind: string; status?: number; message?: string }>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp("settled_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("gateway_checks_open_key")
      .on(t.target, t.targetId)
      .where(sql`${t.state} = 'pending'`),
    index("gateway_checks_due_idx")
      .on(t.nextAt)
      .where(sql`${t.state} = 'pending'`),
    index("gateway_checks_target_idx").on(t.target, t.targetId, t.createdAt.desc()),
  ],
);
