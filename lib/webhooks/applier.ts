import "server-only";
import { randomUUID } from "node:crypto";
import { asc, getTableColumns, sql } from "drizzle-orm";
import { getDb, getDbDriver } from "@/lib/db/client";
import { ledgerTransactions } from "@/lib/db/schema";
import type { LedgerOutcome, WebhookConfirmation } from "@/lib/db/tables/webhooks";
import { emitLocally, FEED_CHANNEL } from "@/lib/feed/bus";
import type { FeedEvent } from "@/lib/feed/types";
import { enqueueChecks } from "@/lib/reconcile/checks";
import { ledgerStatusChange } from "@/lib/status/ledger";
import { needsConfirmation, transactionMachine } from "@/lib/status/machine";
import { feedEventJsonSql, type Tx } from "./feed-signal";
import { isRecord, parseTime, readPaymentNotification, redactPayload, type PaymentNotification } from "./payload";
import { createLogger } from "@/lib/log";

const log = createLogger("webhooks");

type LedgerRow = typeof ledgerTransactions.$inferSelect;

const APPLY_BATCH = 256;
/** The wait before a round of the applier: short when events come one by one, long under a burst. */
const APPLY_WAIT_MIN_MS = 25;
const APPLY_WAIT_MAX_MS = 250;
const roundWait = (lastRound: number) => Math.min(APPLY_WAIT_MAX_MS, APPLY_WAIT_MIN_MS + 2 * lastRound);

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

type PendingEvent = { id: string; account_id: string; first_received_at: Date | string; payload: unknown };

