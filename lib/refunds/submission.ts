import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { fromCents, toCents } from "@/lib/br";
import { getDb } from "@/lib/db/client";
import { refundRequests } from "@/lib/db/schema";
import { findLedgerByGatewayId, getLedgerRow } from "@/lib/ledger/queries";
import { gatewayForAccount } from "@/lib/gateway/connection";
import { isGatewayError, type TransactionRecord } from "@/lib/gateway";
import type { RefundRecord } from "@/lib/gateway/schemas/refunds";
import { parseGatewayTime } from "@/lib/gateway/time";
import { stateOf, transactionMachine } from "@/lib/status/machine";
import { failureSet, inFlightForMs, submissionErrorInfo, type SubmissionActor, type SubmissionDefinition } from "@/lib/submissions/engine";
import type { RefundRequestInput } from "./schemas";

export type RefundRow = typeof refundRequests.$inferSelect;

export type RefundSubmission = {
  accountId: string;
  actor: SubmissionActor;
  ip: string | null;
  input: Omit<RefundRequestInput, "code">;
};

/** Resolves the ledger row of a transaction (by ledger id or gateway id) inside the account only. */
async function ledgerRowFor(accountId: string, gatewayTransactionId: string, ledgerId?: string) {
  const byLedgerId = ledgerId ? await getLedgerRow(accountId, ledgerId) : null;
  if (byLedgerId?.gatewayTransactionId === gatewayTransactionId) return byLedgerId;
  return findLedgerByGatewayId(accountId, gatewayTransactionId);
}

async function update(id: string, set: Partial<typeof refundRequests.$inferInsert>): Promise<RefundRow> {
  const db = await getDb();
  const [row] = await db
    .update(refundRequests)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(refundRequests.id, id))
    .returning();
  return row;
}

/**
 * The gateway's record proves the refund request was made once the transaction is refunded: its
 * `refundedAt`, or a status the transaction status machine reads as refunded. Anything else
 * proves nothing (a request may be pending), so the row stays UNKNOWN.
 */
function showsRefund(record: TransactionRecord): boolean {
  return Boolean(parseGatewayTime(record.refundedAt)) || stateOf(transactionMachine, record.status) === "refunded";
}

/**
 * Refund requests. The interface allows one per transaction, so the transaction id is the
 * identifier: a live request (being sent, sent, or with an unknown answer) blocks another, and a
 * refused one may be sent again with corrected values. The interface has no refund lookup: an
 * UNKNOWN request is settled by looking its transaction up, never by asking for the refund again.
 */
export const refundSubmissions: SubmissionDefinition<RefundSubmission, RefundRow, RefundRecord> = {
  target: "refund",
  async claim({ accountId, actor, input }) {
    const ledger = await ledgerRowFor(accountId, input.transactionId, input.ledgerId);
    const db = await getDb();
    const values = {
      gatewayTransactionId: input.transactionId,
      ledgerTransactionId: ledger?.id ?? null,
      submission: "SUBMITTING" as const,
      status: null,
      gatewayRefundId: null,
      amountCents: null,
      reason: input.reason,
      description: input.description ?? null,
      response: null,
      error: null,
      requestedBy: actor.id,
      requestedByEmail: actor.email,
    };
    const [inserted] = await db
      .insert(refundRequests)
      .values({ accountId, identifier: input.transactionId, ...values })
      .onConflictDoNothing({ target: [refundRequests.accountId, refundRequests.identifier] })
      .returning();
    if (inserted) return { claimed: true, row: inserted };
    const [reclaimed] = await db
      .update(refundRequests)
      .set({ ...values, createdAt: new Date(), updatedAt: new Date() })
      .where(
        and(
          eq(refundRequests.accountId, accountId),
          eq(refundRequests.identifier, input.transactionId),
          eq(refundRequests.submission, "REJECTED"),
        ),
      )
      .returning();
    if (reclaimed) return { claimed: true, row: reclaimed };
    const [existing] = await db
      .select()
      .from(refundRequests)
      .where(and(eq(refundRequests.accountId, accountId), eq(refundRequests.identifier, input.transactionId)));
    if (!existing) throw new Error("refund request vanished during claim");
    return { claimed: false, row: existing };
  },
  send: (gateway, { input }) =>
    gateway.requestRefund({
      transactionId: input.transactionId,
      reason: input.reason,
      ...(input.description ? { description: input.description } : {}),
    }),
  created: (row, record, { input }) =>
    update(row.id, {
      submission: "SUBMITTED",
      gatewayRefundId: record.id,
      status: record.status,
      amountCents: typeof record.amount === "number" ? toCents(record.amount) : null,
      reason: record.reason ?? input.reason,
      description: record.description ?? input.description ?? null,
      response: record,
      error: null,
    }),
  failed: (row, outcome, error) => update(row.id, failureSet(outcome, error)),
  audit({ input: { input }, row, outcome, error }) {
    if (outcome === "created") {
      return {
        action: "refund.requested",
        target: input.transactionId,
        details: {
          refundRequestId: row.gatewayRefundId,
          status: row.status,
          amount: row.amountCents === null ? null : fromCents(row.amountCents),
          reason: row.reason,
        },
      };
    }
    const info = submissionErrorInfo(error);
    return {
      action: outcome === "rejected" ? "refund.rejected" : "refund.outcome_unknown",
      target: input.transactionId,
      details: { reason: input.reason, errorKind: row.error?.kind ?? info.kind, status: info.status, errorCode: info.errorCode },
    };
  },
  async lookup(check) {
    const db = await getDb();
    const [row] = await db.select().from(refundRequests).where(eq(refundRequests.id, check.targetId));
    if (!row || (row.submission !== "UNKNOWN" && row.submission !== "SUBMITTING"))
      return { state: "done", outcome: "settled", row: row ?? null, changed: false };
    const inFlightFor = inFlightForMs(check.createdAt);
    if (row.submission === "SUBMITTING" && inFlightFor > 0) return { state: "in_flight", retryAfterMs: inFlightFor };
    let record: TransactionRecord | null;
    try {
      record = await (await gatewayForAccount(row.accountId)).findTransaction({ id: row.gatewayTransactionId });
    } catch (error) {
      return {
        state: "waiting",
        outcome: "lookup_failed",
        row,
        error: submissionErrorInfo(error),
        retryAfterMs: isGatewayError(error) ? error.retryAfterMs : undefined,
      };
    }
    const now = new Date();
    const seen = record ? { transactionStatus: record.status, transactionStatusAt: now } : {};
    if (record && showsRefund(record)) {
      const [settled] = await db
        .update(refundRequests)
        .set({ submission: "SUBMITTED", error: null, ...seen, updatedAt: now })
        .where(and(eq(refundRequests.id, row.id), inArray(refundRequests.submission, ["UNKNOWN", "SUBMITTING"])))
        .returning();
      return { state: "done", outcome: "found", row: settled ?? row, changed: true };
    }
    if (record) await update(row.id, seen);
    return { state: "waiting", outcome: "not_found_yet", row };
  },
  reconciledAction: "refund.reconciled",
  reconciledDetails: (check, row, outcome) => ({
    outcome,
    attempts: check.attempts,
    submission: row.submission,
    transactionId: row.gatewayTransactionId,
  }),
  needsPersonAction: "refund.needs_person",
  needsPersonDetails: (check, result) => ({
    target: check.targetId,
    details: { transactionId: result.row?.gatewayTransactionId, lastOutcome: result.outcome, attempts: check.attempts },
  }),
};
