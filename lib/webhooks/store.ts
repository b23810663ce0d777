import "server-only";
import { sql } from "drizzle-orm";
import { getDb, getDbDriver } from "@/lib/db/client";
import { webhookEvents } from "@/lib/db/schema";
import type { LedgerOutcome, WebhookConfirmation, WebhookEventKind } from "@/lib/db/tables/webhooks";
import { emitLocally } from "@/lib/feed/bus";
import { notifyFeed, toFeedEvent } from "./feed-signal";
import { redactPayload, type ParsedPaymentNotification } from "./payload";
import { kickApplier } from "./applier";

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
  confirmation?: WebhookConfirmation | null;
  ledgerOutcome?: LedgerOutcome;
};

/** What the store hands back: every column but the payload, which the caller already has. */
export type StoredEvent = Omit<typeof webhookEvents.$inferSelect, "payload">;

const RECORD_TYPES = [
  "account_id text", "dedupe_key text", "kind text", "event text", "gateway_transaction_id text", "identifier text",
  "status text", "payment_method text", "amount_cents bigint", "payload jsonb", "deliveries integer",
  "first_received_at timestamptz", "last_received_at timestamptz", "source_ip text", "ledger_outcome text",
  "confirmation text", "apply_state text",
].join(", ");
const INSERTED_COLUMNS = RECORD_TYPES.split(", ").map((column) => column.split(" ")[0]).join(", ");
const RETURNED_COLUMNS = [
  "id", "account_id", "dedupe_key", "kind", "event", "gateway_transaction_id", "identifier", "status", "payment_method",
  "amount_cents", "ledger_id", "ledger_outcome", "apply_state", "confirmation", "deliveries", "first_received_at",
  "last_received_at", "source_ip", "feed_seq",
].join(", ");

type RawStoredRow = Record<string, unknown>;
const orNull = <T>(value: unknown) => (value === null || value === undefined ? null : (value as T));

/** Rows as the driver returns them (snake_case; int8 as text on node-postgres) into the table's own shape. */
function fromRaw(row: RawStoredRow): StoredEvent {
  return {
    id: row.id as string,
    accountId: row.account_id as string,
    dedupeKey: row.dedupe_key as string,
    kind: row.kind as StoredEvent["kind"],
    event: orNull(row.event),
    gatewayTransactionId: orNull(row.gateway_transaction_id),
    identifier: orNull(row.identifier),
    status: orNull(row.status),
    paymentMethod: orNull(row.payment_method),
    amountCents: row.amount_cents === null || row.amount_cents === undefined ? null : Number(row.amount_cents),
    ledgerId: orNull(row.ledger_id),
    ledgerOutcome: orNull(row.ledger_outcome),
    applyState: row.apply_state as StoredEvent["applyState"],
    confirmation: orNull(row.confirmation),
    deliveries: Number(row.deliveries),
    firstReceivedAt: new Date(row.first_received_at as string | Date),
    lastReceivedAt: new Date(row.last_received_at as string | Date),
    sourceIp: orNull(row.source_ip),
    feedSeq: Number(row.feed_seq),
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
  // A few groups in flight: while they commit the next ones fill up. With one, the receiver
  // waited on the database with a core to spare (`npm run bench:webhooks`: 689/s with one, 952/s
  // with two, 1,000/s with four). PGlite has a single connection anyway.
  const maxActive = (await getDbDriver()) === "postgres" ? Number(process.env.WEBHOOK_STORE_CONCURRENCY ?? 4) : 1;
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
  return (await storeBatch([input]))[0];
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
    // processes: exactly one insert wins; the others become counted repeats of it. The whole
    // group travels as one JSON parameter: building a query of 17 parameters per row cost more
    // CPU than the insert itself (measured with BENCH_CPU_PROF).
    const records = ordered.map(({ input, count, first, last }) => ({
      account_id: input.accountId,
      dedupe_key: input.dedupeKey,
      kind: input.kind,
      event: input.event,
      gateway_transaction_id: input.gatewayTransactionId,
      identifier: input.identifier,
      status: input.status,
      payment_method: input.paymentMethod,
      amount_cents: input.amountCents,
      payload: redactPayload(input.payload),
      deliveries: count,
      first_received_at: first,
      last_received_at: last,
      source_ip: input.sourceIp,
      ledger_outcome: input.ledgerOutcome ?? "none",
      confirmation: input.confirmation ?? null,
      // Payment notifications reach the ledger through the applier, after this commit.
      apply_state: input.notification ? "pending" : "applied",
    }));
    const result = await tx.execute(sql`
      insert into webhook_events (${sql.raw(INSERTED_COLUMNS)})
      select ${sql.raw(INSERTED_COLUMNS)}
      from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r(${sql.raw(RECORD_TYPES)})
      on conflict (account_id, dedupe_key) do update set
        deliveries = webhook_events.deliveries + excluded.deliveries,
        last_received_at = greatest(webhook_events.last_received_at, excluded.last_received_at),
        feed_seq = nextval(pg_get_serial_sequence('webhook_events', 'feed_seq'))
      returning ${sql.raw(RETURNED_COLUMNS)}`);
    // Not the payload: parsing every stored body back costs more than the insert itself.
    const upserted = (result as unknown as { rows: RawStoredRow[] }).rows.map(fromRaw);

    const byKey = new Map(upserted.map((r) => [`${r.accountId}\u0000${r.dedupeKey}`, r]));
    const signals = upserted.map((row) => toFeedEvent(row));
    await notifyFeed(tx, signals, driver);
    return { rows: byKey, signals };
  });
  if (driver === "pglite") for (const signal of signals) emitLocally(signal);
  kickApplier();
  return inputs.map((input) => rows.get(`${input.accountId}\u0000${input.dedupeKey}`)!);
}
