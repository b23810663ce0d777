import "server-only";
import { sql } from "drizzle-orm";
import { writeAudit } from "@/lib/audit/log";
import { decryptSecret } from "@/lib/crypto/secrets";
import { getDb, rawDatabase } from "@/lib/db/client";
import type { DestinationKind } from "@/lib/db/tables/destinations";
import { createLogger } from "@/lib/log";
import type { DestinationMode } from "./address";
import { destinationConfig } from "./config";
import { postEvent, type SendErrorKind } from "./send";
import { signedHeaders, type SignedHeaders } from "./signing";
import { processState } from "@/lib/runtime/state";

const log = createLogger("destinations");
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
const jsonList = (values: readonly string[]) => sql`(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;

/** One attempt this process has claimed: nobody else sends this attempt number of this delivery. */
export type ClaimedAttempt = {
  deliveryId: string;
  destinationId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  roundStart: number;
  /** The event's body, the same bytes at every attempt. */
  body: string;
  occurredAt: Date;
  /** The destination's updated_at: a cached target is used only while it is the same. */
  destinationVersion: string;
};

/**
 * Claims due deliveries of enabled destinations: the attempt counter goes up and the delivery is
 * leased (its due time pushed past the send's timeout) under `for update skip locked`, and the
 * attempt is logged as started, all in one statement. Several processes on one Postgres never
 * claim the same attempt; a process that dies mid-send leaves a started attempt in the log and
 * the lease runs out, so another attempt (same `webhook-id`) follows.
 */
export async function claimAttempts(options: { limit: number; kind?: DestinationKind; destinationId?: string }): Promise<ClaimedAttempt[]> {
  if (options.limit <= 0) return [];
  const { query } = await rawDatabase();
  const { leaseMs } = destinationConfig();
  const rows = await query<{
    id: string;
    destination_id: string;
    event_id: string;
    event_type: string;
    attempts: number;
    round_start: number;
    body: string;
    occurred_at: Date | string;
    destination_version: string;
  }>(CLAIM_SQL, [options.kind ?? "http", options.destinationId ?? null, options.limit, leaseMs / 1000], "destinations_claim");
  return rows.map((r) => ({
    deliveryId: r.id,
    destinationId: r.destination_id,
    eventId: r.event_id,
    eventType: r.event_type,
    attempt: Number(r.attempts),
    roundStart: Number(r.round_start),
    body: r.body,
    occurredAt: new Date(r.occurred_at),
    destinationVersion: r.destination_version,
  }));
}

// One prepared statement (planned once per connection): the claim runs for every batch sent.
const CLAIM_SQL = `
  with due as (
    select d.id from destination_deliveries d join event_destinations e on e.id = d.destination_id
      join event_outbox eo on eo.id = d.event_id
    where d.state = 'pending' and d.next_at <= now() and e.state = 'enabled' and e.kind = $1
      and ($2::text is null or d.destination_id = $2::text)
    -- Deliveries fanned out together share next_at: the events' own order decides between them.
    order by d.next_at, eo.seq limit $3 for update of d skip locked),
  claimed as (
    update destination_deliveries d set attempts = d.attempts + 1, next_at = now() + make_interval(secs => $4::double precision),
      last_attempt_at = now()
    from due where d.id = due.id
    returning d.id, d.destination_id, d.event_id, d.event_type, d.attempts, d.round_start),
  started as (
    insert into destination_attempts (delivery_id, destination_id, event_id, event_type, attempt, started_at)
    select id, destination_id, event_id, event_type, attempts, now() from claimed
    returning delivery_id)
  select c.*, o.payload::text as body, o.occurred_at, e.updated_at::text as destination_version, (select count(*) from started) as logged
  from claimed c join event_outbox o on o.id = c.event_id join event_destinations e on e.id = c.destination_id`;

export type DeliveryTarget = { id: string; accountId: string; url: string; mode: DestinationMode; secrets: string[] };

/**
 * Targets (URL, decrypted secrets) are kept per destination version: a claim already says each
 * destination's updated_at, so an unchanged destination costs no query and no decryption, and a
 * changed URL or rotated secret is read at once. A rotation's overlap ends on its own clock.
 */
type CachedTarget = { version: string; target: DeliveryTarget; until: number };
const targetCache = processState("destination-targets", () => new Map<string, CachedTarget>());

/** The destinations of a batch, with the secrets to sign with (the previous one too while its overlap lasts). */
export async function loadTargets(
  claimed: readonly Pick<ClaimedAttempt, "destinationId" | "destinationVersion">[],
): Promise<Map<string, DeliveryTarget>> {
  const cache = targetCache();
  const now = Date.now();
  const found = new Map<string, DeliveryTarget>();
  const missing = new Set<string>();
  for (const { destinationId, destinationVersion } of claimed) {
    const cached = cache.get(destinationId);
    if (cached && cached.version === destinationVersion && cached.until > now) found.set(destinationId, cached.target);
    else missing.add(destinationId);
  }
  if (missing.size === 0) return found;
  if (cache.size > 10_000) cache.clear();
  for (const [id, { target, version, until }] of await readTargets([...missing])) {
    found.set(id, target);
    cache.set(id, { target, version, until });
  }
  return found;
}

async function readTargets(ids: readonly string[]): Promise<Map<string, { target: DeliveryTarget; version: string; until: number }>> {
  const db = await getDb();
  const rows = rowsOf<{
    id: string;
    account_id: string;
    url: string;
    mode: DestinationMode;
    secret_encrypted: string;
    previous_secret_encrypted: string | null;
    previous_expires_at: Date | string | null;
    version: string;
  }>(
    await db.execute(sql`
      select e.id, e.account_id, e.url, a.mode, e.secret_encrypted, e.previous_secret_encrypted,
        e.previous_secret_expires_at as previous_expires_at, e.updated_at::text as version
      from event_destinations e join gateway_accounts a on a.id = e.account_id
      where e.id in ${jsonList(ids)}`),
  );
  const now = Date.now();
  return new Map(
    rows.map((r) => {
      const secrets = [decryptSecret(r.secret_encrypted)];
      const previousUntil = r.previous_expires_at ? new Date(r.previous_expires_at).getTime() : 0;
      if (previousUntil > now && r.previous_secret_encrypted) secrets.push(decryptSecret(r.previous_secret_encrypted));
      const target = { id: r.id, accountId: r.account_id, url: r.url, mode: r.mode, secrets };
      // The account's mode (which addresses a send may reach) is not in the version: read again within a minute.
      return [
        r.id,
        { target, version: r.version, until: Math.min(now + 60_000, previousUntil > now ? previousUntil : Number.POSITIVE_INFINITY) },
      ];
    }),
  );
}

export function headersFor(target: DeliveryTarget, attempt: ClaimedAttempt, at = new Date()): SignedHeaders {
  return signedHeaders(target.secrets, attempt.eventId, attempt.body, at);
}

export type AttemptResult = {
  deliveryId: string;
  destinationId: string;
  attempt: number;
  roundStart: number;
  ok: boolean;
  status: number | null;
  error: SendErrorKind | "destination_missing" | null;
  excerpt: string | null;
  durationMs: number;
  retryAfterMs: number | null;
};

/** Sends one claimed attempt over HTTP. */
export async function sendAttempt(attempt: ClaimedAttempt, target: DeliveryTarget | undefined): Promise<AttemptResult> {
  const base = {
    deliveryId: attempt.deliveryId,
    destinationId: attempt.destinationId,
    attempt: attempt.attempt,
    roundStart: attempt.roundStart,
  };
  if (!target) return { ...base, ok: false, status: null, error: "destination_missing", excerpt: null, durationMs: 0, retryAfterMs: null };
  const result = await postEvent({
    url: target.url,
    mode: target.mode,
    headers: { ...headersFor(target, attempt) },
    body: attempt.body,
    secrets: target.secrets,
  });
  return {
    ...base,
    ok: result.ok,
    status: result.status,
    error: result.error,
    excerpt: result.excerpt,
    durationMs: result.durationMs,
    retryAfterMs: result.retryAfterMs,
  };
}

/** When the next attempt of a failed one is due, or null when it was the last. */
export function nextDelayMs(result: Pick<AttemptResult, "attempt" | "roundStart" | "status" | "retryAfterMs">): number | null {
  const { delaysMs, maxRetryAfterMs } = destinationConfig();
  if (result.status === 410) return null;
  const made = result.attempt - result.roundStart;
  if (made >= delaysMs.length) return null;
  const scheduled = delaysMs[made]!;
  // A 429 says when to come back: never earlier than that, at most 10 hours.
  const asked = result.status === 429 && result.retryAfterMs !== null ? Math.min(result.retryAfterMs, maxRetryAfterMs) : 0;
  return Math.max(scheduled, asked);
}

/**
 * Writes what a batch of attempts learned: the attempt log, each delivery (delivered, retried on
 * the schedule, or failed after the last attempt) and each destination's health. A 410 disables
 * its destination; so do `disableAfterMs` of nothing but failures. A result older than the
 * delivery's latest claim (its lease ran out and another attempt began) changes only its log line.
 */
export async function recordResults(results: readonly AttemptResult[], scope: { destinationId?: string } = {}): Promise<void> {
  if (results.length === 0) return;
  const { query } = await rawDatabase();
  const { disableAfterMs } = destinationConfig();
  const rows = results.map((r) => {
    const delay = r.ok ? null : nextDelayMs(r);
    return {
      delivery_id: r.deliveryId,
      attempt: r.attempt,
      ok: r.ok,
      status: r.status,
      error: r.error,
      excerpt: r.excerpt,
      duration_ms: r.durationMs,
      final: !r.ok && delay === null,
      delay_s: delay === null ? null : delay / 1000,
    };
  });
  const byDestination = new Map<string, { id: string; succeeded: boolean; failed: boolean; gone: boolean }>();
  for (const r of results) {
    const entry = byDestination.get(r.destinationId) ?? { id: r.destinationId, succeeded: false, failed: false, gone: false };
    if (r.ok) entry.succeeded = true;
    else entry.failed = true;
    if (r.status === 410) entry.gone = true;
    byDestination.set(r.destinationId, entry);
  }
  // A listen session reports for its own destination only (null: any).
  await query(RECORD_SQL, [JSON.stringify(rows), scope.destinationId ?? null], "destinations_record");
  const disabled = (
    await query<{ id: string; account_id: string; reason: string; was: string; now_state: string }>(
      HEALTH_SQL,
      [JSON.stringify([...byDestination.values()]), disableAfterMs / 1000],
      "destinations_health",
    )
  ).filter((row) => row.now_state === "disabled" && row.was !== "disabled");
  if (disabled.length === 0) return;
  await query(
    "update destination_deliveries set state = 'canceled', last_error = 'destination_disabled' where state = 'pending' and destination_id in (select jsonb_array_elements_text($1::jsonb))",
    [JSON.stringify(disabled.map((d) => d.id))],
  );
  for (const destination of disabled) {
    log.warn("destination disabled", { destinationId: destination.id, reason: destination.reason });
    await writeAudit({
      accountId: destination.account_id,
      action: "destination.disabled",
      target: destination.id,
      details: { reason: destination.reason },
    });
  }
}

/** The attempts' log lines and their deliveries, in one statement. */
const RECORD_SQL = `
  with r as (
    select * from jsonb_to_recordset($1::jsonb)
      as r(delivery_id text, attempt int, ok boolean, status int, error text, excerpt text, duration_ms int, final boolean, delay_s double precision)),
  logged as (
    update destination_attempts a set duration_ms = r.duration_ms, http_status = r.status, error = r.error, response_excerpt = r.excerpt,
      next_retry_at = case when r.delay_s is null then null else now() + make_interval(secs => r.delay_s) end
    from r where a.delivery_id = r.delivery_id and a.attempt = r.attempt and ($2::text is null or a.destination_id = $2::text)
    returning 1)
  update destination_deliveries d set
    state = case when r.ok then 'delivered' when r.final then 'failed' else 'pending' end,
    next_at = case when r.delay_s is null then d.next_at else now() + make_interval(secs => r.delay_s) end,
    delivered_at = case when r.ok then now() else d.delivered_at end,
    last_status = r.status, last_error = r.error
  from r where d.id = r.delivery_id and d.attempts = r.attempt and d.state = 'pending' and ($2::text is null or d.destination_id = $2::text)`;

/** Each destination's health after a batch; `before` reads the row as it was, to tell who was disabled just now. */
const HEALTH_SQL = `
  with r as (select * from jsonb_to_recordset($1::jsonb) as r(id text, succeeded boolean, failed boolean, gone boolean)),
  verdict as (
    select r.*, r.gone or (not r.succeeded and coalesce(e.failing_since, now()) <= now() - make_interval(secs => $2::double precision)) as disable
    from r join event_destinations e on e.id = r.id)
  update event_destinations e set
    last_attempt_at = now(),
    last_success_at = case when v.succeeded then now() else e.last_success_at end,
    failing_since = case when v.succeeded then null else coalesce(e.failing_since, now()) end,
    state = case when e.state <> 'disabled' and v.disable then 'disabled' else e.state end,
    disabled_reason = case when e.state <> 'disabled' and v.disable then (case when v.gone then 'gone' else 'failing' end) else e.disabled_reason end,
    disabled_at = case when e.state <> 'disabled' and v.disable then now() else e.disabled_at end
  from verdict v, event_destinations before
  where e.id = v.id and before.id = e.id
  returning e.id, e.account_id, e.disabled_reason as reason, before.state as was, e.state as now_state`;
