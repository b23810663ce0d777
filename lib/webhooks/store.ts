import "server-only";
import { randomUUID } from "node:crypto";
import { and, asc, eq, getTableColumns, inArray, or, sql, type SQL } from "drizzle-orm";
import { getDb, getDbDriver, type Database } from "@/lib/db/client";
import { ledgerTransactions, webhookEvents } from "@/lib/db/schema";
import type { WebhookEventKind } from "@/lib/db/tables/webhooks";
import { isKnownWebhookEvent } from "@/lib/gateway/schemas";
import { emitLocally, FEED_CHANNEL } from "@/lib/feed/bus";
import type { FeedEvent } from "@/lib/feed/types";
import { parseTime, redactPayload, type ParsedPaymentNotification } from "./payload";

export type StoreInput = {
  accountId: string;
  receivedAt: Date;
  sourceIp: string | null;
  kind: WebhookEventKind;
  dedupeKey: string;
  event: string | null;
  gatewayTransactionId: string | null;
  identifier: string | null;
  status: string | null;
  paymentMethod: string | null;
  amountCents: number | null;
  payload: Record<string, unknown>;
  notification: ParsedPaymentNotification | null;
};

export type StoredEvent = typeof webhookEvents.$inferSelect;
type LedgerRow = typeof ledgerTransactions.$inferSelect;
type LedgerOutcome = "created" | "updated" | "stale" | "none";
type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

export function toFeedEvent(row: StoredEvent, ledgerChanged = false): FeedEvent {
  return {
    id: row.id,
    accountId: row.accountId,
    seq: Number(row.feedSeq),
    kind: row.kind,
    event: row.event,
    known: row.kind === "payment" && row.event !== null && isKnownWebhookEvent(row.event),
    gatewayTransactionId: row.gatewayTransactionId,
    identifier: row.identifier,
    status: row.status,
    paymentMethod: row.paymentMethod,
    amountCents: row.amountCents === null ? null : Number(row.amountCents),
    ledgerId: row.ledgerId,
    ledgerChanged,
    deliveries: row.deliveries,
    firstReceivedAt: row.firstReceivedAt.toISOString(),
    lastReceivedAt: row.lastReceivedAt.toISOString(),
  };
}

// ---------------------------------------------------------------------------
// Group commit: deliveries arriving while a transaction is running are stored together in
// the next one (a handful of statements for the whole group), each answered after its commit.
// An idle receiver runs each delivery at once, alone.
// ---------------------------------------------------------------------------

type Job = { input: StoreInput; resolve: (event: StoredEvent) => void; reject: (error: unknown) => void };
type Queue = { jobs: Job[]; active: number };
const MAX_BATCH = 64;
const queueKey = Symbol.for("merchant-console.webhook-store-queue");

function queue(): Queue {
  const g = globalThis as typeof globalThis & { [queueKey]?: Queue };
  return (g[queueKey] ??= { jobs: [], active: 0 });
}

export function storeEvent(input: StoreInput): Promise<StoredEvent> {
  return new Promise((resolve, reject) => {
    queue().jobs.push({ input, resolve, reject });
    void kick();
  });
}

async function kick(): Promise<void> {
  const q = queue();
  if (q.jobs.length === 0) return;
  // One group in flight per process: while it commits the next one fills up. Measured on
  // Postgres, parallel groups only contend for the same index pages and locks (slower, and
  // the p99 grows); PGlite has a single connection anyway. Processes scale out instead.
  const maxActive = (await getDbDriver()) === "postgres" ? Number(process.env.WEBHOOK_STORE_CONCURRENCY ?? 1) : 1;
  while (q.active < maxActive && q.jobs.length > 0) {
    const jobs = q.jobs.splice(0, MAX_BATCH);
    q.active++;
    void runJobs(jobs).finally(() => {
      q.active--;
      void kick();
    });
  }
}

async function storeAlone(input: StoreInput): Promise<StoredEvent> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await storeBatch([input]))[0];
    } catch (error) {
      if (!(error instanceof LedgerRaceError) || attempt >= 3) throw error;
    }
  }
}

