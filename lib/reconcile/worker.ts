import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import { writeAudit } from "@/lib/audit/log";
import { getDb, getDbDriver } from "@/lib/db/client";
import { ledgerTransactions, transfers, webhookEvents } from "@/lib/db/schema";
import { emitLocally } from "@/lib/feed/bus";
import { gatewayForAccount } from "@/lib/gateway/connection";
import { isGatewayError, type TransactionRecord } from "@/lib/gateway";
import { ledgerStatusChange } from "@/lib/status/ledger";
import { machineForOperation, stateOf } from "@/lib/status/machine";
import { notifyFeed, toFeedEvent } from "@/lib/webhooks/feed-signal";
import { claimDueChecks, delayAfter, finishCheck, NOTIFICATION_TARGET, readNotificationTargetId, reconcileConfig, retryCheckLater, type GatewayCheck } from "./checks";
import { giveUpUnconfirmedNotifications, settleUnconfirmedNotifications } from "./notifications";
import { createLogger } from "@/lib/log";
import { parseGatewayTime } from "@/lib/gateway/time";

const log = createLogger("reconcile");

type LedgerRow = typeof ledgerTransactions.$inferSelect;
type ErrorInfo = { kind: string; status?: number; message?: string };

/** Subscriptions are not transactions: a lookup miss proves nothing about them. */
const LOOKUP_PROVES_ABSENCE = new Set(["pix_charge", "card_charge", "boleto_charge", "crypto_charge", "pix_deposit"]);
/** A notification naming a transaction the gateway does not know is contradicted after this many misses. */
const CONFIRM_MISSES = 3;

function gatewayTimeoutMs(): number {
  return Number(process.env.GATEWAY_TIMEOUT_MS ?? 15_000);
}

function errorInfo(error: unknown): ErrorInfo {
  if (isGatewayError(error)) return { kind: error.kind, status: error.status, message: error.gatewayMessage };
  return { kind: "internal" };
}

export type SettleOutcome =
  | "settled" // nothing left to check: the record settled by itself
  | "found" // the gateway has it: status applied through the status machine
  | "absent" // a lookup long enough after sending found nothing: safe to send again
  | "not_found_yet" // a miss that proves nothing yet
  | "contradicted" // the gateway does not confirm what a notification said
  | "in_flight" // the request may still be on its way
  | "lookup_failed";

/**
 * Asks the gateway about one ledger row and settles it: an UNKNOWN or stuck submission, or a
 * notification parked as "confirming". Every status change goes through the status machine.
 * `sentAt` is when the submission (or the notification) started waiting: the check's own
 * creation time, never the row's `updated_at`, which every notification moves (a late
 * TRANSACTION_CREATED made a crashed submission look in flight again and cost its first check a
 * whole step of the schedule). An in-flight answer carries `retryAfterMs`: when the wait ends.
 */
export async function settleLedgerRow(
  accountId: string,
  ledgerId: string,
  sentAt: Date,
  misses = 0,
  options: { refreshSettled?: boolean } = {},
): Promise<{ outcome: SettleOutcome; row: LedgerRow | null; error?: ErrorInfo; retryAfterMs?: number }> {
  const db = await getDb();
  const [row] = await db.select().from(ledgerTransactions).where(and(eq(ledgerTransactions.accountId, accountId), eq(ledgerTransactions.id, ledgerId)));
  if (!row) return { outcome: "settled", row: null };
  const unsettled = row.submission === "UNKNOWN" || row.submission === "SUBMITTING";
  if (!unsettled && !row.pendingStatus && !options.refreshSettled) return { outcome: "settled", row };
  const inFlightFor = sentAt.getTime() + gatewayTimeoutMs() + 5_000 - Date.now();
  if (row.submission === "SUBMITTING" && inFlightFor > 0) return { outcome: "in_flight", row, retryAfterMs: inFlightFor };

  let record: TransactionRecord | null;
  try {
    const gateway = await gatewayForAccount(accountId);
    // An unsettled submission is looked up by the console's own identifier: a gateway id it holds
    // came from a notification, and a miss on someone's id proves nothing about this charge.
    record = row.gatewayTransactionId && !unsettled
      ? await gateway.findTransaction({ id: row.gatewayTransactionId })
      : await gateway.findTransaction({ clientIdentifier: row.identifier });
  } catch (error) {
    return { outcome: "lookup_failed", row, error: errorInfo(error), retryAfterMs: isGatewayError(error) ? error.retryAfterMs : undefined };
  }

  if (record) return { outcome: "found", row: await applyLookup(row, record) };

  if (!unsettled && !row.pendingStatus) return { outcome: "not_found_yet", row };
  if (row.pendingStatus && !unsettled) {
    if (misses + 1 < CONFIRM_MISSES) return { outcome: "not_found_yet", row };
    return { outcome: "contradicted", row: await settleConfirmations(row, null) };
  }
  const waited = Date.now() - sentAt.getTime();
  if (unsettled && LOOKUP_PROVES_ABSENCE.has(row.kind) && waited >= reconcileConfig().absentAfterMs) {
    const [absent] = await db
      .update(ledgerTransactions)
      .set({ submission: "ABSENT", lastLookupAt: new Date(), lastLookupStatus: null, updatedAt: new Date() })
      .where(and(eq(ledgerTransactions.id, row.id), inArray(ledgerTransactions.submission, ["UNKNOWN", "SUBMITTING"])))
      .returning();
    return { outcome: "absent", row: absent ?? row };
  }
  await db.update(ledgerTransactions).set({ lastLookupAt: new Date() }).where(eq(ledgerTransactions.id, row.id));
  return { outcome: "not_found_yet", row };
}

