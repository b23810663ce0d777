import "server-only";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { writeAudit } from "@/lib/audit/log";
import { databaseCapabilities } from "@/lib/db/capabilities";
import { getDb, type Tx } from "@/lib/db/client";
import { groupCommit } from "@/lib/runtime/group-commit";
import { ledgerTransactions, gatewayNotifications } from "@/lib/db/schema";
import { emitAfterCommit, notifyFeed, toFeedNotification } from "@/lib/feed/signal";
import type { FeedNotification } from "@/lib/feed/types";
import { gatewayForAccount } from "@/lib/gateway/connection";
import { isGatewayError, type TransactionRecord } from "@/lib/gateway";
import { parseGatewayTime } from "@/lib/gateway/time";
import { ledgerStatusChange } from "@/lib/status/ledger";
import { machineForOperation, stateOf } from "@/lib/status/machine";
import { closeOpenCheck, latestCheck, reconcileConfig, type GatewayCheck } from "@/lib/submissions/checks";
import { inFlightForMs, lookupErrorInfo, type SubmissionErrorInfo } from "@/lib/submissions/engine";
import { balanceFactsFromRecord, scheduleReleaseLookups, syncSaleMovements } from "./movements";
import { ledgerUpdateRecord, ledgerUpdateSet } from "./notifications";
import { getLedgerRow, type LedgerRow } from "./queries";
import type { OperationActor, OperationErrorInfo } from "./submissions";

/**
 * Settling a ledger row with the gateway's own word: the lookup that settles an UNKNOWN or stuck
 * submission, confirms (or contradicts) a parked notification, or refreshes a settled row on demand.
 */

/** Subscriptions are not transactions: a lookup miss proves nothing about them. */
const LOOKUP_PROVES_ABSENCE = new Set(["pix_charge", "card_charge", "boleto_charge", "crypto_charge", "pix_deposit"]);
/** A notification naming a transaction the gateway does not know is contradicted after this many misses. */
export const CONFIRM_MISSES = 3;

/** The lookup misses in a row a check has seen so far (its last attempt's included). */
export function missesOf(check: Pick<GatewayCheck, "lastOutcome" | "attempts">): number {
  return check.lastOutcome === "not_found_yet" ? check.attempts - 1 : 0;
}

export type CheckOutcome = "found" | "absent" | "not_found_inconclusive" | "lookup_failed";

/**
 * "Verificar agora": the same settlement the reconciler runs on its schedule, on demand. Found →
 * SUBMITTED with the gateway's status (through the status machine); a miss → ABSENT only for
 * charges and deposits, and only once the waiting period since sending has passed.
 */
