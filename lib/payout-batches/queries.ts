import "server-only";
import { and, desc, eq, gte, inArray, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { payoutBatchRows, payoutBatches, payoutSettings, transfers } from "@/lib/db/schema";
import type { SubmissionState } from "@/lib/db/tables/ledger";
import type { PayoutRowExecution } from "@/lib/db/tables/payout-batches";
import { payoutRowOutcome, progressOf, type PayoutProgress, type PayoutRowOutcome } from "./outcome";

export type PayoutBatch = typeof payoutBatches.$inferSelect;
export type PayoutBatchWithProgress = PayoutBatch & { progress: PayoutProgress };

export type PayoutRowView = {
  id: string;
  line: number;
  cells: (typeof payoutBatchRows.$inferSelect)["cells"];
  problems: (typeof payoutBatchRows.$inferSelect)["problems"];
  pixKeyType: string | null;
  pixKey: string | null;
  amountCents: number | null;
  ownerName: string | null;
  ownerDocumentType: string | null;
  ownerDocumentNumber: string | null;
  description: string | null;
  reference: string | null;
  removed: boolean;
  identifier: string;
  execution: PayoutRowExecution | null;
  error: (typeof payoutBatchRows.$inferSelect)["error"];
  outcome: PayoutRowOutcome;
  transferId: string | null;
  withdrawId: string | null;
  withdrawStatus: string | null;
  feeCents: number | null;
  transferError: (typeof transfers.$inferSelect)["error"];
};

type OutcomeGroup = {
  batch_id: string;
  execution: PayoutRowExecution | null;
  submission: SubmissionState | null;
  withdraw_status: string | null;
  n: number;
};

async function progressByBatch(batchIds: string[]): Promise<Map<string, PayoutProgress>> {
  const result = new Map<string, PayoutProgress>();
  if (batchIds.length === 0) return result;
  const db = await getDb();
  const { rows: groups } = await db.execute<OutcomeGroup>(sql`
    select r.batch_id, r.execution, t.submission, t.withdraw_status, count(*)::int as n
      from payout_batch_rows r left join transfers t on t.id = r.transfer_id
     where r.batch_id in ${batchIds} and not r.removed
     group by 1, 2, 3, 4`);
  const counts = new Map<string, Array<[PayoutRowOutcome, number]>>();
  for (const group of groups) {
    const outcome = payoutRowOutcome(
      group.execution,
      group.execution === "SENT" ? { submission: group.submission, withdrawStatus: group.withdraw_status } : null,
    );
    counts.set(group.batch_id, [...(counts.get(group.batch_id) ?? []), [outcome, Number(group.n)]]);
  }
  for (const id of batchIds) result.set(id, progressOf(counts.get(id) ?? []));
  return result;
}

export async function listPayoutBatches(accountId: string, limit = 100): Promise<PayoutBatchWithProgress[]> {
  const db = await getDb();
  const batches = await db
    .select()
    .from(payoutBatches)
    .where(eq(payoutBatches.accountId, accountId))
    .orderBy(desc(payoutBatches.createdAt))
    .limit(limit);
  const progress = await progressByBatch(batches.map((b) => b.id));
  return batches.map((batch) => ({ ...batch, progress: progress.get(batch.id)! }));
}

/** The batch alone (its state, totals and decisions), without counting its rows. */
export async function findPayoutBatch(accountId: string, batchId: string): Promise<PayoutBatch | null> {
  const db = await getDb();
  const [batch] = await db
    .select()
    .from(payoutBatches)
    .where(and(eq(payoutBatches.accountId, accountId), eq(payoutBatches.id, batchId)))
    .limit(1);
  return batch ?? null;
}

export async function getPayoutBatch(accountId: string, batchId: string): Promise<PayoutBatchWithProgress | null> {
  const batch = await findPayoutBatch(accountId, batchId);
  if (!batch) return null;
  const progress = await progressByBatch([batch.id]);
  return { ...batch, progress: progress.get(batch.id)! };
}

/** Every row of a batch with its transfer's facts, in the file's order. */
export async function listPayoutRows(batchId: string): Promise<PayoutRowView[]> {
  const db = await getDb();
  const rows = await db
    .select({
      row: payoutBatchRows,
      submission: transfers.submission,
      withdrawId: transfers.withdrawId,
      withdrawStatus: transfers.withdrawStatus,
      feeCents: transfers.feeCents,
      transferError: transfers.error,
    })
    .from(payoutBatchRows)
    .leftJoin(transfers, eq(transfers.id, payoutBatchRows.transferId))
    .where(eq(payoutBatchRows.batchId, batchId))
    .orderBy(payoutBatchRows.line);
  return rows.map(({ row, submission, withdrawId, withdrawStatus, feeCents, transferError }) => ({
    id: row.id,
    line: row.line,
    cells: row.cells,
    problems: row.problems,
    pixKeyType: row.pixKeyType,
    pixKey: row.pixKey,
    amountCents: row.amountCents,
    ownerName: row.ownerName,
    ownerDocumentType: row.ownerDocumentType,
    ownerDocumentNumber: row.ownerDocumentNumber,
    description: row.description,
    reference: row.reference,
    removed: row.removed,
    identifier: row.identifier,
    execution: row.execution,
    error: row.error,
    outcome: payoutRowOutcome(
      row.execution,
      row.transferId ? { submission: submission ?? null, withdrawStatus: withdrawStatus ?? null } : null,
    ),
    transferId: row.transferId,
    withdrawId: withdrawId ?? null,
    withdrawStatus: withdrawStatus ?? null,
    feeCents: feeCents ?? null,
    transferError: transferError ?? null,
  }));
}

/** Transfers of the last 24 h that may have left (same key and amount as a row: a warning, not an error). */
export async function recentTransfers(accountId: string, now = new Date()): Promise<Array<{ pixKey: string; amountCents: number }>> {
  const db = await getDb();
  return db
    .select({ pixKey: transfers.pixKey, amountCents: transfers.amountCents })
    .from(transfers)
    .where(
      and(
        eq(transfers.accountId, accountId),
        gte(transfers.createdAt, new Date(now.getTime() - 24 * 3600_000)),
        inArray(transfers.submission, ["SUBMITTING", "SUBMITTED", "UNKNOWN"]),
      ),
    );
}

export type PayoutSettingsDto = { allowSelfApproval: boolean; updatedByEmail: string | null; updatedAt: Date | null };

export async function getPayoutSettings(accountId: string): Promise<PayoutSettingsDto> {
  const db = await getDb();
  const [row] = await db.select().from(payoutSettings).where(eq(payoutSettings.accountId, accountId)).limit(1);
  return {
    allowSelfApproval: row?.allowSelfApproval ?? false,
    updatedByEmail: row?.updatedByEmail ?? null,
    updatedAt: row?.updatedAt ?? null,
  };
}
