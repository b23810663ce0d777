import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { gatewayAccounts } from "./core";
import { transfers } from "./payouts";

/**
 * A batch's life: prepared (DRAFT, rows fixed or removed in place) → AWAITING_APPROVAL → approved
 * by a second person (RUNNING) or REJECTED; while running it may be PAUSED and resumed, or CANCELED
 * (the rows not yet sent are not sent); FINISHED when no row is left to send.
 */
export const PAYOUT_BATCH_STATES = ["DRAFT", "AWAITING_APPROVAL", "REJECTED", "RUNNING", "PAUSED", "CANCELED", "FINISHED"] as const;
export type PayoutBatchState = (typeof PAYOUT_BATCH_STATES)[number];

/**
 * A row's sending: QUEUED (approved, not yet taken) → SENDING (a worker holds it until `leaseUntil`)
 * → SENT (the submission engine recorded its transfer: the transfer tells the rest) or REFUSED
 * (the console or the gateway refused it; nothing was created); CANCELED when the batch was
 * cancelled before it was taken. Null before approval.
 */
export const PAYOUT_ROW_EXECUTIONS = ["QUEUED", "SENDING", "SENT", "REFUSED", "CANCELED"] as const;
export type PayoutRowExecution = (typeof PAYOUT_ROW_EXECUTIONS)[number];

export type PayoutRowProblem = { code: string; field: string | null; severity: "error" | "warning" };
export type PayoutRowCells = {
  pixKey: string;
  pixKeyType: string;
  amount: string;
  name: string;
  document: string;
  description: string;
  reference: string;
};

export const payoutBatches = pgTable(
  "payout_batches",
  {
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    accountId: text("account_id")
      .notNull()
      .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    source: text("source").$type<"csv" | "xlsx" | "paste">().notNull(),
    fileName: text("file_name"),
    state: text("state").$type<PayoutBatchState>().notNull().default("DRAFT"),
    /** Rows and total (valid, not removed) as submitted for approval; what the approver saw. */
    rowCount: integer("row_count").notNull().default(0),
    totalCents: bigint("total_cents", { mode: "number" }).notNull().default(0),
    discountFeeOfReceiver: boolean("discount_fee_of_receiver").notNull().default(true),
    createdBy: text("created_by").notNull(),
    createdByEmail: text("created_by_email").notNull(),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    submittedBy: text("submitted_by"),
    submittedByEmail: text("submitted_by_email"),
    approvedAt: timestamp("approved_at", { withTimezone: true }),
    approvedBy: text("approved_by"),
    approvedByEmail: text("approved_by_email"),
    /** The approver's address, sent as each transfer's owner.ip (the person who ordered the money out). */
    approverIp: text("approver_ip"),
    selfApproved: boolean("self_approved").notNull().default(false),
    rejectedAt: timestamp("rejected_at", { withTimezone: true }),
    rejectedByEmail: text("rejected_by_email"),
    rejectionReason: text("rejection_reason"),
    pausedAt: timestamp("paused_at", { withTimezone: true }),
    pausedByEmail: text("paused_by_email"),
    canceledAt: timestamp("canceled_at", { withTimezone: true }),
    canceledByEmail: text("canceled_by_email"),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** The gateway said 429: no row of this batch is sent before this moment. */
    notBefore: timestamp("not_before", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("payout_batches_account_created_idx").on(t.accountId, t.createdAt.desc()),
    index("payout_batches_running_idx")
      .on(t.state)
      .where(sql`${t.state} = 'RUNNING'`),
  ],
);

export const payoutBatchRows = pgTable(
  "payout_batch_rows",
  {
    id: text("id")
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    batchId: text("batch_id")
      .notNull()
      .references(() => payoutBatches.id, { onDelete: "cascade" }),
    accountId: text("account_id")
      .notNull()
      .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
    /** The line the user sees in their spreadsheet (the header is line 1). */
    line: integer("line").notNull(),
    cells: jsonb("cells").$type<PayoutRowCells>().notNull(),
    /** Cells that were dates in the spreadsheet: refused until the user types them again. */
    dateCells: jsonb("date_cells").$type<Array<keyof PayoutRowCells>>(),
    problems: jsonb("problems").$type<PayoutRowProblem[]>().notNull().default([]),
    /** Normalised values, null while the row has an error. */
    pixKeyType: text("pix_key_type"),
    pixKey: text("pix_key"),
    amountCents: bigint("amount_cents", { mode: "number" }),
    ownerName: text("owner_name"),
    ownerDocumentType: text("owner_document_type"),
    ownerDocumentNumber: text("owner_document_number"),
    description: text("description"),
    reference: text("reference"),
    removed: boolean("removed").notNull().default(false),
    execution: text("execution").$type<PayoutRowExecution>(),
    /** The transfer's identifier at the gateway: derived from the batch and the line, so a row is one transfer forever. */
    identifier: text("identifier").notNull(),
    transferId: text("transfer_id").references(() => transfers.id, { onDelete: "set null" }),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    notBefore: timestamp("not_before", { withTimezone: true }),
    attempts: integer("attempts").notNull().default(0),
    error: jsonb("error").$type<{ kind: string; status?: number; errorCode?: string; message?: string }>(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("payout_batch_rows_batch_line_key").on(t.batchId, t.line),
    uniqueIndex("payout_batch_rows_identifier_key").on(t.accountId, t.identifier),
    index("payout_batch_rows_queue_idx")
      .on(t.batchId, t.line)
      .where(sql`${t.execution} in ('QUEUED', 'SENDING')`),
    index("payout_batch_rows_transfer_idx")
      .on(t.transferId)
      .where(sql`${t.transferId} is not null`),
  ],
);

/** Per account: whether one person may both prepare and approve a batch (an administrator's choice, audited). */
export const payoutSettings = pgTable("payout_settings", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => gatewayAccounts.id, { onDelete: "cascade" }),
  allowSelfApproval: boolean("allow_self_approval").notNull().default(false),
  updatedByEmail: text("updated_by_email"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
