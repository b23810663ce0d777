import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import { writeAudit } from "@/lib/audit/log";
import { fromCents } from "@/lib/br";
import { hasSecondFactor } from "@/lib/auth/second-factor";
import { getDb } from "@/lib/db/client";
import { payoutBatchRows, payoutBatches, payoutSettings, type Role } from "@/lib/db/schema";
import type { PayoutRowCells } from "@/lib/db/tables/payout-batches";
import type { PayoutField, PayoutRowInput } from "./columns";
import type { SubmissionActor } from "@/lib/submissions/engine";
import { ownerIpOf } from "@/lib/transfers/owner-ip";
import { getTransferSettings, transferredTodayCents } from "@/lib/transfers/queries";
import { confirmMoneyOut } from "@/lib/transfers/service";
import { findPayoutBatch, getPayoutSettings, recentTransfers, type PayoutBatch } from "./queries";
import { batchTotals, dailyLimitProblem, recentDuplicateWarnings, validatePayoutRows, type ValidatedRow } from "./validate";
import { signalPayoutsDue } from "./work";

export type PayoutBatchRefusal =
  | "notFound"
  | "wrongState"
  | "rowsWithErrors"
  | "noRows"
  | "dailyLimit"
  | "selfApprovalNotAllowed"
  | "secondFactorRequired"
  | "ipUnknown"
  | "reasonRequired";

export class PayoutBatchRefusedError extends Error {
  constructor(
    readonly reason: PayoutBatchRefusal,
    readonly detail: { limitCents?: number; usedTodayCents?: number; availableCents?: number; rows?: number } = {},
  ) {
    super(`payout batch refused: ${reason}`);
  }
}

type Context = { accountId: string; actor: SubmissionActor; ip: string | null };

/** The gateway identifier of a row: the batch and the line, so one row is one transfer forever. */
export function rowIdentifier(batchId: string, line: number): string {
  return `lote-${batchId.replace(/-/g, "")}-${line}`;
}

function rowValues(row: ValidatedRow, dateCells: readonly PayoutField[] | undefined) {
  const value = row.value;
  return {
    cells: row.cells,
    dateCells: dateCells && dateCells.length > 0 ? [...dateCells] : null,
    problems: row.problems,
    pixKeyType: value?.pixKeyType ?? null,
    pixKey: value?.pixKey ?? null,
    amountCents: value?.amountCents ?? null,
    ownerName: value?.ownerName ?? null,
    ownerDocumentType: value?.ownerDocumentType ?? null,
    ownerDocumentNumber: value?.ownerDocumentNumber ?? null,
    description: value?.description ?? null,
    reference: value?.reference ?? null,
  };
}

async function validatedWithHistory(accountId: string, rows: readonly PayoutRowInput[]): Promise<ValidatedRow[]> {
  return recentDuplicateWarnings(validatePayoutRows(rows), await recentTransfers(accountId));
}

async function draftOf(accountId: string, batchId: string): Promise<PayoutBatch> {
  const batch = await findPayoutBatch(accountId, batchId);
  if (!batch) throw new PayoutBatchRefusedError("notFound");
  if (batch.state !== "DRAFT") throw new PayoutBatchRefusedError("wrongState");
  return batch;
}

const INSERT_CHUNK = 500;

async function insertRows(batchId: string, accountId: string, inputs: readonly PayoutRowInput[], rows: ValidatedRow[]): Promise<void> {
  const db = await getDb();
  const dateCellsByLine = new Map(inputs.map((input) => [input.line, input.dateCells]));
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    const chunk = rows.slice(start, start + INSERT_CHUNK);
    await db.insert(payoutBatchRows).values(
      chunk.map((row) => ({
        batchId,
        accountId,
        line: row.line,
        identifier: rowIdentifier(batchId, row.line),
        ...rowValues(row, dateCellsByLine.get(row.line)),
      })),
    );
  }
}

