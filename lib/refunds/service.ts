import "server-only";
import { and, eq } from "drizzle-orm";
import { ActionError } from "@/lib/actions/safe-action";
import { writeAudit } from "@/lib/audit/log";
import { toCents } from "@/lib/br";
import { getDb } from "@/lib/db/client";
import { ledgerTransactions, refundRequests } from "@/lib/db/schema";
import { isGatewayError, type GatewayError } from "@/lib/gateway";
import { gatewayForAccount } from "@/lib/gateway/connection";
import type { RefundRecord } from "@/lib/gateway/schemas/refunds";
import type { RefundRequestInput } from "./schemas";

type Actor = { id: string; email: string };

function refusalFor(error: GatewayError): ActionError {
  const message = error.gatewayMessage;
  if (error.kind === "conflict" && error.errorCode === "GATEWAY_INVALID_ARGUMENT") return new ActionError("refunds.errors.duplicate");
  switch (error.kind) {
    case "conflict":
      return new ActionError("refunds.errors.gatewayRefused", { message });
    case "not_found":
      return new ActionError("refunds.errors.notFound");
    case "auth":
      return new ActionError("refunds.errors.keysRejected");
    case "validation":
    case "invalid_request":
      return new ActionError("refunds.errors.gatewayRefused", { message });
    case "rate_limited":
      return new ActionError("refunds.errors.rateLimited", { message });
    default:
      if (error.outcomeUnknown) return new ActionError("refunds.errors.outcomeUnknown");
      return new ActionError("refunds.errors.gatewayUnavailable", { message });
  }
}

/** Resolves the ledger row of a transaction (by ledger id or gateway id) inside the account only. */
async function ledgerRowFor(accountId: string, gatewayTransactionId: string, ledgerId?: string) {
  const db = await getDb();
  const byLedgerId = ledgerId
    ? await db
        .select({ id: ledgerTransactions.id, gatewayTransactionId: ledgerTransactions.gatewayTransactionId })
        .from(ledgerTransactions)
        .where(and(eq(ledgerTransactions.accountId, accountId), eq(ledgerTransactions.id, ledgerId)))
        .limit(1)
    : [];
  if (byLedgerId[0]?.gatewayTransactionId === gatewayTransactionId) return byLedgerId[0];
  const [byGatewayId] = await db
    .select({ id: ledgerTransactions.id, gatewayTransactionId: ledgerTransactions.gatewayTransactionId })
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.accountId, accountId), eq(ledgerTransactions.gatewayTransactionId, gatewayTransactionId)))
    .limit(1);
  return byGatewayId ?? null;
}

export async function requestRefund(params: {
  accountId: string;
  actor: Actor;
  ip: string | null;
  input: Omit<RefundRequestInput, "code">;
}): Promise<{ refundId: string; status: string }> {
  const { accountId, actor, ip, input } = params;
  const ledger = await ledgerRowFor(accountId, input.transactionId, input.ledgerId);
  let record: RefundRecord;
  try {
    const gateway = await gatewayForAccount(accountId);
    record = await gateway.requestRefund({
      transactionId: input.transactionId,
      reason: input.reason,
      ...(input.description ? { description: input.description } : {}),
    });
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    await writeAudit({
      actor,
      accountId,
      action: "refund.rejected",
      target: input.transactionId,
      ip,
      details: { reason: input.reason, errorKind: error.kind, status: error.status, errorCode: error.errorCode },
    });
    throw refusalFor(error);
  }

  const db = await getDb();
  const [row] = await db
    .insert(refundRequests)
    .values({
      accountId,
      gatewayTransactionId: input.transactionId,
      ledgerTransactionId: ledger?.id ?? null,
      gatewayRefundId: record.id,
      status: record.status,
      amountCents: typeof record.amount === "number" ? toCents(record.amount) : null,
      reason: record.reason ?? input.reason,
      description: record.description ?? input.description ?? null,
      response: record,
      requestedBy: actor.id,
      requestedByEmail: actor.email,
    })
    .returning({ id: refundRequests.id });
  await writeAudit({
    actor,
    accountId,
    action: "refund.requested",
    target: input.transactionId,
    ip,
    details: { refundRequestId: record.id, status: record.status, amount: record.amount, reason: record.reason ?? input.reason },
  });
  return { refundId: row!.id, status: record.status };
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
  if (!refund) throw new ActionError("errors.notFound");
  try {
    const gateway = await gatewayForAccount(accountId);
    const transaction = await gateway.findTransaction({ id: refund.gatewayTransactionId });
    if (!transaction) throw new ActionError("refunds.errors.notFound");
    await db
      .update(refundRequests)
      .set({ transactionStatus: transaction.status, transactionStatusAt: new Date(), updatedAt: new Date() })
      .where(eq(refundRequests.id, refund.id));
    return { transactionStatus: transaction.status };
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    if (error.kind === "auth") throw new ActionError("refunds.errors.keysRejected");
    throw new ActionError("refunds.errors.gatewayUnavailable", { message: error.gatewayMessage });
  }
}