export async function checkOperationNow(
  accountId: string,
  id: string,
  actor: OperationActor,
  ip?: string | null,
): Promise<{ row: LedgerRow; outcome: CheckOutcome; error?: OperationErrorInfo } | null> {
  const row = await getLedgerRow(accountId, id);
  if (!row) return null;
  const check = await latestCheck("ledger", row.id);
  const sentAt = check?.state === "pending" ? check.createdAt : row.updatedAt;
  const result = await settleLedgerRow(accountId, row.id, sentAt, 0, { refreshSettled: row.submission === "SUBMITTED" });
  const settled = result.row ?? row;
  const outcome: CheckOutcome =
    result.outcome === "found"
      ? "found"
      : result.outcome === "absent"
        ? "absent"
        : result.outcome === "lookup_failed"
          ? "lookup_failed"
          : result.outcome === "settled" && row.submission === "SUBMITTED"
            ? "found"
            : "not_found_inconclusive";
  if (result.outcome === "found" || result.outcome === "absent") await closeOpenCheck("ledger", row.id, result.outcome);
  await writeAudit({
    actor,
    accountId,
    action: "operation.check",
    target: row.id,
    details: { identifier: row.identifier, outcome, before: row.submission, after: settled.submission, status: settled.status },
    ip: ip ?? null,
  });
  return { row: settled, outcome, error: result.error };
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
): Promise<{ outcome: SettleOutcome; row: LedgerRow | null; error?: SubmissionErrorInfo; retryAfterMs?: number }> {
  const row = await readLedgerRowBatched({ accountId, id: ledgerId });
  if (!row) return { outcome: "settled", row: null };
  const unsettled = row.submission === "UNKNOWN" || row.submission === "SUBMITTING";
  if (!unsettled && !row.pendingStatus && !options.refreshSettled) return { outcome: "settled", row };
  const inFlightFor = inFlightForMs(sentAt);
  if (row.submission === "SUBMITTING" && inFlightFor > 0) return { outcome: "in_flight", row, retryAfterMs: inFlightFor };

  let record: TransactionRecord | null;
  try {
    const gateway = await gatewayForAccount(accountId);
    // An unsettled submission is looked up by the console's own identifier: a gateway id it holds
    // came from a notification, and a miss on someone's id proves nothing about this charge.
    record =
      row.gatewayTransactionId && !unsettled
        ? await gateway.findTransaction({ id: row.gatewayTransactionId })
        : await gateway.findTransaction({ clientIdentifier: row.identifier });
  } catch (error) {
    return {
      outcome: "lookup_failed",
      row,
      error: lookupErrorInfo(error),
      retryAfterMs: isGatewayError(error) ? error.retryAfterMs : undefined,
    };
  }

  if (record) return { outcome: "found", row: await applyLookupBatched(row, record) };

  if (!unsettled && !row.pendingStatus) return { outcome: "not_found_yet", row };
  if (row.pendingStatus && !unsettled) {
    if (misses + 1 < CONFIRM_MISSES) return { outcome: "not_found_yet", row };
    return { outcome: "contradicted", row: await settleConfirmations(row, null) };
  }
  const waited = Date.now() - sentAt.getTime();
  const db = await getDb();
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

/**
 * Records what the gateway's lookup says, through the status machine, and settles parked
 * notifications. The row is read (and locked) here: null when it no longer exists.
 */
export async function applyLookup(row: Pick<LedgerRow, "id">, record: TransactionRecord): Promise<LedgerRow | null> {
  const [settled] = await applyLookups([{ id: row.id, record }]);
  return settled ?? null;
}

/**
 * applyLookup for many rows in ONE transaction: each row read under lock (in id order, so two
 * batches never wait on each other crosswise), its status moved through the status machine as a
 * lookup, its sale movements synced, its parked notifications confirmed or contradicted, all
 * committed together. The rows of one account and day share their sales and balance rollup rows,
 * which every paid row's trigger updates: committed one by one, each confirmation held those rows
 * locked through its own commit and the next one waited (`npm run bench:chain`); in a batch they
 * are locked and committed once. Returns each item's settled row, in order (null: no such row).
 */
export async function applyLookups(items: { id: string; record: TransactionRecord }[]): Promise<(LedgerRow | null)[]> {
  if (items.length === 0) return [];
  const db = await getDb();
  const database = await databaseCapabilities();
  const now = new Date();
  // One record per row (the last one asked), the rows in id order.
  const recordOf = new Map(items.map((item) => [item.id, item.record]));
  const ids = [...recordOf.keys()].sort();
  const { settledById, signals, contradicted } = await db.transaction(async (tx) => {
    const currentRows = await tx
      .select()
      .from(ledgerTransactions)
      .where(inArray(ledgerTransactions.id, ids))
      .orderBy(asc(ledgerTransactions.id))
      .for("update");
    // Every row's change in ONE statement: the rollup triggers then run once for the batch.
    const changes = currentRows.map((current) => {
      const record = recordOf.get(current.id)!;
      const change = ledgerStatusChange(current, {
        status: record.status,
        source: "lookup",
        at: now,
        paidAt: parseGatewayTime(record.payedAt),
      });
      const unsettled = current.submission === "UNKNOWN" || current.submission === "SUBMITTING" || current.submission === "ABSENT";
      const status = change.set.status ?? current.status ?? record.status;
      return ledgerUpdateRecord(current.id, {
        ...change.set,
        ...balanceFactsFromRecord(current, { ...record, status }, current.pendingStatusAt, now),
        gatewayRecord: record as Record<string, unknown>,
        lastLookupStatus: record.status,
        lastLookupAt: now,
        gatewayTransactionId: current.gatewayTransactionId ?? record.id,
        paymentMethod: current.paymentMethod ?? record.paymentMethod,
        ...(unsettled ? { submission: "SUBMITTED" as const, error: null } : {}),
        // The gateway has spoken: a parked notification's status is settled below.
        pendingStatus: null,
        pendingStatusAt: null,
        updatedAt: now,
      });
    });
    if (changes.length > 0)
      await tx.execute(sql`
        update ledger_transactions as l set ${sql.raw(LOOKUP_UPDATE_SET)}
        from (select e->>'id' as id, e as c from jsonb_array_elements(${JSON.stringify(changes)}::jsonb) as e) as v
        where l.id = v.id`);
    const nextRows = new Map(
      (
        await tx
          .select()
          .from(ledgerTransactions)
          .where(
            inArray(
              ledgerTransactions.id,
              currentRows.map((r) => r.id),
            ),
          )
      ).map((row) => [row.id, row]),
    );
    const updated = currentRows
      .filter((current) => nextRows.has(current.id))
      .map((current) => ({ before: current, row: nextRows.get(current.id)!, record: recordOf.get(current.id)! }));
    await syncSaleMovements(
      tx,
      updated.map((u) => u.row.id),
    );
    for (const { before, row } of updated) await scheduleReleaseLookups(tx, before, row, now);
    const settled = await settleParkedIn(
      tx,
      updated.map(({ row, record }) => ({ row, record })),
      database,
    );
    return { settledById: new Map(updated.map(({ row }) => [row.id, row])), ...settled };
  });
  emitAfterCommit(signals, database);
  await auditContradicted(contradicted);
  return items.map((item) => settledById.get(item.id) ?? null);
}

/** What a lookup may change in a row (applyLookups). */
const LOOKUP_UPDATE_SET = ledgerUpdateSet([
  "status",
  "statusSource",
  "statusAt",
  "paidAt",
  "pendingStatus",
  "pendingStatusAt",
  "availableAt",
  "reversedAt",
  "gatewayRecord",
  "lastLookupStatus",
  "lastLookupAt",
  "gatewayTransactionId",
  "paymentMethod",
  "submission",
  "error",
  "updatedAt",
]);

/**
 * applyLookup, written with the other lookups of this process that end at about the same time
 * (group commit, lib/runtime/group-commit.ts): the rollup triggers then run once per batch.
 */
export function applyLookupBatched(row: Pick<LedgerRow, "id">, record: TransactionRecord): Promise<LedgerRow | null> {
  return submitLookup({ id: row.id, record });
}
const submitLookup = groupCommit("ledger-lookups", applyLookups);

/** A ledger row of an account, read with the other reads of this process made at about the same time. */
const readLedgerRowBatched = groupCommit("ledger-row-reads", async (keys: { accountId: string; id: string }[]) => {
  const db = await getDb();
  const rows = await db
    .select()
    .from(ledgerTransactions)
    .where(
      inArray(
        ledgerTransactions.id,
        keys.map((k) => k.id),
      ),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return keys.map((k) => {
    const row = byId.get(k.id);
    return row && row.accountId === k.accountId ? row : null;
  });
});

type Contradiction = { row: LedgerRow; record: TransactionRecord | null; event: typeof gatewayNotifications.$inferSelect };

/**
 * Marks the notifications parked on these rows as confirmed (the gateway agrees) or contradicted
 * (it does not, or does not know the transaction), in the caller's transaction: the gateway wins
 * and the delivery is flagged in the inbox. The caller clears the rows' parked status.
 */
async function settleParkedIn(
  tx: Tx,
  rows: { row: LedgerRow; record: TransactionRecord | null }[],
  database: Awaited<ReturnType<typeof databaseCapabilities>>,
): Promise<{ signals: FeedNotification[]; contradicted: Contradiction[] }> {
  if (rows.length === 0) return { signals: [], contradicted: [] };
  const byId = new Map(rows.map((r) => [r.row.id, r]));
  const parked = await tx
    .select()
    .from(gatewayNotifications)
    .where(
      and(
        inArray(
          gatewayNotifications.ledgerId,
          rows.map((r) => r.row.id),
        ),
        eq(gatewayNotifications.confirmation, "confirming"),
      ),
    )
    .orderBy(asc(gatewayNotifications.id))
    .for("update");
  const contradicted: Contradiction[] = [];
  const confirmedIds: string[] = [];
  for (const event of parked) {
    const { row, record } = byId.get(event.ledgerId!)!;
    const machine = machineForOperation(row.kind);
    const gatewayState = record ? stateOf(machine, record.status) : null;
    if (gatewayState === null || stateOf(machine, event.status) !== gatewayState) contradicted.push({ row, record, event });
    else confirmedIds.push(event.id);
  }
  const mark = async (ids: string[], confirmation: "confirmed" | "contradicted") =>
    ids.length === 0
      ? []
      : tx
          .update(gatewayNotifications)
          .set({
            confirmation,
            ledgerOutcome: confirmation === "confirmed" ? "updated" : "refused",
            feedSeq: sql`nextval(pg_get_serial_sequence('gateway_notifications', 'feed_seq'))`,
          })
          .where(inArray(gatewayNotifications.id, ids))
          .returning();
  const changed = [
    ...(await mark(confirmedIds, "confirmed")),
    ...(await mark(
      contradicted.map((c) => c.event.id),
      "contradicted",
    )),
  ];
  const signals = changed.map((e) => toFeedNotification(e, true));
  await notifyFeed(tx, signals, database);
  return { signals, contradicted };
}

async function auditContradicted(contradicted: Contradiction[]): Promise<void> {
  for (const { row, record, event } of contradicted) {
    await writeAudit({
      accountId: row.accountId,
      action: "webhook.contradicted",
      target: event.id,
      details: { ledgerId: row.id, notified: event.status, gateway: record?.status ?? null, event: event.event },
    });
  }
}

/**
 * Marks the notifications parked on this row as confirmed or contradicted (see settleParkedIn),
 * an audit entry for each contradicted one, and clears the parked status.
 */
async function settleConfirmations(row: LedgerRow, record: TransactionRecord | null): Promise<LedgerRow> {
  const db = await getDb();
  const database = await databaseCapabilities();
  const { signals, contradicted, settled } = await db.transaction(async (tx) => {
    const [settledRow] = await tx
      .update(ledgerTransactions)
      .set({ pendingStatus: null, pendingStatusAt: null })
      .where(eq(ledgerTransactions.id, row.id))
      .returning();
    const parked = await settleParkedIn(tx, [{ row, record }], database);
    return { ...parked, settled: settledRow ?? row };
  });
  emitAfterCommit(signals, database);
  await auditContradicted(contradicted);
  return settled;
}
