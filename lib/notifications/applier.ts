import "server-only";
import { sql } from "drizzle-orm";
import { databaseCapabilities, tuneApplierQuery } from "@/lib/db/capabilities";
import { getDb } from "@/lib/db/client";
import type { LedgerOutcome } from "@/lib/db/tables/notifications";
import { emitLocally, FEED_CHANNEL, STORED_CHANNEL } from "@/lib/feed/bus";
import type { FeedNotification } from "@/lib/feed/types";
import { FEED_COLUMNS, feedNotificationJsonSql } from "@/lib/feed/signal";
import { enqueueChecks, openNotificationChecks, reconcileConfig } from "@/lib/submissions/checks";
import { isRecord, readPaymentNotification, type PaymentNotification } from "@/lib/gateway/notifications";
import { applyNotificationsToLedger, type ApplyOutcome } from "@/lib/ledger/notifications";
import { learnSubscriptionsIn } from "@/lib/subscriptions/learn";
import { applyTransferNotificationIn } from "./transfer-notifications";
import { defineJob, localSignal } from "@/lib/runtime/jobs";

/** What the marking statement returns where the database notifies every process itself. */
type AppliedCounts = { applied: number; confirming: number };

const APPLY_BATCH = 256;
/** What the marking statement hands on to the feed signals: not the payload (`returning e.*` copied it for every row). */
const APPLIED_RETURNING = [...FEED_COLUMNS, "ledger_outcome"].map((column) => `e.${column}`).join(", ");
/** The wait before a round of the applier: short when notifications come one by one, long under a burst. */
const APPLY_WAIT_MIN_MS = 25;
const APPLY_WAIT_MAX_MS = 250;

type PendingNotification = {
  id: string;
  account_id: string;
  first_received_at: Date | string;
  last_received_at: Date | string;
  payload: unknown;
  transfer_id: string | null;
  deliveries: number;
  ledger_outcome: LedgerOutcome | null;
};

/**
 * Turns stored notifications into ledger changes, oldest first, in batches. Several processes
 * may run it at once: each batch takes its notifications with `for update skip locked`. Returns how
 * many notifications it applied.
 */
