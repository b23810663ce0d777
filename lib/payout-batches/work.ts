import "server-only";
import { sql } from "drizzle-orm";
import { writeAudit } from "@/lib/audit/log";
import { fromCents } from "@/lib/br";
import { getDb } from "@/lib/db/client";
import type { PayoutRowExecution } from "@/lib/db/tables/payout-batches";
import { isGatewayError } from "@/lib/gateway";
import { webhookUrlFor } from "@/lib/gateway/connection";
import { createLogger } from "@/lib/log";
import { defineJob, runJobPass } from "@/lib/runtime/jobs";
import { gatewayTimeoutMs, submissionErrorInfo, submit } from "@/lib/submissions/engine";
import { newCallbackKey } from "@/lib/transfers/callback-key";
import { DailyLimitError, transferSubmissions } from "@/lib/transfers/submission";

const log = createLogger("payouts");

/** Approvals and resumes wake the sender at once (pg_notify); the interval catches the rest. */
export const PAYOUTS_CHANNEL = "payout_rows_due";

const RECOVERY_EVERY_MS = 5_000;

export function payoutConfig() {
  return {
    concurrency: Math.max(1, Math.min(32, Number(process.env.PAYOUT_CONCURRENCY ?? 4) || 4)),
    intervalMs: Number(process.env.PAYOUT_INTERVAL_MS ?? 1_000),
    /** A row is held while its request may be on its way; past that, another worker may take it (and will not resend it). */
    leaseMs: Number(process.env.PAYOUT_LEASE_MS ?? gatewayTimeoutMs() + 15_000),
    /** A 429 without Retry-After. */
    rateLimitedWaitMs: Number(process.env.PAYOUT_RATE_LIMIT_WAIT_MS ?? 5_000),
  };
}

type ClaimedRow = {
  id: string;
  batch_id: string;
  account_id: string;
  line: number;
  identifier: string;
  pix_key_type: string;
  pix_key: string;
  amount_cents: string | number;
  owner_name: string;
  owner_document_type: string;
  owner_document_number: string;
  discount_fee_of_receiver: boolean;
  approved_by: string;
  approved_by_email: string;
  approver_ip: string;
};

/**
 * A row left SENDING by a worker that died (its lease ran out) is never sent blindly again: when
 * its transfer exists, the row is that transfer's; when none does, nothing left and it is queued
 * again (or cancelled, in a cancelled batch). The transfer's identifier is unique per account,
 * so even a worker that only stalled cannot create a second one.
 */
async function recoverStaleRows(): Promise<number> {
  const db = await getDb();
  const { rows } = await db.execute<{ id: string }>(sql`
    with stale as (
      select r.id, r.account_id, r.identifier, b.state as batch_state
        from payout_batch_rows r join payout_batches b on b.id = r.batch_id
       where r.execution = 'SENDING' and r.lease_until < now()
       for update of r skip locked)
    update payout_batch_rows r
       set execution = case when t.id is not null then 'SENT' when s.batch_state = 'CANCELED' then 'CANCELED' else 'QUEUED' end,
           transfer_id = coalesce(t.id, r.transfer_id), lease_until = null, updated_at = now()
      from stale s left join transfers t on t.account_id = s.account_id and t.identifier = s.identifier and t.submission <> 'REJECTED'
     where r.id = s.id
     returning r.id`);
  return rows.length;
}

/** Takes up to `limit` due rows of running batches, in each batch's order, holding them for the lease. */
async function claimRows(limit: number): Promise<ClaimedRow[]> {
  if (limit <= 0) return [];
  const db = await getDb();
  const leaseMs = payoutConfig().leaseMs;
  const { rows } = await db.execute<ClaimedRow>(sql`
    with due as (
      select r.id from payout_batch_rows r join payout_batches b on b.id = r.batch_id
       where b.state = 'RUNNING' and (b.not_before is null or b.not_before <= now())
         and r.execution = 'QUEUED' and (r.not_before is null or r.not_before <= now())
       order by b.approved_at, r.line
       limit ${limit}
       for update of r skip locked)
    update payout_batch_rows r
       set execution = 'SENDING', lease_until = now() + ${leaseMs} * interval '1 millisecond', attempts = r.attempts + 1, updated_at = now()
      from due, payout_batches b
     where r.id = due.id and b.id = r.batch_id
     returning r.id, r.batch_id, r.account_id, r.line, r.identifier, r.pix_key_type, r.pix_key, r.amount_cents, r.owner_name,
               r.owner_document_type, r.owner_document_number, b.discount_fee_of_receiver, b.approved_by, b.approved_by_email, b.approver_ip`);
  return rows;
}

type RowEnd =
  | { execution: "SENT"; transferId: string }
  | { execution: "REFUSED"; transferId: string | null; error: { kind: string; status?: number; errorCode?: string; message?: string } }
  | { execution: "QUEUED"; retryAfterMs: number; transferId: string | null };

