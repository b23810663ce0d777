import "server-only";
import { and, desc, eq, ne } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { ledgerTransactions, refundRequests } from "@/lib/db/schema";
import { refundRequestOutcome } from "./outcome";

export type RefundRequestDto = {
  id: string;
  gatewayTransactionId: string;
  gatewayRefundId: string | null;
  /**
   * The refund request's status as pages show it: the gateway's answer, or REFUNDED once the
   * gateway confirmed its transaction refunded (lib/refunds/outcome.ts); null while the answer is unknown.
   */
  status: string | null;
  /** The status the gateway answered the request with. */
  reportedStatus: string | null;
  /** `status` comes from the transaction's confirmed refund, not from the request's own answer. */
  statusFromTransaction: boolean;
  /** Whom the money goes back to, and how much the transaction was: from the ledger, when it knows the transaction. */
  customerName: string | null;
  customerEmail: string | null;
  transactionAmountCents: number | null;
  /** SUBMITTING, SUBMITTED or UNKNOWN (refused requests created nothing and are not listed). */
  submission: string;
  amountCents: number | null;
  reason: string;
  description: string | null;
  requestedByEmail: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** The ledger row of the transaction, when the console knows it. */
  ledgerTransactionId: string | null;
  /** The transaction's current status: the ledger's when known, else the last on-demand lookup. */
  transactionStatus: string | null;
  transactionStatusSource: "ledger" | "lookup" | null;
  transactionStatusAt: Date | null;
};

async function select(accountId: string, filter?: { gatewayTransactionId?: string; id?: string }, limit = 200) {
  const db = await getDb();
  const conditions = [eq(refundRequests.accountId, accountId), ne(refundRequests.submission, "REJECTED")];
  if (filter?.gatewayTransactionId) conditions.push(eq(refundRequests.gatewayTransactionId, filter.gatewayTransactionId));
  if (filter?.id) conditions.push(eq(refundRequests.id, filter.id));
  const rows = await db
    .select({
      refund: refundRequests,
      ledger: {
        id: ledgerTransactions.id,
        status: ledgerTransactions.status,
        statusAt: ledgerTransactions.statusAt,
        clientName: ledgerTransactions.clientName,
        clientEmail: ledgerTransactions.clientEmail,
        amountCents: ledgerTransactions.amountCents,
      },
    })
    .from(refundRequests)
    .leftJoin(
      ledgerTransactions,
      and(
        eq(ledgerTransactions.accountId, refundRequests.accountId),
        eq(ledgerTransactions.gatewayTransactionId, refundRequests.gatewayTransactionId),
      ),
    )
    .where(and(...conditions))
    .orderBy(desc(refundRequests.createdAt))
    .limit(limit);
  return rows.map(({ refund, ledger }): RefundRequestDto => {
    // The newer of the ledger's status and our own lookup wins.
    const ledgerNewer =
      ledger?.status && (!refund.transactionStatusAt || (ledger.statusAt && ledger.statusAt >= refund.transactionStatusAt));
    const transactionStatus = ledgerNewer ? ledger!.status : refund.transactionStatus;
    // Both are confirmed statuses: the ledger's (a notification waits in pendingStatus until a lookup
    // bears it out) and our own lookup's.
    const outcome = refundRequestOutcome(refund.status, transactionStatus);
    return {
      id: refund.id,
      gatewayTransactionId: refund.gatewayTransactionId,
      gatewayRefundId: refund.gatewayRefundId,
      status: outcome.status,
      reportedStatus: refund.status,
      statusFromTransaction: outcome.fromTransaction,
      customerName: ledger?.clientName ?? null,
      customerEmail: ledger?.clientEmail ?? null,
      transactionAmountCents: ledger?.amountCents ?? null,
      submission: refund.submission,
      amountCents: refund.amountCents,
      reason: refund.reason,
      description: refund.description,
      requestedByEmail: refund.requestedByEmail,
      createdAt: refund.createdAt,
      updatedAt: refund.updatedAt,
      ledgerTransactionId: ledger?.id ?? refund.ledgerTransactionId,
      transactionStatus,
      transactionStatusSource: ledgerNewer ? "ledger" : refund.transactionStatus ? "lookup" : null,
      transactionStatusAt: ledgerNewer ? (ledger!.statusAt ?? null) : refund.transactionStatusAt,
    };
  });
}

export function listRefunds(accountId: string): Promise<RefundRequestDto[]> {
  return select(accountId);
}

/** The refund requests of one transaction (by the gateway's transaction id), newest first. */
export function listRefundsForTransaction(accountId: string, gatewayTransactionId: string): Promise<RefundRequestDto[]> {
  return select(accountId, { gatewayTransactionId });
}
