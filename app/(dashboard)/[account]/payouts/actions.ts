"use server";

import { revalidatePath } from "next/cache";
import { accountPath } from "@/lib/accounts/paths";
import { ActionError, defineAction } from "@/lib/actions/safe-action";
import { fromCents } from "@/lib/br";
import { getI18n } from "@/lib/i18n/server";
import { MAX_BYTES, readPayoutFile } from "@/lib/payout-batches/parse";
import { findPayoutBatch, listPayoutRows } from "@/lib/payout-batches/queries";
import {
  PayoutBatchRefusedError,
  approvePayoutBatch,
  cancelPayoutBatch,
  createPayoutBatch,
  pausePayoutBatch,
  rejectPayoutBatch,
  replacePayoutRows,
  resumePayoutBatch,
  setPayoutRowsRemoved,
  setSelfApproval,
  submitPayoutBatch,
  updatePayoutRow,
  withdrawPayoutBatch,
} from "@/lib/payout-batches/service";
import { TransferRefusedError } from "@/lib/transfers/errors";
import {
  approveSchema,
  batchIdSchema,
  fixRowActionSchema,
  rejectSchema,
  reuploadActionSchema,
  rowRemovedSchema,
  selfApprovalSchema,
  uploadActionSchema,
} from "./schemas";

/** Both the list and the batch's own page show what changed. */
function refresh(accountId: string, batchId?: string) {
  revalidatePath(accountPath(accountId, "/payouts"));
  if (batchId) revalidatePath(accountPath(accountId, `/payouts/${batchId}`));
}

/** A refusal of the batch service in the user's words; a limit or a count comes as the secondary line. */
async function batchRefusal(error: PayoutBatchRefusedError): Promise<ActionError> {
  const key = `payouts.refusals.${error.reason}`;
  const { t, format } = await getI18n();
  const { limitCents, usedTodayCents, availableCents, rows } = error.detail;
  if (error.reason === "dailyLimit" && limitCents !== undefined) {
    return new ActionError(key, {
      message: t("transfers.errors.dailyLimitDetail", {
        limit: format.money(fromCents(limitCents)),
        used: format.money(fromCents(usedTodayCents ?? 0)),
        available: format.money(fromCents(availableCents ?? 0)),
      }),
    });
  }
  if (error.reason === "rowsWithErrors" && rows !== undefined)
    return new ActionError(key, { message: t("payouts.refusals.rowsWithErrorsDetail", { count: rows }) });
  if (error.reason === "reasonRequired") return new ActionError(key, { fieldErrors: { reason: [key] } });
  return new ActionError(key);
}

/**
 * The approver's password or code refused (lib/transfers/service.ts confirmMoneyOut): the field it
 * is about, in the batch's words. The transfer form maps the same errors in transfers/actions.ts (`refusalMessage`,
 * local: a "use server" file exports only actions); one shared mapping belongs in a plain module both import.
 */
function proofRefusal(error: TransferRefusedError): ActionError {
  const key = `payouts.approval.errors.${error.reason}`;
  const { field } = error.detail;
  return new ActionError(key, field ? { fieldErrors: { [field]: [key] } } : {});
}

async function refusalsInWords<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PayoutBatchRefusedError) throw await batchRefusal(error);
    if (error instanceof TransferRefusedError) throw proofRefusal(error);
    throw error;
  }
}

/** The file's rows, or its problem in words at the field it came from (the file input or the paste box). */
async function readUpload(mode: "file" | "paste", file: Blob, fileName: string | undefined) {
  const read =
    mode === "paste"
      ? await readPayoutFile({ pasted: await file.text() })
      : await readPayoutFile({
          fileName: fileName || (file instanceof File ? file.name : ""),
          bytes: new Uint8Array(await file.arrayBuffer()),
        });
  if (read.ok) return read;
  const { t, format } = await getI18n();
  // Counts are formatted here, in the user's language (the messages take them as text).
  const vars = Object.fromEntries(
    Object.entries(read.detail ?? {}).map(([key, value]) => [key, typeof value === "number" ? format.number(value) : value]),
  );
  const message = t(`payouts.problems.${read.problem}`, vars);
  throw new ActionError("errors.validation", { fieldErrors: { [mode === "paste" ? "pasted" : "file"]: [message] } });
}

const fileNameOf = (mode: "file" | "paste", fileName: string | undefined) => (mode === "paste" ? null : fileName?.slice(0, 255) || null);

export const createPayoutBatchAction = defineAction(
  { permission: "payouts.prepare", schema: uploadActionSchema(MAX_BYTES), account: "input" },
  async ({ name, mode, file, fileName }, ctx) => {
    const read = await readUpload(mode, file, fileName);
    const accountId = ctx.account.id;
    const { batchId } = await createPayoutBatch({
      accountId,
      actor: ctx.user,
      ip: ctx.ip,
      name,
      source: read.format,
      fileName: fileNameOf(mode, fileName),
      rows: read.rows,
    });
    refresh(accountId);
    return { batchId, ignoredColumns: read.ignoredColumns.slice(0, 20) };
  },
);

export const replacePayoutRowsAction = defineAction(
  { permission: "payouts.prepare", schema: reuploadActionSchema(MAX_BYTES), account: "input" },
  async ({ batchId, mode, file, fileName }, ctx) => {
    const read = await readUpload(mode, file, fileName);
    const accountId = ctx.account.id;
    await refusalsInWords(() =>
      replacePayoutRows({
        accountId,
        actor: ctx.user,
        ip: ctx.ip,
        batchId,
        source: read.format,
        fileName: fileNameOf(mode, fileName),
        rows: read.rows,
      }),
    );
    refresh(accountId, batchId);
    return { rows: read.rows.length, ignoredColumns: read.ignoredColumns.slice(0, 20) };
  },
);

