import "server-only";
import { sql } from "drizzle-orm";
import { writeAudit } from "@/lib/audit/log";
import { decryptSecret } from "@/lib/crypto/secrets";
import { getDb } from "@/lib/db/client";
import type { DestinationKind } from "@/lib/db/tables/destinations";
import { createLogger } from "@/lib/log";
import type { DestinationMode } from "./address";
import { destinationConfig } from "./config";
import { postEvent, type SendErrorKind } from "./send";
import { signedHeaders, type SignedHeaders } from "./signing";

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
  const db = await getDb();
  const { leaseMs } = destinationConfig();
  const only = options.destinationId ? sql`and d.destination_id = ${options.destinationId}` : sql``;
  const rows = rowsOf<{
    id: string;
    destination_id: string;
    event_id: string;
    event_type: string;
    attempts: number;
    round_start: number;
    body: string;
    occurred_at: Date | string;
  }>(
    await db.execute(sql`
      with due as (
        select d.id from destination_deliveries d join event_destinations e on e.id = d.destination_id
        where d.state = 'pending' and d.next_at <= now() and e.state = 'enabled' and e.kind = ${options.kind ?? "http"} ${only}
        order by d.next_at limit ${options.limit} for update of d skip locked),
      claimed as (
        update destination_deliveries d set attempts = d.attempts + 1, next_at = now() + make_interval(secs => ${leaseMs / 1000}),
          last_attempt_at = now()
        from due where d.id = due.id
        returning d.id, d.destination_id, d.event_id, d.event_type, d.attempts, d.round_start),
      started as (
        insert into destination_attempts (delivery_id, destination_id, event_id, event_type, attempt, started_at)
        select id, destination_id, event_id, event_type, attempts, now() from claimed
        returning delivery_id)
      select c.*, o.payload::text as body, o.occurred_at, (select count(*) from started) as logged
      from claimed c join event_outbox o on o.id = c.event_id`),
  );
  return rows.map((r) => ({
    deliveryId: r.id,
    destinationId: r.destination_id,
    eventId: r.event_id,
    eventType: r.event_type,
    attempt: Number(r.attempts),
    roundStart: Number(r.round_start),
    body: r.body,
    occurredAt: new Date(r.occurred_at),
  }));
}

export type DeliveryTarget = { id: string; accountId: string; url: string; mode: DestinationMode; secrets: string[] };

/** The destinations of a batch, with the secrets to sign with (the previous one too while its overlap lasts). */
export async function loadTargets(ids: readonly string[]): Promise<Map<string, DeliveryTarget>> {
  if (ids.length === 0) return new Map();
  const db = await getDb();
  const rows = rowsOf<{
    id: string;
    account_id: string;
    url: string;
    mode: DestinationMode;
    secret_encrypted: string;
    previous_secret_encrypted: string | null;
    previous_active: boolean;
  }>(
    await db.execute(sql`
      select e.id, e.account_id, e.url, a.mode, e.secret_encrypted, e.previous_secret_encrypted,
        coalesce(e.previous_secret_expires_at > now(), false) as previous_active
      from event_destinations e join gateway_accounts a on a.id = e.account_id
      where e.id in ${jsonList([...new Set(ids)])}`),
  );
  return new Map(
    rows.map((r) => {
      const secrets = [decryptSecret(r.secret_encrypted)];
      if (r.previous_active && r.previous_secret_encrypted) secrets.push(decryptSecret(r.previous_secret_encrypted));
      return [r.id, { id: r.id, accountId: r.account_id, url: r.url, mode: r.mode, secrets }];
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
  const base = { deliveryId: attempt.deliveryId, destinationId: attempt.destinationId, attempt: attempt.attempt, roundStart: attempt.roundStart };
  if (!target) return { ...base, ok: false, status: null, error: "destination_missing", excerpt: null, durationMs: 0, retryAfterMs: null };
  const result = await postEvent({ url: target.url, mode: target.mode, headers: { ...headersFor(target, attempt) }, body: attempt.body, secrets: target.secrets });
  return { ...base, ok: result.ok, status: result.status, error: result.error, excerpt: result.excerpt, durationMs: result.durationMs, retryAfterMs: result.retryAfterMs };
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
  // A listen session reports for its own destination only.
  const mine = scope.destinationId ? sql`and a.destination_id = ${scope.destinationId}` : sql``;
  const ours = scope.destinationId ? sql`and d.destination_id = ${scope.destinationId}` : sql``;
  const db = await getDb();
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
  const disabled = await db.transaction(async (tx) => {
    await tx.execute(sql`
      with r as (
        select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          as r(delivery_id text, attempt int, ok boolean, status int, error text, excerpt text, duration_ms int, final boolean, delay_s double precision)),
      logged as (
        update destination_attempts a set duration_ms = r.duration_ms, http_status = r.status, error = r.error, response_excerpt = r.excerpt,
          next_retry_at = case when r.delay_s is null then null else now() + make_interval(secs => r.delay_s) end
        from r where a.delivery_id = r.delivery_id and a.attempt = r.attempt ${mine}
        returning 1)
      update destination_deliveries d set
        state = case when r.ok then 'delivered' when r.final then 'failed' else 'pending' end,
        next_at = case when r.delay_s is null then d.next_at else now() + make_interval(secs => r.delay_s) end,
        delivered_at = case when r.ok then now() else d.delivered_at end,
        last_status = r.status, last_error = r.error
      from r where d.id = r.delivery_id and d.attempts = r.attempt and d.state = 'pending' ${ours}`);
    const changed = rowsOf<{ id: string; account_id: string; reason: string; was: string }>(
      await tx.execute(sql`
        with r as (select * from jsonb_to_recordset(${JSON.stringify([...byDestination.values()])}::jsonb) as r(id text, succeeded boolean, failed boolean, gone boolean))
        update event_destinations e set
          last_attempt_at = now(),
          last_success_at = case when r.succeeded then now() else e.last_success_at end,
          failing_since = case when r.succeeded then null else coalesce(e.failing_since, now()) end,
          state = case
            when e.state = 'disabled' then e.state
            when r.gone then 'disabled'
            when not r.succeeded and coalesce(e.failing_since, now()) <= now() - make_interval(secs => ${disableAfterMs / 1000}) then 'disabled'
            else e.state end,
          disabled_reason = case
            when e.state = 'disabled' then e.disabled_reason
            when r.gone then 'gone'
            when not r.succeeded and coalesce(e.failing_since, now()) <= now() - make_interval(secs => ${disableAfterMs / 1000}) then 'failing'
            else e.disabled_reason end,
          disabled_at = case when e.state <> 'disabled' and (r.gone or (not r.succeeded and coalesce(e.failing_since, now()) <= now() - make_interval(secs => ${disableAfterMs / 1000}))) then now() else e.disabled_at end
        from r, event_destinations before
        where e.id = r.id and before.id = e.id
        returning e.id, e.account_id, e.disabled_reason as reason, before.state as was, e.state as now_state`),
    ).filter((row) => (row as unknown as { now_state: string }).now_state === "disabled" && row.was !== "disabled");
    if (changed.length > 0) {
      await tx.execute(sql`
        update destination_deliveries set state = 'canceled', last_error = 'destination_disabled'
        where state = 'pending' and destination_id in ${jsonList(changed.map((c) => c.id))}`);
    }
    return changed;
  });
  for (const destination of disabled) {
    log.warn("destination disabled", { destinationId: destination.id, reason: destination.reason });
    await writeAudit({ accountId: destination.account_id, action: "destination.disabled", target: destination.id, details: { reason: destination.reason } });
  }
}