async function runJobs(jobs: Job[]): Promise<void> {
  if (jobs.length === 1) {
    await storeAlone(jobs[0].input).then(jobs[0].resolve, jobs[0].reject);
    return;
  }
  try {
    const stored = await storeBatch(jobs.map((j) => j.input));
    jobs.forEach((job, i) => job.resolve(stored[i]));
  } catch {
    // A lock conflict with a concurrent group (or any failure): each delivery again, alone.
    for (const job of jobs) await storeAlone(job.input).then(job.resolve, job.reject);
  }
}

class LedgerRaceError extends Error {}

async function storeBatch(inputs: StoreInput[]): Promise<StoredEvent[]> {
  const db = await getDb();
  const driver = await getDbDriver();
  const { rows, signals } = await db.transaction(async (tx) => {
    // Copies of one notification inside the group count as deliveries of one row.
    const groups = new Map<string, { input: StoreInput; count: number; first: Date; last: Date }>();
    for (const input of inputs) {
      const key = `${input.accountId}\u0000${input.dedupeKey}`;
      const group = groups.get(key);
      if (!group) groups.set(key, { input, count: 1, first: input.receivedAt, last: input.receivedAt });
      else {
        group.count++;
        if (input.receivedAt < group.first) group.first = input.receivedAt;
        if (input.receivedAt > group.last) group.last = input.receivedAt;
      }
    }
    // A stable order of row locks across concurrent groups.
    const ordered = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => g);

    // The unique index decides, even for copies arriving at the same moment in other
    // processes: exactly one insert wins; the others become counted repeats of it.
    const upserted = await tx
      .insert(webhookEvents)
      .values(
        ordered.map(({ input, count, first, last }) => ({
          accountId: input.accountId,
          dedupeKey: input.dedupeKey,
          kind: input.kind,
          event: input.event,
          gatewayTransactionId: input.gatewayTransactionId,
          identifier: input.identifier,
          status: input.status,
          paymentMethod: input.paymentMethod,
          amountCents: input.amountCents,
          payload: redactPayload(input.payload),
          deliveries: count,
          firstReceivedAt: first,
          lastReceivedAt: last,
          sourceIp: input.sourceIp,
          ledgerOutcome: "none" as const,
        })),
      )
      .onConflictDoUpdate({
        target: [webhookEvents.accountId, webhookEvents.dedupeKey],
        set: {
          deliveries: sql`${webhookEvents.deliveries} + excluded.deliveries`,
          lastReceivedAt: sql`greatest(${webhookEvents.lastReceivedAt}, excluded.last_received_at)`,
          feedSeq: sql`nextval(pg_get_serial_sequence('webhook_events', 'feed_seq'))`,
        },
      })
      .returning({ ...getTableColumns(webhookEvents), inserted: sql<boolean>`(xmax = 0)` });

    const byKey = new Map(upserted.map((r) => [`${r.accountId}\u0000${r.dedupeKey}`, r]));
    const fresh = ordered
      .map((g) => ({ group: g, row: byKey.get(`${g.input.accountId}\u0000${g.input.dedupeKey}`)! }))
      .filter(({ group, row }) => row.inserted && group.input.notification);
    fresh.sort((a, b) => a.group.first.getTime() - b.group.first.getTime());

    const changed = new Set<string>();
    if (fresh.length > 0) {
      const outcomes = await applyToLedger(
        tx,
        fresh.map(({ group }) => ({ accountId: group.input.accountId, n: group.input.notification!, receivedAt: group.first })),
      );
      const values = fresh.map(({ row }, i) => {
        row.ledgerId = outcomes[i].ledgerId;
        row.ledgerOutcome = outcomes[i].outcome;
        if (outcomes[i].outcome === "created" || outcomes[i].outcome === "updated") changed.add(row.id);
        return sql`(${row.id}::text, ${row.ledgerId}::text, ${row.ledgerOutcome}::text)`;
      });
      await tx.execute(sql`
        update webhook_events as e set ledger_id = v.ledger_id, ledger_outcome = v.outcome
        from (values ${sql.join(values, sql`, `)}) as v(id, ledger_id, outcome)
        where e.id = v.id`);
    }

    const signals = upserted.map((row) => toFeedEvent(row, changed.has(row.id)));
    if (driver === "postgres") {
      const payloads = signals.map((s) => sql`(${JSON.stringify(s)}::text)`);
      await tx.execute(sql`select pg_notify(${FEED_CHANNEL}, p) from (values ${sql.join(payloads, sql`, `)}) as t(p)`);
    }
    return { rows: byKey, signals };
  });
  if (driver === "pglite") for (const signal of signals) emitLocally(signal);
  return inputs.map((input) => withoutInsertedFlag(rows.get(`${input.accountId}\u0000${input.dedupeKey}`)!));
}

