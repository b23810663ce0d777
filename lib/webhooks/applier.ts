import "server-only";
import { randomUUID } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import { getDb, getDbDriver } from "@/lib/db/client";
import { ledgerTransactions, webhookEvents } from "@/lib/db/schema";
import type { LedgerOutcome, WebhookConfirmation } from "@/lib/db/tables/webhooks";
import { emitLocally } from "@/lib/feed/bus";
import { enqueueChecks } from "@/lib/reconcile/checks";
import { ledgerStatusChange } from "@/lib/status/ledger";
import { needsConfirmation, transactionMachine } from "@/lib/status/machine";
import { FEED_COLUMNS, fromFeedColumns, notifyFeed, toFeedEvent, type Tx } from "./feed-signal";
import { parsePaymentNotification, parseTime, redactPayload, type ParsedPaymentNotification } from "./payload";
import { createLogger } from "@/lib/log";

const log = createLogger("webhooks");

type LedgerRow = typeof ledgerTransactions.$inferSelect;
type StoredEvent = typeof webhookEvents.$inferSelect;

const APPLY_BATCH = 256;
const APPLY_COALESCE_MS = 50;

class LedgerRaceError extends Error {}

/**
 * Turns stored notifications into ledger changes, oldest first, in batches. Several processes
 * may run it at once: each batch takes its events with `for update skip locked`. Returns how
 * many events it applied.
 */
export async function applyPendingEvents(limit = APPLY_BATCH): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await applyBatch(limit);
    } catch (error) {
      // Two batches created the same external row at once: the next try finds it.
      if (!(error instanceof LedgerRaceError) || attempt >= 3) throw error;
    }
  }
}

async function applyBatch(limit: number): Promise<number> {
  const db = await getDb();
  const driver = await getDbDriver();
  const signals = await db.transaction(async (tx) => {
    // The pending index is in this order: reading it in order stops after `limit` rows and learns
    // to skip entries of rows already applied. A bitmap scan (what the planner picks on a young
    // table) visited every one of them on every batch, slower as a burst went on.
    if (driver === "postgres") await tx.execute(sql`set local enable_bitmapscan = off`);
    const events = await tx
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.applyState, "pending"))
      .orderBy(asc(webhookEvents.firstReceivedAt), asc(webhookEvents.feedSeq))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (events.length === 0) return [];

    const items = events.map((event) => ({ event, n: parsePaymentNotification(event.payload as Record<string, unknown>) }));
    const applicable = items.filter((i): i is { event: StoredEvent; n: ParsedPaymentNotification } => i.n !== null);
    const outcomes = applicable.length > 0 ? await applyToLedger(tx, applicable.map(({ event, n }) => ({ accountId: event.accountId, n, receivedAt: event.firstReceivedAt }))) : [];
    const byEvent = new Map(applicable.map(({ event }, i) => [event.id, outcomes[i]]));

    const values = events.map((event) => {
      const outcome = byEvent.get(event.id) ?? { ledgerId: null, outcome: "none" as const, confirmation: null };
      return { id: event.id, ledger_id: outcome.ledgerId, outcome: outcome.outcome, confirmation: outcome.confirmation };
    });
    const updated = await tx.execute(sql`
      update webhook_events as e set apply_state = 'applied', ledger_id = v.ledger_id, ledger_outcome = v.outcome,
        confirmation = v.confirmation, feed_seq = nextval(pg_get_serial_sequence('webhook_events', 'feed_seq'))
      from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(id text, ledger_id text, outcome text, confirmation text)
      where e.id = v.id
      returning ${sql.raw(FEED_COLUMNS.map((c) => `e.${c}`).join(", "))}`);
    const rows = (updated as unknown as { rows: Record<string, unknown>[] }).rows.map(fromFeedColumns);

    const toConfirm = new Map<string, string>();
    for (const { event } of applicable) {
      const outcome = byEvent.get(event.id)!;
      if (outcome.outcome === "confirming" && outcome.ledgerId) toConfirm.set(outcome.ledgerId, event.accountId);
    }
    await enqueueChecks(
      [...toConfirm].map(([ledgerId, accountId]) => ({ accountId, target: "ledger" as const, targetId: ledgerId, reason: "confirm" as const, delayMs: 0 })),
      tx,
    );
    const signals = rows.map((row) => {
      const outcome = byEvent.get(row.id)?.outcome;
      return toFeedEvent(row, outcome === "created" || outcome === "updated");
    });
    await notifyFeed(tx, signals, driver);
    return signals;
  });
  if (driver === "pglite") for (const signal of signals) emitLocally(signal);
  if (signals.some((s) => s.confirmation === "confirming")) kickBackgroundWork();
  return signals.length;
}

type LedgerState = { row: Partial<LedgerRow> & { id: string; accountId: string; identifier: string; kind: LedgerRow["kind"] }; isNew: boolean; dirty: boolean };
type ApplyOutcome = { ledgerId: string | null; outcome: LedgerOutcome; confirmation: WebhookConfirmation | null };

