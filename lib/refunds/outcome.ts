import { refundMachine, stateOf, transactionMachine } from "@/lib/status/machine";

/** The gateway's spelling a refund request reads once its transaction is confirmed refunded. */
export const REFUNDED_REQUEST_STATUS = "REFUNDED";

/**
 * A refund request's status as every page shows it. The interface has no refund lookup: the
 * request keeps the status it was answered with (PENDING) while the refund itself shows on its
 * transaction. Once the gateway confirms the transaction refunded (its lookup, or a notification
 * that lookup bore out: the ledger's status, never a parked one), the one request the interface
 * allows per transaction has been carried out, so it reads refunded too.
 * `transactionStatus` must be a confirmed status.
 */
export function refundRequestOutcome(
  requestStatus: string | null,
  transactionStatus: string | null,
): { status: string | null; fromTransaction: boolean } {
  if (stateOf(transactionMachine, transactionStatus) === "refunded" && stateOf(refundMachine, requestStatus) !== "approved")
    return { status: REFUNDED_REQUEST_STATUS, fromTransaction: true };
  return { status: requestStatus, fromTransaction: false };
}

/** Whether a request still waits for its outcome (sent or being sent, not yet refunded, refused or cancelled). */
export function refundRequestOpen(request: { submission: string; status: string | null }): boolean {
  if (request.submission === "REJECTED" || request.submission === "ABSENT") return false;
  const state = stateOf(refundMachine, request.status);
  return state === null || state === "awaiting" || state === "unknown";
}
