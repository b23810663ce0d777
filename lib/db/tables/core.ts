import { sql } from "drizzle-orm";
import { bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

import type { Role } from "../schema-enums";

export { ROLES, type Role } from "../schema-enums";

export const users = pgTable(
  "users",
  {
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role").$type<Role>().notNull(),
    locale: text("locale").notNull().default("pt-BR"),
    active: boolean("active").notNull().default(true),
    /** Bumped on password, role or second-factor change and on deactivation: every older session ends. */
    sessionVersion: integer("session_version").notNull().default(1),
    /** TOTP key (encrypted); set once the user has confirmed a code from it. */
    totpSecretEncrypted: text("totp_secret_encrypted"),
    totpEnabledAt: timestamp("totp_enabled_at", { withTimezone: true }),
    /** The last accepted time step: a code is accepted once. */
    totpLastStep: integer("totp_last_step"),
    /** A key being enrolled, until its first code is confirmed. */
    totpPendingSecretEncrypted: text("totp_pending_secret_encrypted"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email)],
);

export const gatewayAccounts = pgTable("gateway_accounts", {
  id: text("id")
    .primaryKey()
    .default(sql`gen_random_uuid()::text`),
  name: text("name").notNull(),
  baseUrl: text("base_url").notNull(),
  publicKey: text("public_key").notNull(),
  secretKeyEncrypted: text("secret_key_encrypted").notNull(),
  secretKeyLast4: text("secret_key_last4").notNull(),
  webhookTokenEncrypted: text("webhook_token_encrypted"),
  webhookTokenLast4: text("webhook_token_last4"),
  mode: text("mode").$type<"test" | "live">().notNull().default("test"),
  /** "env" accounts are kept in sync with GATEWAY_* variables at start. */
  source: text("source").$type<"env" | "ui">().notNull().default("ui"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const memberships = pgTable(
  "memberships",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accountId: text("account_id")
      .notNull()
      .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
    role: text("role").$type<Role>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.accountId] }), index("memberships_account_idx").on(t.accountId)],
);

export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    userId: text("user_id"),
    userEmail: text("user_email"),
    accountId: text("account_id"),
    action: text("action").notNull(),
    target: text("target"),
    details: jsonb("details").$type<Record<string, unknown>>(),
    ip: text("ip"),
  },
  (t) => [index("audit_log_at_idx").on(t.at), index("audit_log_account_idx").on(t.accountId, t.at)],
);
