import { and, eq } from "drizzle-orm";
import type { Producer, SandboxContext } from "../context";
import { refunds } from "../db/schema";
import { badRequest, conflict, invalidArgument, notFound } from "../lib/errors";
import { prefixedId } from "../lib/ids";
import { fromCents } from "../lib/money";
import { applyTransition, findOwnTransaction } from "./transactions";

type RefundRow = typeof refunds.$inferSelect;

export function refundRecord(row: RefundRow) {
  const record: Record<string, unknown> = {
    id: row.id,
    transactionId: row.transactionId,
    producerId: row.producerId,
    status: row.status,
    amount: fromCents(row.amountCents),
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
  };
  if (row.description !== null) record.description = row.description;
  if (row.decidedAt) record.decidedAt = row.decidedAt.toISOString();
  return record;
}

/** Refund requests are accepted only for paid (COMPLETED) transactions; one per transaction. */
export async function requestRefund(
  ctx: SandboxContext,
  producer: Producer,
  input: { transactionId: string; reason: string; description?: string },
) {
  const tx = await findOwnTransaction(ctx.db, producer.id, input.transactionId);
  if (!tx) throw notFound(`Transação ${input.transactionId} não encontrada`);
  if (tx.status !== "COMPLETED") {
    throw badRequest(`transactionId: só transações pagas (COMPLETED) podem ser reembolsadas; esta está ${tx.status}`);
  }
  const [row] = await ctx.db
    .insert(refunds)
    .values({
      id: prefixedId("ref"),
      producerId: producer.id,
      transactionId: tx.id,
      status: "PENDING",
      amountCents: tx.amountCents,
      reason: input.reason,
      description: input.description ?? null,
    })
    .onConflictDoNothing({ target: refunds.transactionId })
    .returning();
  if (!row) throw invalidArgument(`Já existe um pedido de reembolso para a transação ${tx.id}`);
  return refundRecord(row);
}

async function findOwnRefund(ctx: SandboxContext, producer: Producer, id: string) {
  const [row] = await ctx.db
    .select()
    .from(refunds)
    .where(and(eq(refunds.id, id), eq(refunds.producerId, producer.id)))
    .limit(1);
  if (!row) throw notFound(`Reembolso ${id} não encontrado`);
  return row;
}

/** Approve: the transaction becomes REFUNDED (TRANSACTION_REFUNDED webhook). */
export async function approveRefund(ctx: SandboxContext, producer: Producer, id: string) {
  const refund = await findOwnRefund(ctx, producer, id);
  if (refund.status !== "PENDING") throw conflict(`O reembolso ${id} está ${refund.status}; só reembolsos PENDING podem ser aprovados`);
  await applyTransition(ctx, producer, refund.transactionId, "refund");
  const [row] = await ctx.db.select().from(refunds).where(eq(refunds.id, id)).limit(1);
  return refundRecord(row);
}

export async function rejectRefund(ctx: SandboxContext, producer: Producer, id: string) {
  await findOwnRefund(ctx, producer, id);
  const [row] = await ctx.db
    .update(refunds)
    .set({ status: "REJECTED", decidedAt: new Date() })
    .where(and(eq(refunds.id, id), eq(refunds.status, "PENDING")))
    .returning();
  if (!row) throw conflict(`O reembolso ${id} não está mais PENDING; só reembolsos PENDING podem ser recusados`);
  return refundRecord(row);
}