/** A batch as prepared from a file or pasted rows: every row validated, nothing sent. */
export async function createPayoutBatch(
  context: Context & {
    name: string;
    source: "csv" | "xlsx" | "paste";
    fileName: string | null;
    rows: readonly PayoutRowInput[];
  },
): Promise<{ batchId: string }> {
  const { accountId, actor, ip } = context;
  const validated = await validatedWithHistory(accountId, context.rows);
  const db = await getDb();
  const [batch] = await db
    .insert(payoutBatches)
    .values({
      accountId,
      name: context.name,
      source: context.source,
      fileName: context.fileName,
      createdBy: actor.id,
      createdByEmail: actor.email,
    })
    .returning({ id: payoutBatches.id });
  await insertRows(batch.id, accountId, context.rows, validated);
  const totals = batchTotals(validated);
  await writeAudit({
    actor,
    accountId,
    action: "payout_batch.created",
    target: batch.id,
    ip,
    details: { name: context.name, source: context.source, fileName: context.fileName, rows: totals.rows, withErrors: totals.withErrors },
  });
  return { batchId: batch.id };
}

/** The file uploaded again: a draft's rows are replaced by the new ones. */
export async function replacePayoutRows(
  context: Context & {
    batchId: string;
    source: "csv" | "xlsx" | "paste";
    fileName: string | null;
    rows: Array<{ line: number; cells: PayoutRowCells }>;
  },
): Promise<void> {
  const { accountId, actor, ip, batchId } = context;
  await draftOf(accountId, batchId);
  const validated = await validatedWithHistory(accountId, context.rows);
  const db = await getDb();
  await db.delete(payoutBatchRows).where(eq(payoutBatchRows.batchId, batchId));
  await insertRows(batchId, accountId, context.rows, validated);
  await db
    .update(payoutBatches)
    .set({ source: context.source, fileName: context.fileName, updatedAt: new Date() })
    .where(eq(payoutBatches.id, batchId));
  await writeAudit({
    actor,
    accountId,
    action: "payout_batch.rows_replaced",
    target: batchId,
    ip,
    details: { fileName: context.fileName, rows: validated.length },
  });
}

/** Validates the draft's rows again (a fixed or removed row changes its neighbours' duplicates) and writes what changed. */
async function revalidate(accountId: string, batchId: string): Promise<void> {
  const db = await getDb();
  const rows = await db
    .select({
      id: payoutBatchRows.id,
      line: payoutBatchRows.line,
      cells: payoutBatchRows.cells,
      dateCells: payoutBatchRows.dateCells,
      problems: payoutBatchRows.problems,
      amountCents: payoutBatchRows.amountCents,
      pixKey: payoutBatchRows.pixKey,
    })
    .from(payoutBatchRows)
    .where(and(eq(payoutBatchRows.batchId, batchId), eq(payoutBatchRows.removed, false)))
    .orderBy(payoutBatchRows.line);
  const validated = await validatedWithHistory(
    accountId,
    rows.map(({ line, cells, dateCells }) => ({ line, cells, dateCells: dateCells ?? undefined })),
  );
  const byLine = new Map(validated.map((row) => [row.line, row]));
  for (const row of rows) {
    const next = byLine.get(row.line);
    if (!next) continue;
    const values = rowValues(next, row.dateCells ?? undefined);
    const changed =
      JSON.stringify(values.problems) !== JSON.stringify(row.problems) ||
      values.amountCents !== row.amountCents ||
      values.pixKey !== row.pixKey;
    if (changed)
      await db
        .update(payoutBatchRows)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(payoutBatchRows.id, row.id));
  }
}

/** A row fixed in place (a draft only). */
export async function updatePayoutRow(context: Context & { batchId: string; rowId: string; cells: PayoutRowCells }): Promise<void> {
  const { accountId, actor, ip, batchId, rowId, cells } = context;
  await draftOf(accountId, batchId);
  const db = await getDb();
  const [current] = await db
    .select({ cells: payoutBatchRows.cells, dateCells: payoutBatchRows.dateCells })
    .from(payoutBatchRows)
    .where(and(eq(payoutBatchRows.batchId, batchId), eq(payoutBatchRows.id, rowId)))
    .limit(1);
  if (!current) throw new PayoutBatchRefusedError("notFound");
  // A date cell the user typed again is text now; the ones left alone stay refused.
  const dateCells = (current.dateCells ?? []).filter((field) => cells[field] === current.cells[field]);
  const [row] = await db
    .update(payoutBatchRows)
    .set({ cells, dateCells: dateCells.length > 0 ? dateCells : null, updatedAt: new Date() })
    .where(and(eq(payoutBatchRows.batchId, batchId), eq(payoutBatchRows.id, rowId)))
    .returning({ line: payoutBatchRows.line });
  if (!row) throw new PayoutBatchRefusedError("notFound");
  await revalidate(accountId, batchId);
  await writeAudit({ actor, accountId, action: "payout_batch.row_fixed", target: batchId, ip, details: { line: row.line } });
}

