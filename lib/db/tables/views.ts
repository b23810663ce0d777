import { index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { gatewayAccounts, users } from "./core";

/** A user's named filter set for the transactions list, per account. */
export const savedViews = pgTable(
  "saved_views",
  {
    id: text("id")
      .primaryKey()
      .$defaultFn(() => crypto.randomUUID()),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accountId: text("account_id")
      .notNull()
      .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The list's URL search parameters, validated again whenever they are applied. */
    filters: jsonb("filters").$type<Record<string, string>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("saved_views_user_account_name_key").on(t.userId, t.accountId, t.name),
    index("saved_views_user_account_idx").on(t.userId, t.accountId),
  ],
);