function withoutInsertedFlag(row: StoredEvent & { inserted?: boolean }): StoredEvent {
  const copy = { ...row };
  delete copy.inserted;
  return copy;
}

// ---------------------------------------------------------------------------
// Ledger
// ---------------------------------------------------------------------------

type LedgerState = { row: Partial<LedgerRow> & { id: string; accountId: string; identifier: string }; isNew: boolean; dirty: boolean };

/**
 * Records each notification's status on its ledger row, or creates the row for a transaction
 * the console did not create. Never regresses: a notification describing an earlier moment than
 * the last webhook status applied (by the transaction's own timestamps; arrival time when it has
 * none) only fills missing fields.
 */
async function applyToLedger(
  tx: Tx,
  items: { accountId: string; n: ParsedPaymentNotification; receivedAt: Date }[],
): Promise<{ ledgerId: string | null; outcome: LedgerOutcome }[]> {
  const byAccount = new Map<string, { gatewayIds: Set<string>; identifiers: Set<string> }>();
  for (const { accountId, n } of items) {
    const entry = byAccount.get(accountId) ?? { gatewayIds: new Set(), identifiers: new Set() };
    entry.gatewayIds.add(n.gatewayTransactionId);
    entry.identifiers.add(n.gatewayTransactionId);
    if (n.identifier) entry.identifiers.add(n.identifier);
    byAccount.set(accountId, entry);
  }
  const conditions: SQL[] = [...byAccount.entries()].map(
    ([accountId, { gatewayIds, identifiers }]) =>
      and(
        eq(ledgerTransactions.accountId, accountId),
        or(inArray(ledgerTransactions.gatewayTransactionId, [...gatewayIds]), inArray(ledgerTransactions.identifier, [...identifiers])),
      )!,
  );
  const existing = await tx
    .select()
    .from(ledgerTransactions)
    .where(conditions.length === 1 ? conditions[0] : or(...conditions))
    .orderBy(asc(ledgerTransactions.id))
    .for("update");

  const states: LedgerState[] = existing.map((row) => ({ row, isNew: false, dirty: false }));
  const outcomes = items.map(({ accountId, n, receivedAt }) => {
    const mine = states.filter((s) => s.row.accountId === accountId);
    // The gateway's id is authoritative; a row with the same identifier but another gateway id is another transaction.
    let state =
      mine.find((s) => s.row.gatewayTransactionId === n.gatewayTransactionId) ??
      (n.identifier ? mine.find((s) => !s.row.gatewayTransactionId && s.row.identifier === n.identifier) : undefined);
    const effectiveAt = n.reportedAt ?? receivedAt;
    if (!state) {
      const taken = new Set(mine.map((s) => s.row.identifier));
      const identifier = [n.identifier ?? n.gatewayTransactionId, n.gatewayTransactionId].find((c) => !taken.has(c));
      if (!identifier) return { ledgerId: null, outcome: "none" as const };
      state = { row: externalRow(randomUUID(), accountId, identifier, n, effectiveAt, receivedAt), isNew: true, dirty: true };
      states.push(state);
      return { ledgerId: state.row.id, outcome: "created" as const };
    }
    const row = state.row;
    const stale = row.statusSource === "webhook" && !!row.statusAt && row.statusAt > effectiveAt;
    Object.assign(row, {
      gatewayTransactionId: row.gatewayTransactionId ?? n.gatewayTransactionId,
      paymentMethod: row.paymentMethod ?? n.paymentMethod,
      amountCents: row.amountCents ?? n.amountCents,
      feeCents: row.feeCents ?? n.feeCents,
      clientName: row.clientName ?? n.client.name,
      clientEmail: row.clientEmail ?? n.client.email,
      clientDocument: row.clientDocument ?? n.client.document,
      paidAt: row.paidAt ?? n.paidAt,
      updatedAt: receivedAt,
    });
    if (!stale) {
      Object.assign(row, {
        paidAt: n.paidAt ?? row.paidAt,
        status: n.status,
        statusSource: "webhook",
        statusAt: effectiveAt,
        lastWebhookStatus: n.status,
        lastWebhookAt: receivedAt,
        gatewayRecord: redactPayload(n.transaction) as Record<string, unknown>,
      });
    }
    state.dirty = true;
    return { ledgerId: row.id, outcome: stale ? ("stale" as const) : ("updated" as const) };
  });

  const inserts = states.filter((s) => s.isNew).map((s) => s.row as typeof ledgerTransactions.$inferInsert);
  if (inserts.length > 0) {
    const created = await tx.insert(ledgerTransactions).values(inserts).onConflictDoNothing().returning({ id: ledgerTransactions.id });
    // Another transaction created one of these rows meanwhile: redo this group (it will find it).
    if (created.length !== inserts.length) throw new LedgerRaceError("ledger row created concurrently");
  }
  const updates = states.filter((s) => s.dirty && !s.isNew).map((s) => s.row);
  if (updates.length > 0) {
    // One statement for the whole group, however many rows it touches.
    const time = (value: Date | null | undefined) => (value ? value.toISOString() : null);
    const values = updates.map(
      (row) => sql`(${row.id}::text, ${row.gatewayTransactionId ?? null}::text, ${row.paymentMethod ?? null}::text,
        ${row.amountCents ?? null}::bigint, ${row.feeCents ?? null}::bigint, ${row.clientName ?? null}::text,
        ${row.clientEmail ?? null}::text, ${row.clientDocument ?? null}::text, ${time(row.paidAt)}::timestamptz,
        ${row.status ?? null}::text, ${row.statusSource ?? null}::text, ${time(row.statusAt)}::timestamptz,
        ${row.lastWebhookStatus ?? null}::text, ${time(row.lastWebhookAt)}::timestamptz,
        ${row.gatewayRecord ? JSON.stringify(row.gatewayRecord) : null}::jsonb, ${time(row.updatedAt)}::timestamptz)`,
    );
    await tx.execute(sql`
      update ledger_transactions as l set
        gateway_transaction_id = v.gateway_transaction_id, payment_method = v.payment_method,
        amount_cents = v.amount_cents, fee_cents = v.fee_cents, client_name = v.client_name,
        client_email = v.client_email, client_document = v.client_document, paid_at = v.paid_at,
        status = v.status, status_source = v.status_source, status_at = v.status_at,
        last_webhook_status = v.last_webhook_status, last_webhook_at = v.last_webhook_at,
        gateway_record = v.gateway_record, updated_at = v.updated_at
      from (values ${sql.join(values, sql`, `)}) as v(id, gateway_transaction_id, payment_method, amount_cents, fee_cents,
        client_name, client_email, client_document, paid_at, status, status_source, status_at, last_webhook_status,
        last_webhook_at, gateway_record, updated_at)
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
): LedgerState["row"] {
  return {
    id,
    accountId,
    kind: "external",
    identifier,
    origin: "webhook",
    gatewayTransactionId: n.gatewayTransactionId,
    status: n.status,
    statusSource: "webhook",
    statusAt: effectiveAt,
    lastWebhookStatus: n.status,
    lastWebhookAt: receivedAt,
    paymentMethod: n.paymentMethod,
    amountCents: n.amountCents,
    feeCents: n.feeCents,
    currency: typeof n.transaction.currency === "string" ? n.transaction.currency.slice(0, 10) : "BRL",
    clientName: n.client.name,
    clientEmail: n.client.email,
    clientDocument: n.client.document,
    gatewayRecord: redactPayload(n.transaction) as Record<string, unknown>,
    createdAt: parseTime(n.transaction.createdAt) ?? receivedAt,
    updatedAt: receivedAt,
    paidAt: n.paidAt,
  };
}