async function applyBatch(limit: number): Promise<number> {
  const db = await getDb();
  const driver = await getDbDriver();
  const outcome = await db.transaction(async (tx): Promise<{ applied: number; confirming: boolean; signals: string[] }> => {
    // The pending index is in this order: reading it in order stops after `limit` rows and learns
    // to skip entries of rows already applied. A bitmap scan (what the planner picks on a young
    // table) visited every one of them on every batch, slower as a burst went on.
    if (driver === "postgres") await tx.execute(sql`set local enable_bitmapscan = off`);
    const events = rowsOf<PendingEvent>(
      await tx.execute(sql`
        select id, account_id, first_received_at, payload from webhook_events
        where apply_state = 'pending' order by first_received_at, feed_seq
        limit ${limit} for update skip locked`),
    );
    if (events.length === 0) return { applied: 0, confirming: false, signals: [] };

    const items = events.map((event) => ({ event, n: isRecord(event.payload) ? readPaymentNotification(event.payload) : null }));
    const applicable = items.filter((i): i is { event: PendingEvent; n: PaymentNotification } => i.n !== null);
    const outcomes =
      applicable.length > 0
        ? await applyToLedger(tx, applicable.map(({ event, n }) => ({ accountId: event.account_id, n, receivedAt: new Date(event.first_received_at) })))
        : [];
    const byEvent = new Map(applicable.map(({ event }, i) => [event.id, outcomes[i]]));

    const values = events.map((event) => {
      const outcome = byEvent.get(event.id) ?? { ledgerId: null, outcome: "none" as const, confirmation: null };
      return { id: event.id, ledger_id: outcome.ledgerId, outcome: outcome.outcome, confirmation: outcome.confirmation };
    });
    const toConfirm = new Map<string, string>();
    for (const { event } of applicable) {
      const outcome = byEvent.get(event.id)!;
      if (outcome.outcome === "confirming" && outcome.ledgerId) toConfirm.set(outcome.ledgerId, event.account_id);
    }
    await enqueueChecks(
      [...toConfirm].map(([ledgerId, accountId]) => ({ accountId, target: "ledger" as const, targetId: ledgerId, reason: "confirm" as const, delayMs: 0 })),
      tx,
    );
    // One statement marks the batch applied and makes each row's feed signal in Postgres, from the
    // updated row, as the store does. On Postgres the same statement sends them to every process
    // at commit, and only counts come back; PGlite's feed is this process, so the signals do.
    const marked = sql`
      with updated as (
        update webhook_events as e set apply_state = 'applied', ledger_id = v.ledger_id, ledger_outcome = v.outcome,
          confirmation = v.confirmation, feed_seq = nextval(pg_get_serial_sequence('webhook_events', 'feed_seq'))
        from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(id text, ledger_id text, outcome text, confirmation text)
        where e.id = v.id
        returning e.*
      ),
      signals as (
        select ${feedEventJsonSql("updated", "updated.ledger_outcome in ('created', 'updated')")} as signal, confirmation from updated
      )`;
    if (driver === "postgres") {
      const [counts] = rowsOf<{ applied: number; confirming: number }>(
        await tx.execute(sql`${marked}, sent as (select pg_notify(${FEED_CHANNEL}, signal) from signals)
          select count(*)::int as applied, (count(*) filter (where confirmation = 'confirming'))::int as confirming,
            (select count(*) from sent) as sent
          from signals`),
      );
      return { applied: counts.applied, confirming: counts.confirming > 0, signals: [] };
    }
    const rows = rowsOf<{ signal: string; confirmation: string | null }>(await tx.execute(sql`${marked} select signal, confirmation from signals`));
    return { applied: rows.length, confirming: rows.some((row) => row.confirmation === "confirming"), signals: rows.map((row) => row.signal) };
  });
  for (const signal of outcome.signals) emitLocally(JSON.parse(signal) as FeedEvent);
  if (outcome.confirming) kickBackgroundWork();
  return outcome.applied;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

type LedgerState = { row: Partial<LedgerRow> & { id: string; accountId: string; identifier: string; kind: LedgerRow["kind"] }; isNew: boolean; dirty: boolean };
type ApplyOutcome = { ledgerId: string | null; outcome: LedgerOutcome; confirmation: WebhookConfirmation | null };

/**
 * Records each notification on its ledger row through the status machine, or creates the row
 * for a transaction the console did not create. A status that would move money is parked as
 * "confirming" until the gateway's lookup confirms it; out-of-order or contradicting deliveries
 * leave the status as it is. Missing descriptive fields are filled either way.
 */
async function applyToLedger(tx: Tx, items: { accountId: string; n: PaymentNotification; receivedAt: Date }[]): Promise<ApplyOutcome[]> {
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
  // The batch's rows by (account, gateway id) and (account, identifier): both are unique per
  // account, so each key names at most one row (a scan of every row per event was quadratic).
  const key = (accountId: string, value: string) => `${accountId}\u0000${value}`;
  const byGatewayId = new Map<string, LedgerState>();
  const byIdentifier = new Map<string, LedgerState>();
  const remember = (state: LedgerState) => {
    const { accountId, gatewayTransactionId, identifier } = state.row;
    if (gatewayTransactionId) byGatewayId.set(key(accountId, gatewayTransactionId), state);
    byIdentifier.set(key(accountId, identifier), state);
  };
  states.forEach(remember);
  const outcomes = items.map(({ accountId, n, receivedAt }): ApplyOutcome => {
    // The gateway's id is authoritative; a row with the same identifier but another gateway id is another transaction.
    const sameIdentifier = n.identifier ? byIdentifier.get(key(accountId, n.identifier)) : undefined;
    let state = byGatewayId.get(key(accountId, n.gatewayTransactionId)) ?? (sameIdentifier?.row.gatewayTransactionId ? undefined : sameIdentifier);
    const effectiveAt = n.reportedAt ?? receivedAt;
    if (!state) {
      const identifier = [n.identifier ?? n.gatewayTransactionId, n.gatewayTransactionId].find((c) => !byIdentifier.has(key(accountId, c)));
      if (!identifier) return { ledgerId: null, outcome: "none", confirmation: null };
      const confirm = needsConfirmation(transactionMachine, n.status);
      state = { row: externalRow(randomUUID(), accountId, identifier, n, effectiveAt, receivedAt, confirm), isNew: true, dirty: true };
      states.push(state);
      remember(state);
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
    remember(state);
    const outcome: LedgerOutcome = change.outcome === "unchanged" ? "updated" : change.outcome;
    return { ledgerId: row.id, outcome, confirmation: change.outcome === "confirming" ? "confirming" : null };
  });

  // New rows and changed rows each go as one JSON parameter: a batch of typed parameters (25 a
  // new row) cost the worker and Postgres more than the writes themselves.
  const inserts = states.filter((s) => s.isNew).map((s) => ledgerRecord(s.row));
  if (inserts.length > 0) {
    const created = rowsOf<{ id: string }>(
      await tx.execute(sql`
        insert into ledger_transactions (${sql.raw(LEDGER_INSERT_NAMES)})
        select ${sql.raw(LEDGER_INSERT_NAMES)} from jsonb_to_recordset(${JSON.stringify(inserts)}::jsonb) as r(${sql.raw(LEDGER_INSERT_TYPES)})
        on conflict do nothing
        returning id`),
    );
    if (created.length !== inserts.length) throw new LedgerRaceError("ledger row created concurrently");
  }
  const updates = states.filter((s) => s.dirty && !s.isNew).map((s) => ledgerRecord(s.row));
  if (updates.length > 0) {
    await tx.execute(sql`
      update ledger_transactions as l set ${sql.raw(LEDGER_UPDATE_SET)}
      from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) as v(id text, ${sql.raw(LEDGER_UPDATE_TYPES)})
      where l.id = v.id`);
  }
  return outcomes;
}

/** The ledger columns the applier updates (by their keys in the table); a new row also has NEW_ROW_KEYS. */
const UPDATED_KEYS = [
  "gatewayTransactionId", "paymentMethod", "amountCents", "feeCents", "clientName", "clientEmail", "clientDocument", "paidAt",
  "status", "statusSource", "statusAt", "pendingStatus", "pendingStatusAt", "lastWebhookStatus", "lastWebhookAt",
  "gatewayRecord", "updatedAt",
] as const satisfies readonly (keyof LedgerRow)[];
const NEW_ROW_KEYS = ["id", "accountId", "kind", "identifier", "origin", "currency", "createdAt", ...UPDATED_KEYS] as const satisfies readonly (keyof LedgerRow)[];
const ledgerColumns = getTableColumns(ledgerTransactions);
const columnList = (keys: readonly (keyof LedgerRow)[]) => keys.map((key) => ledgerColumns[key].name).join(", ");
const recordType = (keys: readonly (keyof LedgerRow)[]) => keys.map((key) => `${ledgerColumns[key].name} ${ledgerColumns[key].getSQLType()}`).join(", ");
const LEDGER_INSERT_NAMES = columnList(NEW_ROW_KEYS);
const LEDGER_INSERT_TYPES = recordType(NEW_ROW_KEYS);
const LEDGER_UPDATE_TYPES = recordType(UPDATED_KEYS);
const LEDGER_UPDATE_SET = UPDATED_KEYS.map((key) => `${ledgerColumns[key].name} = v.${ledgerColumns[key].name}`).join(", ");

/** A ledger row as the JSON record the statements above read, by column name (absent as null). */
function ledgerRecord(row: LedgerState["row"]): Record<string, unknown> {
  return Object.fromEntries(NEW_ROW_KEYS.map((key) => [ledgerColumns[key].name, row[key] ?? null]));
}

function externalRow(
  id: string,
  accountId: string,
  identifier: string,
  n: PaymentNotification,
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
      // Waiting a moment before each round lets one ledger transaction take many events instead
      // of the few that arrived during the last one: per event, a batch of 256 costs the worker and
      // Postgres about two thirds of a batch of 32. The wait grows with the last round, so a single
      // event waits 25 ms and a burst 250 ms (`npm run bench:webhooks`: 901/s with 100 ms, 964/s
      // with 250 ms, the feed's p95 363 ms at 1,000/s).
      let lastRound = 0;
      do {
        r.again = false;
        await new Promise((resolve) => setTimeout(resolve, roundWait(lastRound)));
        lastRound = 0;
        for (let batch = APPLY_BATCH; batch === APPLY_BATCH; lastRound += batch) batch = await applyPendingEvents();
      } while (r.again);
    } catch (error) {
      // The events stay pending: the background loop applies them on its next tick.
      log.error("applier failed", { error });
    } finally {
      r.applying = false;
    }
  })();
}