/** Records what the gateway's lookup says, through the status machine, and settles parked notifications. */
export async function applyLookup(row: LedgerRow, record: TransactionRecord): Promise<LedgerRow> {
  const db = await getDb();
  const now = new Date();
  const updated = await db.transaction(async (tx) => {
    const [current] = await tx.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, row.id)).for("update");
    const change = ledgerStatusChange(current, { status: record.status, source: "lookup", at: now, paidAt: parseGatewayTime(record.payedAt) });
    const unsettled = current.submission === "UNKNOWN" || current.submission === "SUBMITTING" || current.submission === "ABSENT";
    const [next] = await tx
      .update(ledgerTransactions)
      .set({
        ...change.set,
        gatewayRecord: record as Record<string, unknown>,
        lastLookupStatus: record.status,
        lastLookupAt: now,
        gatewayTransactionId: current.gatewayTransactionId ?? record.id,
        paymentMethod: current.paymentMethod ?? record.paymentMethod,
        ...(unsettled ? { submission: "SUBMITTED" as const, error: null } : {}),
        updatedAt: now,
      })
      .where(eq(ledgerTransactions.id, row.id))
      .returning();
    return next;
  });
  return (await settleConfirmations(updated, record)) ?? updated;
}

/**
 * Marks the notifications parked on this row as confirmed (the gateway agrees) or contradicted
 * (it does not, or does not know the transaction): the gateway wins, the delivery is flagged in
 * the inbox and an audit entry is written. Clears the parked status.
 */
async function settleConfirmations(row: LedgerRow, record: TransactionRecord | null): Promise<LedgerRow> {
  const db = await getDb();
  const driver = await getDbDriver();
  const machine = machineForOperation(row.kind);
  const gatewayState = record ? stateOf(machine, record.status) : null;
  const { signals, contradicted, settled } = await db.transaction(async (tx) => {
    const [settledRow] = await tx
      .update(ledgerTransactions)
      .set({ pendingStatus: null, pendingStatusAt: null })
      .where(eq(ledgerTransactions.id, row.id))
      .returning();
    const parked = await tx
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.ledgerId, row.id), eq(webhookEvents.confirmation, "confirming")))
      .for("update");
    const contradicted = parked.filter((e) => gatewayState === null || stateOf(machine, e.status) !== gatewayState);
    const confirmed = parked.filter((e) => !contradicted.includes(e));
    const mark = async (events: typeof parked, confirmation: "confirmed" | "contradicted") =>
      events.length === 0
        ? []
        : tx
            .update(webhookEvents)
            .set({
              confirmation,
              ledgerOutcome: confirmation === "confirmed" ? "updated" : "refused",
              feedSeq: sql`nextval(pg_get_serial_sequence('webhook_events', 'feed_seq'))`,
            })
            .where(inArray(webhookEvents.id, events.map((e) => e.id)))
            .returning();
    const changed = [...(await mark(confirmed, "confirmed")), ...(await mark(contradicted, "contradicted"))];
    const signals = changed.map((e) => toFeedEvent(e, true));
    await notifyFeed(tx, signals, driver);
    return { signals, contradicted, settled: settledRow ?? row };
  });
  if (driver === "pglite") for (const signal of signals) emitLocally(signal);
  for (const event of contradicted) {
    await writeAudit({
      accountId: row.accountId,
      action: "webhook.contradicted",
      target: event.id,
      details: { ledgerId: row.id, notified: event.status, gateway: record?.status ?? null, event: event.event },
    });
  }
  return settled;
}