/**
 * Records each notification on its ledger row through the status machine, or creates the row
 * for a transaction the console did not create. A status that would move money is parked as
 * "confirming" until the gateway's lookup confirms it; out-of-order or contradicting deliveries
 * leave the status as it is. Missing descriptive fields are filled either way.
 */
async function applyToLedger(tx: Tx, items: { accountId: string; n: ParsedPaymentNotification; receivedAt: Date }[]): Promise<ApplyOutcome[]> {
  // Key by key, so each lookup is one probe of a unique index whatever the planner knows of the
  // table: an OR of two lists per account was planned as a scan of the account's whole ledger
  // while a new table's statistics were still empty (`npm run bench:webhooks`).
  const keys = items.map(({ accountId, n }) => ({ a: accountId, g: n.gatewayTransactionId, i: n.identifier }));
  const existing = await tx
    .select()
    .from(ledgerTransactions)
    .where(
      sql`${ledgerTransactions.id} = any(array(
        select l.id from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as k(a text, g text, i text)
        cross join lateral (
          select id from ledger_transactions where account_id = k.a and gateway_transaction_id = k.g
          union all
          select id from ledger_transactions where account_id = k.a and identifier in (k.g, k.i)
        ) l))`,
    )
    .orderBy(asc(ledgerTransactions.id))
    .for("update");

  const states: LedgerState[] = existing.map((row) => ({ row, isNew: false, dirty: false }));
  const outcomes = items.map(({ accountId, n, receivedAt }): ApplyOutcome => {
    const mine = states.filter((s) => s.row.accountId === accountId);
    // The gateway's id is authoritative; a row with the same identifier but another gateway id is another transaction.
    let state =
      mine.find((s) => s.row.gatewayTransactionId === n.gatewayTransactionId) ??
      (n.identifier ? mine.find((s) => !s.row.gatewayTransactionId && s.row.identifier === n.identifier) : undefined);
    const effectiveAt = n.reportedAt ?? receivedAt;
    if (!state) {
      const taken = new Set(mine.map((s) => s.row.identifier));
      const identifier = [n.identifier ?? n.gatewayTransactionId, n.gatewayTransactionId].find((c) => !taken.has(c));
      if (!identifier) return { ledgerId: null, outcome: "none", confirmation: null };
      const confirm = needsConfirmation(transactionMachine, n.status);
      state = { row: externalRow(randomUUID(), accountId, identifier, n, effectiveAt, receivedAt, confirm), isNew: true, dirty: true };
      states.push(state);
      return { ledgerId: state.row.id, outcome: confirm ? "confirming" : "created", confirmation: confirm ? "confirming" : null };
    }
    const row = state.row;
    const change = ledgerStatusChange(
      { kind: row.kind, status: row.status ?? null, statusAt: row.statusAt ?? null, paidAt: row.paidAt ?? null, pendingStatus: row.pendingStatus ?? null },
      { status: n.status, source: "webhook", at: effectiveAt, paidAt: n.paidAt },
    );
    Object.assign(row, {
      gatewayTransactionId: row.gatewayTransactionId ?? n.gatewayTransactionId,
      paymentMethod: row.paymentMethod ?? n.paymentMethod,
      amountCents: row.amountCents ?? n.amountCents,
      feeCents: row.feeCents ?? n.feeCents,
      clientName: row.clientName ?? n.client.name,
      clientEmail: row.clientEmail ?? n.client.email,
      clientDocument: row.clientDocument ?? n.client.document,
      lastWebhookStatus: n.status,
      lastWebhookAt: receivedAt,
      updatedAt: receivedAt,
      ...change.set,
    });
    if (change.outcome === "updated" || change.outcome === "unchanged") row.gatewayRecord = redactPayload(n.transaction) as Record<string, unknown>;
    state.dirty = true;
    const outcome: LedgerOutcome = change.outcome === "unchanged" ? "updated" : change.outcome;
    return { ledgerId: row.id, outcome, confirmation: change.outcome === "confirming" ? "confirming" : null };
  });

  const inserts = states.filter((s) => s.isNew).map((s) => s.row as typeof ledgerTransactions.$inferInsert);
  if (inserts.length > 0) {
    const created = await tx.insert(ledgerTransactions).values(inserts).onConflictDoNothing().returning({ id: ledgerTransactions.id });
    if (created.length !== inserts.length) throw new LedgerRaceError("ledger row created concurrently");
  }
  const updates = states.filter((s) => s.dirty && !s.isNew).map((s) => s.row);
  if (updates.length > 0) {
    // One statement for the whole batch, however many rows it touches.
    const time = (value: Date | null | undefined) => (value ? value.toISOString() : null);
    const values = updates.map(
      (row) => sql`(${row.id}::text, ${row.gatewayTransactionId ?? null}::text, ${row.paymentMethod ?? null}::text,
        ${row.amountCents ?? null}::bigint, ${row.feeCents ?? null}::bigint, ${row.clientName ?? null}::text,
        ${row.clientEmail ?? null}::text, ${row.clientDocument ?? null}::text, ${time(row.paidAt)}::timestamptz,
        ${row.status ?? null}::text, ${row.statusSource ?? null}::text, ${time(row.statusAt)}::timestamptz,
        ${row.pendingStatus ?? null}::text, ${time(row.pendingStatusAt)}::timestamptz,
        ${row.lastWebhookStatus ?? null}::text, ${time(row.lastWebhookAt)}::timestamptz,
        ${row.gatewayRecord ? JSON.stringify(row.gatewayRecord) : null}::jsonb, ${time(row.updatedAt)}::timestamptz)`,
    );
    await tx.execute(sql`
      update ledger_transactions as l set
        gateway_transaction_id = v.gateway_transaction_id, payment_method = v.payment_method,
        amount_cents = v.amount_cents, fee_cents = v.fee_cents, client_name = v.client_name,
        client_email = v.client_email, client_document = v.client_document, paid_at = v.paid_at,
        status = v.status, status_source = v.status_source, status_at = v.status_at,
        pending_status = v.pending_status, pending_status_at = v.pending_status_at,
        last_webhook_status = v.last_webhook_status, last_webhook_at = v.last_webhook_at,
        gateway_record = v.gateway_record, updated_at = v.updated_at
      from (values ${sql.join(values, sql`, `)}) as v(id, gateway_transaction_id, payment_method, amount_cents, fee_cents,
        client_name, client_email, client_document, paid_at, status, status_source, status_at, pending_status,
        pending_status_at, last_webhook_status, last_webhook_at, gateway_record, updated_at)
      where l.id = v.id`);
  }
  return outcomes;
}