/** Rows removed from (or put back into) a draft. */
export async function setPayoutRowsRemoved(context: Context & { batchId: string; rowIds: string[]; removed: boolean }): Promise<void> {
  const { accountId, actor, ip, batchId, rowIds, removed } = context;
  if (rowIds.length === 0) return;
  await draftOf(accountId, batchId);
  const db = await getDb();
  const changed = await db
    .update(payoutBatchRows)
    .set({ removed, updatedAt: new Date() })
    .where(and(eq(payoutBatchRows.batchId, batchId), inArray(payoutBatchRows.id, rowIds)))
    .returning({ line: payoutBatchRows.line });
  await revalidate(accountId, batchId);
  await writeAudit({
    actor,
    accountId,
    action: removed ? "payout_batch.rows_removed" : "payout_batch.rows_restored",
    target: batchId,
    ip,
    details: { lines: changed.map((row) => row.line) },
  });
}

/** Rows and total the batch would send: valid rows not removed. Rows with errors must be fixed or removed first. */
async function sendableTotals(batchId: string): Promise<{ rows: number; totalCents: number; withErrors: number }> {
  const db = await getDb();
  const {
    rows: [totals],
  } = await db.execute<{ rows: number; total: string | null; with_errors: number }>(sql`
    select count(*) filter (where amount_cents is not null and not exists (select 1 from jsonb_array_elements(problems) p where p->>'severity' = 'error'))::int as rows,
           sum(amount_cents) filter (where amount_cents is not null and not exists (select 1 from jsonb_array_elements(problems) p where p->>'severity' = 'error')) as total,
           count(*) filter (where exists (select 1 from jsonb_array_elements(problems) p where p->>'severity' = 'error'))::int as with_errors
      from payout_batch_rows where batch_id = ${batchId} and not removed`);
  return { rows: Number(totals?.rows ?? 0), totalCents: Number(totals?.total ?? 0), withErrors: Number(totals?.with_errors ?? 0) };
}

async function assertWithinDailyLimit(accountId: string, totalCents: number): Promise<void> {
  const settings = await getTransferSettings(accountId);
  const db = await getDb();
  const problem = dailyLimitProblem({
    totalCents,
    dailyLimitCents: settings.dailyLimitCents,
    usedTodayCents: settings.dailyLimitCents === null ? 0 : await transferredTodayCents(accountId, db),
  });
  if (problem) throw new PayoutBatchRefusedError("dailyLimit", problem);
}

/** The maker hands the draft to a checker: no row with an error, within the account's daily limit. */
export async function submitPayoutBatch(context: Context & { batchId: string }): Promise<void> {
  const { accountId, actor, ip, batchId } = context;
  await draftOf(accountId, batchId);
  const totals = await sendableTotals(batchId);
  if (totals.withErrors > 0) throw new PayoutBatchRefusedError("rowsWithErrors", { rows: totals.withErrors });
  if (totals.rows === 0) throw new PayoutBatchRefusedError("noRows");
  await assertWithinDailyLimit(accountId, totals.totalCents);
  const db = await getDb();
  const now = new Date();
  const updated = await db
    .update(payoutBatches)
    .set({
      state: "AWAITING_APPROVAL",
      rowCount: totals.rows,
      totalCents: totals.totalCents,
      submittedAt: now,
      submittedBy: actor.id,
      submittedByEmail: actor.email,
      updatedAt: now,
    })
    .where(and(eq(payoutBatches.id, batchId), eq(payoutBatches.state, "DRAFT")))
    .returning({ id: payoutBatches.id });
  if (updated.length === 0) throw new PayoutBatchRefusedError("wrongState");
  await writeAudit({
    actor,
    accountId,
    action: "payout_batch.submitted",
    target: batchId,
    ip,
    details: { rows: totals.rows, total: fromCents(totals.totalCents) },
  });
}

