import "server-only";
import { asc, getTableColumns, sql } from "drizzle-orm";
import { databaseCapabilities, tuneApplierQuery } from "@/lib/db/capabilities";
import { getDb, type Tx } from "@/lib/db/client";
import { ledgerTransactions } from "@/lib/db/schema";
import type { LedgerOutcome, WebhookConfirmation } from "@/lib/db/tables/webhooks";
import { emitLocally, FEED_CHANNEL } from "@/lib/feed/bus";
import { notificationOrigin } from "@/lib/gateway/origin";
import type { FeedEvent } from "@/lib/feed/types";
import { FEED_COLUMNS, feedEventJsonSql } from "@/lib/feed/signal";
import { ledgerStatusChange } from "@/lib/status/ledger";
import { enqueueChecks, openNotificationChecks } from "@/lib/submissions/checks";
import { isRecord, readPaymentNotification, redactPayload, type PaymentNotification } from "./payload";
import { applyTransferNotificationIn } from "./transfer-notifications";
import { createLogger } from "@/lib/log";

const log = createLogger("webhooks");

type LedgerRow = typeof ledgerTransactions.$inferSelect;
/** What the marking statement returns where the database notifies every process itself. */
type AppliedCounts = { applied: number; confirming: number };

const APPLY_BATCH = 256;
/** What the marking statement hands on to the feed signals: not the payload (`returning e.*` copied it for every row). */
const APPLIED_RETURNING = [...FEED_COLUMNS, "ledger_outcome"].map((column) => `e.${column}`).join(", ");
/** The wait before a round of the applier: short when events come one by one, long under a burst. */
const APPLY_WAIT_MIN_MS = 25;
const APPLY_WAIT_MAX_MS = 250;
const roundWait = (lastRound: number) => Math.min(APPLY_WAIT_MAX_MS, APPLY_WAIT_MIN_MS + 2 * lastRound);

