import "server-only";
import { capabilitiesOf, type DatabaseCapabilities } from "@/lib/db/capabilities";
import { rawDatabase, type RawQuery } from "@/lib/db/client";
import type { LedgerOutcome, WebhookConfirmation, NotificationKind, WebhookSanitized } from "@/lib/db/tables/notifications";
import { emitLocally, FEED_CHANNEL, STORED_CHANNEL } from "@/lib/feed/bus";
import type { FeedNotification } from "@/lib/feed/types";
import { FEED_COLUMNS, feedNotificationJsonText } from "@/lib/feed/signal";
import { redactingReplacer, type ParsedPaymentNotification } from "@/lib/gateway/notifications";
import { kickApplier } from "./applier";
import { createLogger } from "@/lib/log";
import { processState } from "@/lib/runtime/state";

const log = createLogger("webhooks");

export type StoreInput = {
  accountId: string;
  receivedAt: Date;
  sourceIp: string | null;
  kind: NotificationKind;
  dedupeKey: string;
  event: string | null;
  gatewayTransactionId: string | null;
  identifier: string | null;
  status: string | null;
  paymentMethod: string | null;
  amountCents: number | null;
  payload: Record<string, unknown>;
  notification: ParsedPaymentNotification | null;
  /** An authenticated transfer notification's transfer: the applier applies it (lib/notifications/transfer-notifications.ts). */
  transferId?: string | null;
  confirmation?: WebhookConfirmation | null;
  ledgerOutcome?: LedgerOutcome;
  /** Set when `payload` is a sanitised copy (lib/notifications/sanitize.ts); then `rawBody` is the body as received, tokens redacted. */
  sanitized?: WebhookSanitized | null;
  rawBody?: string | null;
};

/** What the store hands back for one delivery: the stored row and how often it has been delivered. */
export type StoreReceipt = { id: string; deliveries: number };

const RECORD_TYPES = [
  "account_id text",
  "dedupe_key text",
  "kind text",
  "event text",
  "gateway_transaction_id text",
  "identifier text",
  "status text",
  "payment_method text",
  "amount_cents bigint",
  "payload jsonb",
  "deliveries integer",
  "first_received_at timestamptz",
  "last_received_at timestamptz",
  "source_ip text",
  "ledger_outcome text",
  "confirmation text",
  "apply_state text",
  "sanitized text",
  "raw_body bytea",
  "transfer_id text",
].join(", ");
const INSERTED_COLUMNS = RECORD_TYPES.split(", ")
  .map((column) => column.split(" ")[0])
  .join(", ");
const SIGNAL_COLUMNS = ["dedupe_key", ...FEED_COLUMNS].join(", ");
// The group as one JSON parameter ($1). The unique index decides, even for copies arriving at the
// same moment in other processes: exactly one insert wins; the others become counted repeats of it.
const STORE_STATEMENT = `
  with stored as (
    insert into gateway_notifications (${INSERTED_COLUMNS})
    select ${INSERTED_COLUMNS}
    from jsonb_to_recordset($1::jsonb) as r(${RECORD_TYPES})
    on conflict (account_id, dedupe_key) do update set
      deliveries = gateway_notifications.deliveries + excluded.deliveries,
      last_received_at = greatest(gateway_notifications.last_received_at, excluded.last_received_at),
      feed_seq = nextval(pg_get_serial_sequence('gateway_notifications', 'feed_seq')),
      -- A repeated transfer notification goes to the applier again: it counts the delivery on the transfer.
      apply_state = case when gateway_notifications.transfer_id is not null then 'pending' else gateway_notifications.apply_state end
    returning ${SIGNAL_COLUMNS}
  ),
  signals as (
    select id, case when apply_state = 'applied' then ${feedNotificationJsonText("stored")} end as signal from stored
  ),
  sent as (
    select pg_notify('${FEED_CHANNEL}', signal) from signals where signal is not null
  )
  select stored.id, stored.account_id, stored.dedupe_key, stored.deliveries, stored.apply_state, signals.signal, (select count(*) from sent) as sent
  from stored join signals using (id)`;

type ReceiptRow = {
  id: string;
  account_id: string;
  dedupe_key: string;
  deliveries: number | string;
  apply_state: string;
  signal: string | null;
};

// ---------------------------------------------------------------------------
// Group commit: deliveries arriving while a transaction is running are stored together in
// the next one (a handful of statements for the whole group), each answered after its commit.
// An idle receiver runs each delivery at once, alone.
// ---------------------------------------------------------------------------

type Job = { input: StoreInput; resolve: (receipt: StoreReceipt) => void; reject: (error: unknown) => void };
type Queue = { jobs: Job[]; active: number };
const MAX_BATCH = 64;
const queue = processState<Queue>("webhook-store-queue", () => ({ jobs: [], active: 0 }));

export function storeNotification(input: StoreInput): Promise<StoreReceipt> {
  return new Promise((resolve, reject) => {
    queue().jobs.push({ input, resolve, reject });
    kick();
  });
}

type Writer = { database: DatabaseCapabilities; query: RawQuery };