/** Back to the maker (an awaiting batch they want to change). */
export async function withdrawPayoutBatch(context: Context & { batchId: string }): Promise<void> {
  const { accountId, actor, ip, batchId } = context;
  const db = await getDb();
  const updated = await db
    .update(payoutBatches)
    .set({ state: "DRAFT", submittedAt: null, submittedBy: null, submittedByEmail: null, updatedAt: new Date() })
    .where(and(eq(payoutBatches.accountId, accountId), eq(payoutBatches.id, batchId), eq(payoutBatches.state, "AWAITING_APPROVAL")))
    .returning({ id: payoutBatches.id });
  if (updated.length === 0) throw new PayoutBatchRefusedError("wrongState");
  await writeAudit({ actor, accountId, action: "payout_batch.withdrawn", target: batchId, ip });
}

/**
 * The checker's decision: another person than the maker (unless an administrator allowed
 * self-approval for this account), with their password and their second factor. Every row is
 * then queued for the background sender, under the approver's name and address.
 */
export async function approvePayoutBatch(
  context: Context & { batchId: string; actor: SubmissionActor & { role: Role }; proof: { password: string; code?: string } },
): Promise<void> {
  const { accountId, actor, ip, batchId, proof } = context;
  const batch = await findPayoutBatch(accountId, batchId);
  if (!batch) throw new PayoutBatchRefusedError("notFound");
  if (batch.state !== "AWAITING_APPROVAL") throw new PayoutBatchRefusedError("wrongState");
  const selfApproval = batch.submittedBy === actor.id || batch.createdBy === actor.id;
  if (selfApproval && !(await getPayoutSettings(accountId)).allowSelfApproval) {
    await writeAudit({ actor, accountId, action: "payout_batch.self_approval_refused", target: batchId, ip });
    throw new PayoutBatchRefusedError("selfApprovalNotAllowed");
  }
  if (!(await hasSecondFactor(actor.id))) throw new PayoutBatchRefusedError("secondFactorRequired");
  const ownerIp = ownerIpOf(ip);
  if (!ownerIp) throw new PayoutBatchRefusedError("ipUnknown");
  await confirmMoneyOut(actor, proof, { accountId, ip, identifier: batchId, prefix: "payout_batch" });
  await assertWithinDailyLimit(accountId, batch.totalCents);

  const db = await getDb();
  const now = new Date();
  const approved = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(payoutBatches)
      .set({
        state: "RUNNING",
        approvedAt: now,
        approvedBy: actor.id,
        approvedByEmail: actor.email,
        approverIp: ownerIp,
        selfApproved: selfApproval,
        updatedAt: now,
      })
      .where(and(eq(payoutBatches.id, batchId), eq(payoutBatches.state, "AWAITING_APPROVAL")))
      .returning({ id: payoutBatches.id });
    if (!updated) return false;
    await tx.execute(sql`
      update payout_batch_rows set execution = 'QUEUED', updated_at = now()
       where batch_id = ${batchId} and not removed and amount_cents is not null
         and not exists (select 1 from jsonb_array_elements(problems) p where p->>'severity' = 'error')`);
    return true;
  });
  if (!approved) throw new PayoutBatchRefusedError("wrongState");
  await writeAudit({
    actor,
    accountId,
    action: selfApproval ? "payout_batch.self_approved" : "payout_batch.approved",
    target: batchId,
    ip,
    details: { rows: batch.rowCount, total: fromCents(batch.totalCents), submittedBy: batch.submittedByEmail, selfApproved: selfApproval },
  });
  await signalPayoutsDue();
}