type PendingEvent = {
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
 * may run it at once: each batch takes its events with `for update skip locked`. Returns how
 * many events it applied.
 */
export async function applyPendingEvents(limit = APPLY_BATCH): Promise<number> {
  const db = await getDb();
  const database = await databaseCapabilities();
  const outcome = await db.transaction(async (tx): Promise<{ applied: number; confirming: boolean; signals: string[] }> => {
    // The pending index is in this order: reading it in order stops after `limit` rows and learns
    // to skip entries of rows already applied. A bitmap scan (what the planner picks on a young
    // table) visited every one of them on every batch, slower as a burst went on.
    await tuneApplierQuery(tx, database);
    const events = (
      await tx.execute<PendingEvent>(sql`
        select id, account_id, first_received_at, last_received_at, payload, transfer_id, deliveries, ledger_outcome from webhook_events
        where apply_state = 'pending' order by first_received_at, feed_seq
        limit ${limit} for update skip locked`)
    ).rows;
    if (events.length === 0) return { applied: 0, confirming: false, signals: [] };

    // Transfer notifications were authenticated by the receiver against their transfer.
    const byTransfer = new Map<string, ApplyOutcome>();
    for (const event of events) {
      if (!event.transfer_id || !isRecord(event.payload)) continue;
      const applied = await applyTransferNotificationIn(tx, event.transfer_id, event.payload, {
        deliveries: Number(event.deliveries),
        receivedAt: new Date(event.last_received_at),
      });
      const outcome: LedgerOutcome = applied.first ? (applied.statusApplied ? "updated" : "stale") : (event.ledger_outcome ?? "stale");
      byTransfer.set(event.id, { ledgerId: null, outcome, confirmation: "unconfirmable" });
    }
    const items = events
      .filter((event) => !event.transfer_id)
      .map((event) => ({ event, n: isRecord(event.payload) ? readPaymentNotification(event.payload) : null }));
    const applicable = items.filter((i): i is { event: PendingEvent; n: PaymentNotification } => i.n !== null);
    const outcomes =
      applicable.length > 0
        ? await applyToLedger(
            tx,
            applicable.map(({ event, n }) => ({
              accountId: event.account_id,
              n,
              payload: event.payload as Record<string, unknown>,
              receivedAt: new Date(event.first_received_at),
            })),
          )
        : [];
    const byEvent = new Map([...applicable.map(({ event }, i): [string, ApplyOutcome] => [event.id, outcomes[i]]), ...byTransfer]);

    const values = events.map((event) => {
      const outcome = byEvent.get(event.id) ?? { ledgerId: null, outcome: "none" as const, confirmation: null };
      return { id: event.id, ledger_id: outcome.ledgerId, outcome: outcome.outcome, confirmation: outcome.confirmation };
    });
    const toConfirm = new Map<string, string>();
    const unconfirmed = new Map<string, { accountId: string; gatewayTransactionId: string }>();
    for (const { event, n } of applicable) {
      const outcome = byEvent.get(event.id)!;
      if (outcome.outcome !== "confirming") continue;
      if (outcome.ledgerId) toConfirm.set(outcome.ledgerId, event.account_id);
      else
        unconfirmed.set(`${event.account_id}\u0000${n.gatewayTransactionId}`, {
          accountId: event.account_id,
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
        update webhook_events as e set apply_state = 'applied', ledger_id = v.ledger_id, ledger_outcome = v.outcome,
          confirmation = v.confirmation, feed_seq = nextval(pg_get_serial_sequence('webhook_events', 'feed_seq'))
        from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(id text, ledger_id text, outcome text, confirmation text)
        where e.id = v.id
        returning ${sql.raw(APPLIED_RETURNING)}
      ),
      signals as (
        select ${feedEventJsonSql("updated", "updated.ledger_outcome in ('created', 'updated')")} as signal, confirmation from updated
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
  if (database.emitsLocally) for (const signal of outcome.signals) emitLocally(JSON.parse(signal) as FeedEvent);
  if (outcome.confirming) kickBackgroundWork();
  return outcome.applied;
}

type LedgerState = {
  row: Partial<LedgerRow> & { id: string; accountId: string; identifier: string; kind: LedgerRow["kind"] };
  /** The row as read, to write back only what the batch changed. */
  read: Partial<LedgerRow>;
};
type ApplyOutcome = { ledgerId: string | null; outcome: LedgerOutcome; confirmation: WebhookConfirmation | null };

/**
 * Records each notification on its ledger row through the status machine. A status that would
 * move money is parked as "confirming" until the gateway's lookup confirms it; out-of-order or
 * contradicting deliveries leave the status as it is. Missing descriptive fields are filled
 * either way. A notification about a transaction the ledger does not have creates nothing: it
 * waits in the inbox ("confirming", no ledger row) until the gateway's own lookup confirms the
 * transaction (lib/reconcile/notifications.ts), since the ledger holds only what the console
 * created and what the gateway confirmed.
 */
async function applyToLedger(
  tx: Tx,
  items: { accountId: string; n: PaymentNotification; payload: Record<string, unknown>; receivedAt: Date }[],
): Promise<ApplyOutcome[]> {
  // Key by key, so each lookup is one probe of a unique index whatever the planner knows of the
  // table: an OR of two lists per account was planned as a scan of the account's whole ledger
  // while a new table's statistics were still empty (`npm run bench:webhooks`).
  const keys = items.map(({ accountId, n }) => ({ a: accountId, g: n.gatewayTransactionId, i: n.identifier }));
  const existing = await tx
    .select(LEDGER_READ)
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

  const states: LedgerState[] = existing.map((row) => ({ row, read: { ...row } }));
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
  const outcomes = items.map(({ accountId, n, payload, receivedAt }): ApplyOutcome => {
    // The gateway's id is authoritative; a row with the same identifier but another gateway id is another transaction.
    const sameIdentifier = n.identifier ? byIdentifier.get(key(accountId, n.identifier)) : undefined;
    const state =
      byGatewayId.get(key(accountId, n.gatewayTransactionId)) ?? (sameIdentifier?.row.gatewayTransactionId ? undefined : sameIdentifier);
    const effectiveAt = n.reportedAt ?? receivedAt;
    if (!state) return { ledgerId: null, outcome: "confirming", confirmation: "confirming" };
    const row = state.row;
    const change = ledgerStatusChange(
      {
        kind: row.kind,
        status: row.status ?? null,
        statusAt: row.statusAt ?? null,
        paidAt: row.paidAt ?? null,
        pendingStatus: row.pendingStatus ?? null,
      },
      { status: n.status, source: "webhook", at: effectiveAt, paidAt: n.paidAt },
    );
    const filled: Partial<LedgerRow> = {
      gatewayTransactionId: row.gatewayTransactionId ?? n.gatewayTransactionId,
      paymentMethod: row.paymentMethod ?? n.paymentMethod,
      amountCents: row.amountCents ?? n.amountCents,
      feeCents: row.feeCents ?? n.feeCents,
      clientName: row.clientName ?? n.client.name,
      clientEmail: row.clientEmail ?? n.client.email,
      clientDocument: row.clientDocument ?? n.client.document,
      ...originFilled(row, payload),
    };
    // The row's time of change moves with what it says (status, facts filled), not with a hint parked for
    // confirmation: such a row then changes no indexed column, and Postgres updates it in place (migration 0016).
    const changesContent =
      change.outcome === "updated" || Object.entries(filled).some(([field, value]) => !sameValue(value, row[field as keyof LedgerRow]));
    Object.assign(row, filled, { lastWebhookStatus: n.status, lastWebhookAt: receivedAt }, change.set);
    if (changesContent) row.updatedAt = receivedAt;
    if (change.outcome === "updated" || change.outcome === "unchanged")
      row.gatewayRecord = redactPayload(n.transaction) as Record<string, unknown>;
    remember(state);
    const outcome: LedgerOutcome = change.outcome === "unchanged" ? "updated" : change.outcome;
    return { ledgerId: row.id, outcome, confirmation: change.outcome === "confirming" ? "confirming" : null };
  });

  // Changed rows go as one JSON parameter (a batch of typed parameters cost the worker and
  // Postgres more than the writes themselves), each with only the columns it changes: a parked
  // notification changes four, and the stored gateway record is neither read nor sent back.
  const updates = states.map(changedColumns).filter((changes) => changes !== null);
  if (updates.length > 0) {
    await tx.execute(sql`
      update ledger_transactions as l set ${sql.raw(LEDGER_UPDATE_SET)}
      from (select e->>'id' as id, e as c from jsonb_array_elements(${JSON.stringify(updates)}::jsonb) as e) as v
      where l.id = v.id`);
  }
  return outcomes;
}

/** The sale's origin facts the row still lacks, from the notification (sales reports): filled once known, never cleared. */
function originFilled(row: LedgerState["row"], payload: Record<string, unknown>) {
  if (row.utmSource && row.utmMedium && row.utmCampaign && row.productName && row.offerCode) return {};
  const origin = notificationOrigin(payload);
  return {
    utmSource: row.utmSource ?? origin.utmSource,
    utmMedium: row.utmMedium ?? origin.utmMedium,
    utmCampaign: row.utmCampaign ?? origin.utmCampaign,
    productName: row.productName ?? origin.productName,
    offerCode: row.offerCode ?? origin.offerCode,
  };
}

/** The ledger columns the applier updates (by their keys in the table). */
const UPDATED_KEYS = [
  "gatewayTransactionId",
  "paymentMethod",
  "amountCents",
  "feeCents",
  "clientName",
  "clientEmail",
  "clientDocument",
  "utmSource",
  "utmMedium",
  "utmCampaign",
  "productName",
  "offerCode",
  "paidAt",
  "status",
  "statusSource",
  "statusAt",
  "pendingStatus",
  "pendingStatusAt",
  "lastWebhookStatus",
  "lastWebhookAt",
  "gatewayRecord",
  "updatedAt",
] as const satisfies readonly (keyof LedgerRow)[];
const ledgerColumns = getTableColumns(ledgerTransactions);
/** Each column from the record's key of that name when present, else as it is; a JSON null is SQL null. */
const LEDGER_UPDATE_SET = UPDATED_KEYS.map((key) => {
  const { name } = ledgerColumns[key];
  const type = ledgerColumns[key].getSQLType();
  const value =
    type === "jsonb" ? `nullif(v.c->'${name}', 'null'::jsonb)` : type === "text" ? `v.c->>'${name}'` : `(v.c->>'${name}')::${type}`;
  return `${name} = case when v.c ? '${name}' then ${value} else l.${name} end`;
}).join(", ");
/**
 * What the applier reads of a row: what the notification may fill or move and what the status
 * machine decides on. The JSON it only ever replaces (the latest gateway record) or never touches
 * (the request and answer stored at creation) stays in the table.
 */
const READ_KEYS = [
  "id",
  ...UPDATED_KEYS.filter((key) => key !== "gatewayRecord"),
  "accountId",
  "identifier",
  "kind",
] as const satisfies readonly (keyof LedgerRow)[];
const LEDGER_READ = Object.fromEntries(READ_KEYS.map((key) => [key, ledgerColumns[key]])) as {
  [Key in (typeof READ_KEYS)[number]]: (typeof ledgerColumns)[Key];
};

const sameValue = (a: unknown, b: unknown) =>
  a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : (a ?? null) === (b ?? null);

/** The columns the batch changed in a row, by column name with its id, or null when it changed none. */
function changedColumns({ row, read }: LedgerState): Record<string, unknown> | null {
  const changes: Record<string, unknown> = { id: row.id };
  let changed = false;
  for (const key of UPDATED_KEYS) {
    if (sameValue(row[key], read[key])) continue;
    changes[ledgerColumns[key].name] = row[key] ?? null;
    changed = true;
  }
  return changed ? changes : null;
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