function externalRow(
  id: string,
  accountId: string,
  identifier: string,
  n: ParsedPaymentNotification,
  effectiveAt: Date,
  receivedAt: Date,
  confirm: boolean,
): LedgerState["row"] {
  return {
    id,
    accountId,
    kind: "external",
    identifier,
    origin: "webhook",
    gatewayTransactionId: n.gatewayTransactionId,
    // A transaction first heard of as paid (or refunded…) has no believed status until the gateway confirms it.
    status: confirm ? null : n.status,
    statusSource: confirm ? null : "webhook",
    statusAt: confirm ? null : effectiveAt,
    pendingStatus: confirm ? n.status : null,
    pendingStatusAt: confirm ? effectiveAt : null,
    lastWebhookStatus: n.status,
    lastWebhookAt: receivedAt,
    paymentMethod: n.paymentMethod,
    amountCents: n.amountCents,
    feeCents: n.feeCents,
    currency: typeof n.transaction.currency === "string" ? n.transaction.currency.slice(0, 10) : "BRL",
    clientName: n.client.name,
    clientEmail: n.client.email,
    clientDocument: n.client.document,
    gatewayRecord: confirm ? undefined : (redactPayload(n.transaction) as Record<string, unknown>),
    createdAt: parseTime(n.transaction.createdAt) ?? receivedAt,
    updatedAt: receivedAt,
    paidAt: null,
  };
}

// ---------------------------------------------------------------------------
// In-process scheduling: the receiver kicks the applier right after its commit, so a paid
// notification reaches the ledger and the feed without waiting for the next timer tick.
// ---------------------------------------------------------------------------

type Runner = { applying: boolean; again: boolean; background: (() => void) | null };
const runnerKey = Symbol.for("merchant-console.webhook-applier");

function runner(): Runner {
  const g = globalThis as typeof globalThis & { [runnerKey]?: Runner };
  return (g[runnerKey] ??= { applying: false, again: false, background: null });
}

/** Lets the background loop (lib/reconcile/runner.ts) be woken when confirmations are due. */
export function onConfirmationsDue(wake: () => void): void {
  runner().background = wake;
}

function kickBackgroundWork(): void {
  runner().background?.();
}

export function kickApplier(): void {
  const r = runner();
  // With RECONCILER=worker the background process hears the stored event's signal and applies it.
  if (process.env.WEBHOOK_APPLIER === "off" || process.env.RECONCILER === "worker") return;
  if (r.applying) {
    r.again = true;
    return;
  }
  r.applying = true;
  void (async () => {
    try {
      // Under a burst, waiting a moment lets one ledger transaction take many events instead of
      // a few each time, which leaves the CPU to the receiver; the feed still hears well within 1 s.
      await new Promise((resolve) => setTimeout(resolve, APPLY_COALESCE_MS));
      do {
        r.again = false;
        while ((await applyPendingEvents()) > 0) {
          // keep draining while there is work
        }
      } while (r.again);
    } catch (error) {
      // The events stay pending: the background loop applies them on its next tick.
      log.error("applier failed", { error });
    } finally {
      r.applying = false;
    }
  })();
}