export const fixPayoutRowAction = defineAction(
  { permission: "payouts.prepare", schema: fixRowActionSchema, account: "input" },
  async ({ batchId, rowId, cells }, ctx) => {
    const accountId = ctx.account.id;
    await refusalsInWords(() => updatePayoutRow({ accountId, actor: ctx.user, ip: ctx.ip, batchId, rowId, cells }));
    refresh(accountId, batchId);
    // What the row says now: the dialog stays open on the fields still wrong.
    const row = (await listPayoutRows(batchId)).find((r) => r.id === rowId);
    return { problems: row?.problems ?? [] };
  },
);

export const setPayoutRowRemovedAction = defineAction(
  { permission: "payouts.prepare", schema: rowRemovedSchema, account: "input" },
  async ({ batchId, rowId, removed }, ctx) => {
    const accountId = ctx.account.id;
    await refusalsInWords(() => setPayoutRowsRemoved({ accountId, actor: ctx.user, ip: ctx.ip, batchId, rowIds: [rowId], removed }));
    refresh(accountId, batchId);
  },
);

/** The rows are read here, not sent by the browser: a file of thousands of bad rows is one click. */
export const removeRowsWithErrorsAction = defineAction(
  { permission: "payouts.prepare", schema: batchIdSchema, account: "input" },
  async ({ batchId }, ctx) => {
    const accountId = ctx.account.id;
    if (!(await findPayoutBatch(accountId, batchId))) throw await batchRefusal(new PayoutBatchRefusedError("notFound"));
    const rowIds = (await listPayoutRows(batchId))
      .filter((row) => !row.removed && row.problems.some((problem) => problem.severity === "error"))
      .map((row) => row.id);
    await refusalsInWords(() => setPayoutRowsRemoved({ accountId, actor: ctx.user, ip: ctx.ip, batchId, rowIds, removed: true }));
    refresh(accountId, batchId);
    return { removed: rowIds.length };
  },
);

export const submitPayoutBatchAction = defineAction(
  { permission: "payouts.prepare", schema: batchIdSchema, account: "input" },
  async ({ batchId }, ctx) => {
    await refusalsInWords(() => submitPayoutBatch({ accountId: ctx.account.id, actor: ctx.user, ip: ctx.ip, batchId }));
    refresh(ctx.account.id, batchId);
  },
);

export const withdrawPayoutBatchAction = defineAction(
  { permission: "payouts.prepare", schema: batchIdSchema, account: "input" },
  async ({ batchId }, ctx) => {
    await refusalsInWords(() => withdrawPayoutBatch({ accountId: ctx.account.id, actor: ctx.user, ip: ctx.ip, batchId }));
    refresh(ctx.account.id, batchId);
  },
);

export const approvePayoutBatchAction = defineAction(
  { permission: "payouts.approve", schema: approveSchema, account: "input" },
  async ({ batchId, password, code }, ctx) => {
    await refusalsInWords(() =>
      approvePayoutBatch({ accountId: ctx.account.id, actor: ctx.user, ip: ctx.ip, batchId, proof: { password, code: code || undefined } }),
    );
    refresh(ctx.account.id, batchId);
  },
);

export const rejectPayoutBatchAction = defineAction(
  { permission: "payouts.approve", schema: rejectSchema, account: "input" },
  async ({ batchId, reason }, ctx) => {
    await refusalsInWords(() => rejectPayoutBatch({ accountId: ctx.account.id, actor: ctx.user, ip: ctx.ip, batchId, reason }));
    refresh(ctx.account.id, batchId);
  },
);

/** Stopping money is everyone's who prepares batches; starting it again is the approvers'. */
export const pausePayoutBatchAction = defineAction(
  { permission: "payouts.prepare", schema: batchIdSchema, account: "input" },
  async ({ batchId }, ctx) => {
    await refusalsInWords(() => pausePayoutBatch({ accountId: ctx.account.id, actor: ctx.user, ip: ctx.ip, batchId }));
    refresh(ctx.account.id, batchId);
  },
);

export const resumePayoutBatchAction = defineAction(
  { permission: "payouts.approve", schema: batchIdSchema, account: "input" },
  async ({ batchId }, ctx) => {
    await refusalsInWords(() => resumePayoutBatch({ accountId: ctx.account.id, actor: ctx.user, ip: ctx.ip, batchId }));
    refresh(ctx.account.id, batchId);
  },
);

export const cancelPayoutBatchAction = defineAction(
  { permission: "payouts.prepare", schema: batchIdSchema, account: "input" },
  async ({ batchId }, ctx) => {
    const result = await refusalsInWords(() => cancelPayoutBatch({ accountId: ctx.account.id, actor: ctx.user, ip: ctx.ip, batchId }));
    refresh(ctx.account.id, batchId);
    return result;
  },
);

export const setSelfApprovalAction = defineAction(
  { permission: "payouts.settings", schema: selfApprovalSchema, account: "input" },
  async ({ allow }, ctx) => {
    await setSelfApproval({ accountId: ctx.account.id, actor: ctx.user, ip: ctx.ip, allow });
    refresh(ctx.account.id);
  },
);