async function processLedgerCheck(check: GatewayCheck): Promise<void> {
  const { giveUpMs } = reconcileConfig();
  const misses = check.lastOutcome === "not_found_yet" ? check.attempts - 1 : 0;
  const result = await settleLedgerRow(check.accountId, check.targetId, check.createdAt, misses);
  const age = Date.now() - check.createdAt.getTime();
  switch (result.outcome) {
    case "settled":
    case "found":
    case "absent":
    case "contradicted":
      await finishCheck(check.id, "done", result.outcome);
      if (result.row && result.outcome !== "settled") {
        await writeAudit({
          accountId: check.accountId,
          action: "operation.reconciled",
          target: check.targetId,
          details: { reason: check.reason, outcome: result.outcome, attempts: check.attempts, submission: result.row.submission, status: result.row.status },
        });
      }
      return;
    case "in_flight":
      // Nothing was asked: come back when the request can no longer be on its way, at the same step of the schedule.
      await retryCheckLater(check.id, result.retryAfterMs ?? delayAfter(0), result.outcome, undefined, { uncount: true });
      return;
    default:
      if (age >= giveUpMs) {
        await finishCheck(check.id, "needs_person", result.outcome, result.error);
        await writeAudit({
          accountId: check.accountId,
          action: "operation.needs_person",
          target: check.targetId,
          details: { reason: check.reason, lastOutcome: result.outcome, attempts: check.attempts },
        });
        return;
      }
      // A 429 says when to come back; otherwise the schedule does.
      await retryCheckLater(check.id, Math.max(result.retryAfterMs ?? 0, delayAfter(check.attempts)), result.outcome, result.error);
  }
}

/** Transfers have no lookup in the interface: only their own notification settles them, or a person after the give-up time. */
async function processTransferCheck(check: GatewayCheck): Promise<void> {
  const db = await getDb();
  const [transfer] = await db.select().from(transfers).where(eq(transfers.id, check.targetId));
  if (!transfer || (transfer.submission !== "UNKNOWN" && transfer.submission !== "SUBMITTING")) {
    await finishCheck(check.id, "done", "settled");
    return;
  }
  if (Date.now() - check.createdAt.getTime() >= reconcileConfig().giveUpMs) {
    await finishCheck(check.id, "needs_person", "no_notification");
    await writeAudit({ accountId: check.accountId, action: "transfer.needs_person", target: transfer.id, details: { identifier: transfer.identifier } });
    return;
  }
  await retryCheckLater(check.id, delayAfter(check.attempts), "waiting_notification");
}

/**
 * Notifications about a transaction the ledger does not have: the gateway's lookup by id decides.
 * Found → the row is created from its record (or the notifications join the row that has it);
 * a miss, repeated CONFIRM_MISSES times → contradicted; no answer for the give-up time → a person.
 */
async function processNotificationCheck(check: GatewayCheck): Promise<void> {
  const { giveUpMs } = reconcileConfig();
  const gatewayTransactionId = readNotificationTargetId(check);
  let record: TransactionRecord | null;
  try {
    record = await (await gatewayForAccount(check.accountId)).findTransaction({ id: gatewayTransactionId });
  } catch (error) {
    const info = errorInfo(error);
    if (Date.now() - check.createdAt.getTime() >= giveUpMs) {
      await finishCheck(check.id, "needs_person", "lookup_failed", info);
      await giveUpUnconfirmedNotifications(check.accountId, gatewayTransactionId, check.attempts);
      return;
    }
    const retryAfterMs = isGatewayError(error) ? error.retryAfterMs : undefined;
    await retryCheckLater(check.id, Math.max(retryAfterMs ?? 0, delayAfter(check.attempts)), "lookup_failed", info);
    return;
  }
  const misses = check.lastOutcome === "not_found_yet" ? check.attempts - 1 : 0;
  if (!record && misses + 1 < CONFIRM_MISSES) {
    await retryCheckLater(check.id, delayAfter(check.attempts), "not_found_yet");
    return;
  }
  const settled = await settleUnconfirmedNotifications(check.accountId, gatewayTransactionId, record);
  if (settled.outcome === "attached" && record && settled.ledgerId) {
    const db = await getDb();
    const [row] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, settled.ledgerId));
    if (row) await applyLookup(row, record);
  }
  // "absent": the gateway does not know the transaction; "contradicted": it does, and says otherwise.
  await finishCheck(check.id, "done", settled.outcome === "contradicted" && !record ? "absent" : settled.outcome);
}

async function processCheck(check: GatewayCheck): Promise<void> {
  try {
    if (check.target === "transfer") await processTransferCheck(check);
    else if (check.target === NOTIFICATION_TARGET) await processNotificationCheck(check);
    else await processLedgerCheck(check);
  } catch (error) {
    log.error("check failed", { error });
    await retryCheckLater(check.id, delayAfter(check.attempts), "internal", { kind: "internal" }).catch(() => {});
  }
}

/** One pass: claims the due checks and works them with bounded concurrency. */
export async function runReconcilerOnce(): Promise<{ claimed: number; limit: number }> {
  const { concurrency } = reconcileConfig();
  const limit = concurrency * 4;
  const checks = await claimDueChecks(limit);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, checks.length) }, async () => {
      while (next < checks.length) await processCheck(checks[next++]);
    }),
  );
  return { claimed: checks.length, limit };
}
