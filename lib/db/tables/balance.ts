import { sql } from "drizzle-orm";
import { bigint, date, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { gatewayAccounts } from "./core";
import { ledgerTransactions } from "./ledger";
import { transfers } from "./payouts";

/** What moved the producer's money at the gateway, as the console knows it (lib/ledger/movements.ts). */
export const MOVEMENT_KINDS = [
  "sale",
  "fee",
  "split",
  "release",
  "refund",
  "chargeback",
  "transfer",
  "transfer_fee",
  "transfer_returned",
  "transfer_fee_returned",
] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

/**
 * Every money movement the console knows, derived from confirmed facts only (creation answers,
 * lookups, confirmed notifications; a transfer's answer and its notifications). Each moves the
 * available balance ("disponível") and the pending one ("a liberar") by a signed amount: a sale
 * adds to pending, its release moves its net from pending to available, a refund or a transfer
 * takes from available. A release may be dated in the future: it counts once its time has come.
 */
export const ledgerMovements = pgTable(
  "ledger_movements",
  {
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    accountId: text("account_id")
      .notNull()
      .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
    kind: text("kind").$type<MovementKind>().notNull(),
    ledgerId: text("ledger_id").references(() => ledgerTransactions.id, { onDelete: "cascade" }),
    transferId: text("transfer_id").references(() => transfers.id, { onDelete: "cascade" }),
    /** The gateway's id of what moved (transaction id or withdraw id), as shown in the statement. */
    reference: text("reference"),
    availableCents: bigint("available_cents", { mode: "number" }).notNull(),
    pendingCents: bigint("pending_cents", { mode: "number" }).notNull(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    /** On a sale: the facts the gateway has not told yet ("fee", "release"), so the figures can say what they lack. */
    untold: text("untold"),
  },
  (t) => [
    index("ledger_movements_account_time_idx").on(t.accountId, t.occurredAt, t.id),
    index("ledger_movements_account_kind_time_idx").on(t.accountId, t.kind, t.occurredAt),
    index("ledger_movements_untold_idx")
      .on(t.accountId, t.untold)
      .where(sql`${t.untold} is not null`),
    uniqueIndex("ledger_movements_ledger_kind_key")
      .on(t.ledgerId, t.kind)
      .where(sql`${t.ledgerId} is not null`),
    uniqueIndex("ledger_movements_transfer_kind_key")
      .on(t.transferId, t.kind)
      .where(sql`${t.transferId} is not null`),
  ],
);

/** Each account's movements summed per São Paulo day, kept by a trigger on ledger_movements (migration 0019). */
export const ledgerMovementDays = pgTable(
  "ledger_movement_days",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    availableCents: bigint("available_cents", { mode: "number" }).notNull(),
    pendingCents: bigint("pending_cents", { mode: "number" }).notNull(),
    movements: bigint("movements", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day] })],
);

/** A balance the producer read on the gateway's own panel ("Informar saldo do gateway"): the figures carry it forward. */
export const balanceEntries = pgTable(
  "balance_entries",
  {
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    accountId: text("account_id")
      .notNull()
      .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
    availableCents: bigint("available_cents", { mode: "number" }).notNull(),
    pendingCents: bigint("pending_cents", { mode: "number" }).notNull(),
    /** When the producer read it on the gateway's panel. */
    readAt: timestamp("read_at", { withTimezone: true }).notNull(),
    /** What the console had carried forward to `readAt` from the previous entry (null for the first). */
    carriedAvailableCents: bigint("carried_available_cents", { mode: "number" }),
    carriedPendingCents: bigint("carried_pending_cents", { mode: "number" }),
    byUserId: text("by_user_id"),
    byEmail: text("by_email"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("balance_entries_account_read_idx").on(t.accountId, t.readAt)],
);