export async function applyPendingNotifications(limit = APPLY_BATCH): Promise<number> {
  const db = await getDb();
  const database = await databaseCapabilities();
  const outcome = await db.transaction(async (tx): Promise<{ applied: number; confirming: boolean; signals: string[] }> => {
    // The pending index is in this order: reading it in order stops after `limit` rows and learns
    // to skip entries of rows already applied. A bitmap scan (what the planner picks on a young
    // table) visited every one of them on every batch, slower as a burst went on.
    await tuneApplierQuery(tx, database);
    const notifications = (
      await tx.execute<PendingNotification>(sql`
        select id, account_id, first_received_at, last_received_at, payload, transfer_id, deliveries, ledger_outcome from gateway_notifications
        where apply_state = 'pending' order by first_received_at, feed_seq
        limit ${limit} for update skip locked`)
    ).rows;
    if (notifications.length === 0) return { applied: 0, confirming: false, signals: [] };

    // Transfer notifications were authenticated by the receiver against their transfer.
    const byTransfer = new Map<string, ApplyOutcome>();
    for (const notification of notifications) {
      if (!notification.transfer_id || !isRecord(notification.payload)) continue;
      const applied = await applyTransferNotificationIn(tx, notification.transfer_id, notification.payload, {
        deliveries: Number(notification.deliveries),
        receivedAt: new Date(notification.last_received_at),
      });
      const outcome: LedgerOutcome = applied.first
        ? applied.statusApplied
          ? "updated"
          : "stale"
        : (notification.ledger_outcome ?? "stale");
      byTransfer.set(notification.id, { ledgerId: null, outcome, confirmation: "unconfirmable" });
    }
    const items = notifications
      .filter((notification) => !notification.transfer_id)
      .map((notification) => ({ notification, n: isRecord(notification.payload) ? readPaymentNotification(notification.payload) : null }));
    const applicable = items.filter((i): i is { notification: PendingNotification; n: PaymentNotification } => i.n !== null);
    const payments = applicable.map(({ notification, n }) => ({
      accountId: notification.account_id,
      n,
      payload: notification.payload as Record<string, unknown>,
      receivedAt: new Date(notification.first_received_at),
    }));
    const outcomes = payments.length > 0 ? await applyNotificationsToLedger(tx, payments) : [];
    await learnSubscriptionsIn(tx, payments);
    const byNotification = new Map([
      ...applicable.map(({ notification }, i): [string, ApplyOutcome] => [notification.id, outcomes[i]]),
      ...byTransfer,
    ]);

    const values = notifications.map((notification) => {
      const outcome = byNotification.get(notification.id) ?? { ledgerId: null, outcome: "none" as const, confirmation: null };
      return { id: notification.id, ledger_id: outcome.ledgerId, outcome: outcome.outcome, confirmation: outcome.confirmation };
    });
    const toConfirm = new Map<string, string>();
    const unconfirmed = new Map<string, { accountId: string; gatewayTransactionId: string }>();
    for (const { notification, n } of applicable) {
      const outcome = byNotification.get(notification.id)!;
      if (outcome.outcome !== "confirming") continue;
      if (outcome.ledgerId) toConfirm.set(outcome.ledgerId, notification.account_id);
      else
        unconfirmed.set(`${notification.account_id}\u0000${n.gatewayTransactionId}`, {
          accountId: notification.account_id,
          gatewayTransactionId: n.gatewayTransactionId,
        });
    }
    // Only ever brings a check forward (least of the two times): a notification never postpones one.
    await enqueueChecks(
      [...toConfirm].map(([ledgerId, accountId]) => ({
        accountId,
        target: "ledger" as const,
        targetId: ledgerId,
        reason: "confirm" as const,
        delayMs: 0,
      })),
      tx,
    );
    await openNotificationChecks([...unconfirmed.values()], tx);
    // One statement marks the batch applied and makes each row's feed signal in Postgres, from the
    // updated row, as the store does. On Postgres the same statement sends them to every process
    // at commit, and only counts come back; PGlite's feed is this process, so the signals do.
    const marked = sql`
      with updated as (
        update gateway_notifications as e set apply_state = 'applied', ledger_id = v.ledger_id, ledger_outcome = v.outcome,
          confirmation = v.confirmation, feed_seq = nextval(pg_get_serial_sequence('gateway_notifications', 'feed_seq'))
        from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(id text, ledger_id text, outcome text, confirmation text)
        where e.id = v.id
        returning ${sql.raw(APPLIED_RETURNING)}
      ),
      signals as (
        select ${feedNotificationJsonSql("updated", "updated.ledger_outcome in ('created', 'updated')")} as signal, confirmation from updated
      )`;
    if (database.notifiesOtherProcesses) {
      const [counts] = (
        await tx.execute<AppliedCounts>(sql`${marked}, sent as (select pg_notify(${FEED_CHANNEL}, signal) from signals)
          select count(*)::int as applied, (count(*) filter (where confirmation = 'confirming'))::int as confirming,
            (select count(*) from sent) as sent
          from signals`)
      ).rows;
      return { applied: counts.applied, confirming: counts.confirming > 0, signals: [] };
    }
    const rows = (
      await tx.execute<{ signal: string; confirmation: string | null }>(sql`${marked} select signal, confirmation from signals`)
    ).rows;
    return {
      applied: rows.length,
      confirming: rows.some((row) => row.confirmation === "confirming"),
      signals: rows.map((row) => row.signal),
    };
  });
  if (database.emitsLocally) for (const signal of outcome.signals) emitLocally(JSON.parse(signal) as FeedNotification);
  if (outcome.confirming) confirmationsDue.raise();
  return outcome.applied;
}

// ---------------------------------------------------------------------------
// The applier as a job (lib/runtime/jobs.ts): the receiver wakes it right after its commit, so a
// paid notification reaches the ledger and the feed without waiting for the next tick; the
// background worker hears the stored group's signal (STORED_CHANNEL) instead.
// ---------------------------------------------------------------------------

/** Raised after a batch that queued confirmations: the gateway checks job (lib/background) takes them at once. */
export const confirmationsDue = localSignal("confirmations-due");

export const applierJob = defineJob({
  name: "webhook-applier",
  wakeOn: [STORED_CHANNEL],
  intervalMs: () => reconcileConfig().intervalMs,
  // Waiting a moment before each woken pass lets one ledger transaction take many notifications instead
  // of the few that arrived during the last one: per notification, a batch of 256 costs the worker and
  // Postgres about two thirds of a batch of 32. The wait grows with the last pass, so a single
  // notification waits 25 ms and a burst 250 ms (`npm run bench:webhooks`: 901/s with 100 ms, 964/s
  // with 250 ms, the feed's p95 363 ms at 1,000/s).
  gatherMs: (lastCount) => Math.min(APPLY_WAIT_MAX_MS, APPLY_WAIT_MIN_MS + 2 * lastCount),
  // Where no driver keeps it running, the web process applies what it just stored, except with
  // RECONCILER=worker: the background process hears the stored notification's signal and applies it.
  onDemand: () => process.env.WEBHOOK_APPLIER !== "off" && process.env.RECONCILER !== "worker",
  async pass({ stopping }) {
    let applied = 0;
    for (let batch = APPLY_BATCH; batch === APPLY_BATCH && !stopping(); applied += batch) batch = await applyPendingNotifications();
    return applied;
  },
});

/** Wakes the applier in this process (the receiver, after its commit). */
export function kickApplier(): void {
  if (process.env.WEBHOOK_APPLIER === "off") return;
  applierJob.wake();
}