/** Starts groups while fewer than the allowed number are in flight; no await once the database is open. */
function kick(): void {
  const q = queue();
  if (q.jobs.length === 0) return;
  const database = rawDatabase();
  if (database instanceof Promise) {
    database.then(kick, (error: unknown) => q.jobs.splice(0).forEach((job) => job.reject(error)));
    return;
  }
  // A few groups in flight: while they commit the next ones fill up. With one, the receiver
  // waited on the database with a core to spare (`npm run bench:webhooks`: 689/s with one, 952/s
  // with two, 1,000/s with four). PGlite has a single connection anyway.
  const capabilities = capabilitiesOf(database);
  const maxActive = capabilities.concurrentWriters(Number(process.env.WEBHOOK_STORE_CONCURRENCY ?? 4));
  while (q.active < maxActive && q.jobs.length > 0) {
    const jobs = q.jobs.splice(0, MAX_BATCH);
    q.active++;
    void runJobs({ database: capabilities, query: database.query }, jobs).finally(() => {
      q.active--;
      kick();
    });
  }
}

async function runJobs(database: Writer, jobs: Job[]): Promise<void> {
  if (jobs.length > 1) {
    try {
      const stored = await storeBatch(
        database,
        jobs.map((j) => j.input),
      );
      jobs.forEach((job, i) => job.resolve(stored[i]));
      return;
    } catch {
      // A lock conflict with a concurrent group (or any failure): each delivery again, alone.
    }
  }
  for (const job of jobs) await storeBatch(database, [job.input]).then(([receipt]) => job.resolve(receipt), job.reject);
}

/**
 * One statement, so one round trip and its own transaction. Rows that are already applied (a
 * transfer, an unknown shape, a repeat of an applied notification) send their feed event inside
 * it, so a committed change is never missing from the live feed. Deliveries waiting for the
 * applier send nothing inside it: a transaction that notifies holds Postgres's one notify lock
 * through its commit's WAL flush, and with a signal in every group the groups committed one at a
 * time (`npm run bench:webhooks`, pg_stat_activity: half the inserts waited on Lock:object).
 * Their wake-up goes after the commit (wakeAppliers); one lost with the process is caught by the
 * background loop's timer.
 */
async function storeBatch({ database, query }: Writer, inputs: StoreInput[]): Promise<StoreReceipt[]> {
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

  // One JSON parameter for the whole group: 17 parameters a row cost more CPU than the insert itself.
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
    payload: input.payload,
    deliveries: count,
    first_received_at: first,
    last_received_at: last,
    source_ip: input.sourceIp,
    ledger_outcome: input.ledgerOutcome ?? "none",
    confirmation: input.confirmation ?? null,
    // Payment and transfer notifications are applied by the applier, after this commit.
    apply_state: input.notification || input.transferId ? "pending" : "applied",
    sanitized: input.sanitized ?? null,
    // bytea's hex input form: a JSON string can carry any bytes that way.
    raw_body: input.rawBody == null ? null : `\\x${Buffer.from(input.rawBody, "utf8").toString("hex")}`,
    transfer_id: input.transferId ?? null,
  }));
  // Record keys are fixed and none is secret: the replacer redacts inside the payloads only.
  const rows = await query<ReceiptRow>(STORE_STATEMENT, [JSON.stringify(records, redactingReplacer)], "webhook_store_group");
  // PGlite is one process: its feed hears the signals here, after the statement committed.
  if (database.emitsLocally) for (const row of rows) if (row.signal) emitLocally(JSON.parse(row.signal) as FeedNotification);
  if (rows.some((row) => row.apply_state === "pending")) {
    kickApplier();
    if (database.notifiesOtherProcesses) wakeAppliers(query);
  }
  const byKey = new Map(
    rows.map((row) => [`${row.account_id}\u0000${row.dedupe_key}`, { id: row.id, deliveries: Number(row.deliveries) }]),
  );
  return inputs.map((input) => byKey.get(`${input.accountId}\u0000${input.dedupeKey}`)!);
}

// ---------------------------------------------------------------------------
// Wake-ups for the appliers of every process (STORED_CHANNEL), after the commit and outside
// any transaction that wrote. At most one every WAKE_EVERY_MS per process: a burst's groups
// share one, and the last group of a burst always gets its own (the trailing one).
// ---------------------------------------------------------------------------

// An applier waits at least 25 ms before each round anyway (lib/notifications/applier.ts): closer wake-ups
// only found it awake, each a notifying transaction of its own (a statement log of a burst: 964
// of them for 10,000 deliveries at 10 ms).
const WAKE_EVERY_MS = 25;
type Waker = { lastAt: number; trailing: NodeJS.Timeout | null };
const waker = processState<Waker>("webhook-store-waker", () => ({ lastAt: 0, trailing: null }));

function wakeAppliers(query: RawQuery): void {
  const w = waker();
  if (w.trailing) return;
  const wait = w.lastAt + WAKE_EVERY_MS - Date.now();
  if (wait > 0) {
    w.trailing = setTimeout(() => {
      w.trailing = null;
      wakeAppliers(query);
    }, wait);
    return;
  }
  w.lastAt = Date.now();
  query(`select pg_notify('${STORED_CHANNEL}', '')`, []).catch((error: unknown) =>
    log.warn("applier wake-up not sent; the background loop applies on its next tick", { error }),
  );
}