export async function rejectPayoutBatch(context: Context & { batchId: string; reason: string }): Promise<void> {
  const { accountId, actor, ip, batchId } = context;
  const reason = context.reason.trim();
  if (!reason) throw new PayoutBatchRefusedError("reasonRequired");
  const db = await getDb();
  const now = new Date();
  const updated = await db
    .update(payoutBatches)
    .set({ state: "REJECTED", rejectedAt: now, rejectedByEmail: actor.email, rejectionReason: reason, updatedAt: now })
    .where(and(eq(payoutBatches.accountId, accountId), eq(payoutBatches.id, batchId), eq(payoutBatches.state, "AWAITING_APPROVAL")))
    .returning({ id: payoutBatches.id });
  if (updated.length === 0) throw new PayoutBatchRefusedError("wrongState");
  await writeAudit({ actor, accountId, action: "payout_batch.rejected", target: batchId, ip, details: { reason } });
}

/** Pause keeps the rows not yet taken; the rows on their way finish. */
export async function pausePayoutBatch(context: Context & { batchId: string }): Promise<void> {
  const { accountId, actor, ip, batchId } = context;
  const db = await getDb();
  const now = new Date();
  const updated = await db
    .update(payoutBatches)
    .set({ state: "PAUSED", pausedAt: now, pausedByEmail: actor.email, updatedAt: now })
    .where(and(eq(payoutBatches.accountId, accountId), eq(payoutBatches.id, batchId), eq(payoutBatches.state, "RUNNING")))
    .returning({ id: payoutBatches.id });
  if (updated.length === 0) throw new PayoutBatchRefusedError("wrongState");
  await writeAudit({ actor, accountId, action: "payout_batch.paused", target: batchId, ip });
}

export async function resumePayoutBatch(context: Context & { batchId: string }): Promise<void> {
  const { accountId, actor, ip, batchId } = context;
  const db = await getDb();
  const updated = await db
    .update(payoutBatches)
    .set({ state: "RUNNING", pausedAt: null, pausedByEmail: null, updatedAt: new Date() })
    .where(and(eq(payoutBatches.accountId, accountId), eq(payoutBatches.id, batchId), eq(payoutBatches.state, "PAUSED")))
    .returning({ id: payoutBatches.id });
  if (updated.length === 0) throw new PayoutBatchRefusedError("wrongState");
  await writeAudit({ actor, accountId, action: "payout_batch.resumed", target: batchId, ip });
  await signalPayoutsDue();
}

/** The rows not yet taken are never sent; the ones already on their way keep their transfers. */
export async function cancelPayoutBatch(context: Context & { batchId: string }): Promise<{ canceledRows: number }> {
  const { accountId, actor, ip, batchId } = context;
  const db = await getDb();
  const now = new Date();
  const canceledRows = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(payoutBatches)
      .set({ state: "CANCELED", canceledAt: now, canceledByEmail: actor.email, updatedAt: now })
      .where(
        and(eq(payoutBatches.accountId, accountId), eq(payoutBatches.id, batchId), inArray(payoutBatches.state, ["RUNNING", "PAUSED"])),
      )
      .returning({ id: payoutBatches.id });
    if (!updated) return null;
    const rows = await tx
      .update(payoutBatchRows)
      .set({ execution: "CANCELED", updatedAt: now })
      .where(and(eq(payoutBatchRows.batchId, batchId), eq(payoutBatchRows.execution, "QUEUED")))
      .returning({ id: payoutBatchRows.id });
    return rows.length;
  });
  if (canceledRows === null) throw new PayoutBatchRefusedError("wrongState");
  await writeAudit({ actor, accountId, action: "payout_batch.canceled", target: batchId, ip, details: { canceledRows } });
  return { canceledRows };
}

/** An administrator lets one person prepare and approve (an account run by one person); shown on every batch it allowed. */
export async function setSelfApproval(context: Context & { allow: boolean }): Promise<void> {
  const { accountId, actor, ip, allow } = context;
  const db = await getDb();
  const values = { allowSelfApproval: allow, updatedByEmail: actor.email, updatedAt: new Date() };
  await db
    .insert(payoutSettings)
    .values({ accountId, ...values })
    .onConflictDoUpdate({ target: payoutSettings.accountId, set: values });
  await writeAudit({
    actor,
    accountId,
    action: allow ? "payout_settings.self_approval_allowed" : "payout_settings.self_approval_forbidden",
    ip,
  });
}
