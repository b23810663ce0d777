import "server-only";
import { and, eq } from "drizzle-orm";
import { writeAudit } from "@/lib/audit/log";
import { getDb } from "@/lib/db/client";
import { refundRequests } from "@/lib/db/schema";
import { isGatewayError, type GatewayError } from "@/lib/gateway";
import { gatewayForAccount } from "@/lib/gateway/connection";
import { GATEWAY_INVALID_ARGUMENT } from "@/lib/gateway/schemas/common";
import { submit, type SubmissionActor } from "@/lib/submissions/engine";
import { RefundRefusedError } from "./errors";
import type { RefundRequestInput } from "./schemas";
import { refundSubmissions } from "./submission";

function refusalFor(error: GatewayError): RefundRefusedError {
  const message = error.gatewayMessage;
  if (error.kind === "conflict" && error.errorCode === GATEWAY_INVALID_ARGUMENT) return new RefundRefusedError("duplicate");
  switch (error.kind) {
    case "conflict":
      return new RefundRefusedError("gatewayRefused", message);
    case "not_found":
      return new RefundRefusedError("notFound");
    case "auth":
      return new RefundRefusedError("keysRejected");
    case "validation":
    case "invalid_request":
      return new RefundRefusedError("gatewayRefused", message);
    case "rate_limited":
      return new RefundRefusedError("rateLimited", message);
    default:
      return new RefundRefusedError("gatewayUnavailable", message);
  }
}

/**
 * Requests a refund through the submission engine (lib/submissions/engine.ts): recorded before it
 * leaves, one live request per transaction. A lost answer is recorded as UNKNOWN (the user is told
 * the outcome is unknown) and settled by the reconciler's lookup of the transaction.
 */
export async function requestRefund(params: {
  accountId: string;
  actor: SubmissionActor;
  ip: string | null;
  input: Omit<RefundRequestInput, "code">;
}): Promise<{ refundId: string; status: string }> {
  const { accountId, actor, ip, input } = params;
  const result = await submit(refundSubmissions, { accountId, actor, ip, input }, { actor, ip });
  const { row } = result;
  if (result.replayed) {
    // The interface keeps one refund request per transaction: this one was already asked for
    // (or its answer is still unknown). Nothing is sent.
    const reason = row.submission === "SUBMITTED" ? "duplicate" : "unresolved";
    await writeAudit({
      actor,
      accountId,
      action: "refund.rejected",
      target: input.transactionId,
      ip,
      details: { reason: input.reason, errorKind: reason, refundRequest: row.id, submission: row.submission },
    });
    throw new RefundRefusedError(reason);
  }
  if (result.outcome === "created") return { refundId: row.id, status: row.status ?? "" };
  if (result.outcome === "unknown") throw new RefundRefusedError("outcomeUnknown");
  if (isGatewayError(result.error)) throw refusalFor(result.error);
  throw new RefundRefusedError("gatewayUnavailable");
}

/**
 * One on-demand lookup of the refunded transaction (never in a loop: the interface says the
 * lookup is not for polling). There is no refund lookup, so the request's own status stays as
 * last reported; the transaction's status is shown beside it.
 */
export async function refreshRefundTransaction(accountId: string, refundId: string): Promise<{ transactionStatus: string | null }> {
  const db = await getDb();
  const [refund] = await db
    .select()
    .from(refundRequests)
    .where(and(eq(refundRequests.accountId, accountId), eq(refundRequests.id, refundId)))
    .limit(1);
  if (!refund) throw new RefundRefusedError("requestNotFound");
  let transactionStatus: string;
  try {
    const gateway = await gatewayForAccount(accountId);
    const transaction = await gateway.findTransaction({ id: refund.gatewayTransactionId });
    if (!transaction) throw new RefundRefusedError("notFound");
    transactionStatus = transaction.status;
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    if (error.kind === "auth") throw new RefundRefusedError("keysRejected");
    throw new RefundRefusedError("gatewayUnavailable", error.gatewayMessage);
  }
  await db
    .update(refundRequests)
    .set({ transactionStatus, transactionStatusAt: new Date(), updatedAt: new Date() })
    .where(eq(refundRequests.id, refund.id));
  return { transactionStatus };
}