/** One row through the submission engine, as the single transfer form sends it, under the approver's name and address. */
async function sendRow(row: ClaimedRow): Promise<RowEnd> {
  const actor = { id: row.approved_by, email: row.approved_by_email };
  const callbackKey = newCallbackKey();
  try {
    const result = await submit(
      transferSubmissions,
      {
        accountId: row.account_id,
        actor,
        ip: row.approver_ip,
        ownerIp: row.approver_ip,
        callbackKey,
        callbackUrl: webhookUrlFor(row.account_id, callbackKey),
        input: {
          identifier: row.identifier,
          amount: fromCents(Number(row.amount_cents)),
          discountFeeOfReceiver: row.discount_fee_of_receiver,
          pix: { type: row.pix_key_type, key: row.pix_key },
          owner: { name: row.owner_name, document: { type: row.owner_document_type, number: row.owner_document_number } },
        },
      },
      { actor, ip: row.approver_ip },
    );
    const transferId = result.row.id;
    if (result.replayed || result.outcome !== "rejected") return { execution: "SENT", transferId };
    if (isGatewayError(result.error) && result.error.kind === "rate_limited") {
      return { execution: "QUEUED", transferId, retryAfterMs: result.error.retryAfterMs ?? payoutConfig().rateLimitedWaitMs };
    }
    return { execution: "REFUSED", transferId, error: result.row.error ?? submissionErrorInfo(result.error) };
  } catch (error) {
    if (error instanceof DailyLimitError) {
      return { execution: "REFUSED", transferId: null, error: { kind: "daily_limit" } };
    }
    throw error;
  }
}

async function recordRowEnd(row: ClaimedRow, end: RowEnd): Promise<void> {
  const db = await getDb();
  const execution: PayoutRowExecution = end.execution;
  const error = end.execution === "REFUSED" ? JSON.stringify(end.error) : null;
  const waitMs = end.execution === "QUEUED" ? end.retryAfterMs : 0;
  // SENT is written whatever the row's state now: a row with a transfer is that transfer's, even if the batch was cancelled meanwhile.
  await db.execute(sql`
    update payout_batch_rows
       set execution = ${execution}, transfer_id = coalesce(${end.transferId}, transfer_id), lease_until = null,
           error = ${error}::jsonb,
           not_before = case when ${waitMs} > 0 then now() + ${waitMs} * interval '1 millisecond' else null end,
           updated_at = now()
     where id = ${row.id} and (execution = 'SENDING' or ${execution} = 'SENT')`);
  if (end.execution === "QUEUED") {
    // The gateway's limit is the account's: the whole batch waits, not only this row.
    await db.execute(sql`
      update payout_batches set not_before = greatest(coalesce(not_before, now()), now() + ${waitMs} * interval '1 millisecond'), updated_at = now()
       where id = ${row.batch_id}`);
  }
}

/**
 * Running batches with nothing left to send are finished, in one statement (once: the state change
 * is the guard). Asked when a claim came up short after rows ended, not after every row.
 */
async function finishDrainedBatches(): Promise<void> {
  const db = await getDb();
  const { rows: finished } = await db.execute<{ id: string; account_id: string }>(sql`
    update payout_batches b set state = 'FINISHED', finished_at = now(), updated_at = now()
     where b.state = 'RUNNING'
       and not exists (select 1 from payout_batch_rows r where r.batch_id = b.id and r.execution in ('QUEUED', 'SENDING'))
     returning b.id, b.account_id`);
  for (const batch of finished) {
    await writeAudit({ accountId: batch.account_id, action: "payout_batch.finished", target: batch.id });
  }
}

async function runRow(row: ClaimedRow): Promise<void> {
  let end: RowEnd;
  try {
    end = await sendRow(row);
  } catch (error) {
    // The database or the process failed around the submission: the row stays held until its
    // lease runs out, then recoverStaleRows finds its transfer (or queues it, when none left).
    log.error("sending a batch row failed", { error, batchId: row.batch_id, line: row.line });
    return;
  }
  await recordRowEnd(row, end);
}

/**
 * The approved batches' rows, sent: up to PAYOUT_CONCURRENCY in flight per process, each row that
 * ends making room for the next. Woken by approvals and resumes (PAYOUTS_CHANNEL) and every
 * interval; a batch whose last row ended is finished once a claim comes up short.
 */
export const payoutsJob = defineJob({
  name: "payout-rows",
  wakeOn: [PAYOUTS_CHANNEL],
  intervalMs: () => payoutConfig().intervalMs,
  concurrency: () => payoutConfig().concurrency,
  claim: claimRows,
  run: (row: ClaimedRow) =>
    runRow(row).catch((error: unknown) => log.error("recording a batch row failed", { error, batchId: row.batch_id, line: row.line })),
  // A stale row waits out a whole lease anyway: looking for one every few seconds is enough.
  upkeep: { everyMs: RECOVERY_EVERY_MS, run: recoverStaleRows },
  drained: finishDrainedBatches,
});

/**
 * A bounded pass (the serverless drivers, tests): rows are sent `concurrency` at a time until
 * none is due or the time budget is spent; the rest waits for the next one.
 */
export async function runPayoutsOnce(budgetMs = 20_000): Promise<{ sentRows: number }> {
  return { sentRows: await runJobPass(payoutsJob, budgetMs) };
}

/** Wakes the senders of every process (the approval, a resume). */
export async function signalPayoutsDue(): Promise<void> {
  const db = await getDb();
  await db.execute(sql`select pg_notify(${PAYOUTS_CHANNEL}, '')`);
}
