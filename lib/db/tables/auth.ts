import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { Role } from "../schema-enums";
import { users } from "./core";

/** One row per signed-in browser: signing out revokes it, whatever the cookie still says. */
export const userSessions = pgTable(
  "user_sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    ip: text("ip"),
  },
  (t) => [index("user_sessions_user_idx").on(t.userId)],
);

/**
 * Attempt counters for every password or code check, keyed by what is guarded
 * ("signin-email:…", "signin-ip:…", "user:…"); updated by one upsert so a burst cannot race it.
 */
export const authAttempts = pgTable("auth_attempts", {
  key: text("key").primaryKey(),
  attempts: integer("attempts").notNull(),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull(),
  blockedUntil: timestamp("blocked_until", { withTimezone: true }),
  /** Whether the latest attempt was let through (read back by the same statement). */
  lastAllowed: boolean("last_allowed").notNull(),
});

/** Single-use recovery codes for the second factor, stored as hashes. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("recovery_codes_user_idx").on(t.userId)],
);

/** Deployment-wide security rules set by administrators (one row, id "default"). */
export const securitySettings = pgTable("security_settings", {
  id: text("id").primaryKey().default("default"),
  /** Roles that must use a second factor before moving money. */
  totpRequiredRoles: jsonb("totp_required_roles").$type<Role[]>().notNull().default([]),
  updatedBy: text("updated_by"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
