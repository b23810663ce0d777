import "server-only";
import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { writeAudit } from "@/lib/audit/log";
import { encryptSecret } from "@/lib/crypto/secrets";
import { getDb } from "@/lib/db/client";
import { destinationAttempts, destinationDeliveries, eventDestinations, eventOutbox, gatewayAccounts } from "@/lib/db/schema";
import { urlProblem, type DestinationMode, type UrlProblem } from "./address";
import type { DestinationInput } from "./form-schemas";
import { DUE_CHANNEL } from "./publish";
import { generateSecret } from "./signing";
import { TEST_EVENT_TYPE } from "./vocabulary";

type Actor = { id: string; email: string };
export type DestinationRow = typeof eventDestinations.$inferSelect;
/** What pages may show: never a secret, at most its last 4 characters. */
export type DestinationView = Omit<DestinationRow, "secretEncrypted" | "previousSecretEncrypted">;

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

function view(row: DestinationRow): DestinationView {
  const { secretEncrypted: _secret, previousSecretEncrypted: _previous, ...rest } = row;
  void _secret;
  void _previous;
  return rest;
}

/** The URL is refused for the account's mode (see address.ts); the form shows why. */
export class DestinationUrlError extends Error {
  constructor(readonly problem: UrlProblem) {
    super(`destination URL refused: ${problem}`);
  }
}

export class DestinationNotFoundError extends Error {}

async function accountMode(accountId: string): Promise<DestinationMode> {
  const db = await getDb();
  const [account] = await db.select({ mode: gatewayAccounts.mode }).from(gatewayAccounts).where(eq(gatewayAccounts.id, accountId));
  if (!account) throw new DestinationNotFoundError("account not found");
  return account.mode;
}

async function checkUrl(accountId: string, url: string): Promise<void> {
  const problem = await urlProblem(url, await accountMode(accountId));
  if (problem) throw new DestinationUrlError(problem);
}

const last4 = (secret: string) => secret.slice(-4);

export async function createDestination(
  accountId: string,
  input: DestinationInput,
  actor: Actor,
  ip: string | null,
): Promise<{ destination: DestinationView; secret: string }> {
  await checkUrl(accountId, input.url);
  const secret = generateSecret();
  const db = await getDb();
  const [row] = await db
    .insert(eventDestinations)
    .values({
      accountId,
      url: input.url,
      description: input.description || null,
      eventTypes: input.allTypes ? null : [...new Set(input.eventTypes)],
      secretEncrypted: encryptSecret(secret),
      secretLast4: last4(secret),
      createdBy: actor.id,
      createdByEmail: actor.email,
    })
    .returning();
  await writeAudit({
    actor,
    accountId,
    action: "destination.created",
    target: row!.id,
    ip,
    details: { url: row!.url, eventTypes: row!.eventTypes, secretLast4: row!.secretLast4 },
  });
  return { destination: view(row!), secret };
}

async function findRow(accountId: string, id: string): Promise<DestinationRow> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(eventDestinations)
    .where(and(eq(eventDestinations.accountId, accountId), eq(eventDestinations.id, id)));
  if (!row) throw new DestinationNotFoundError("destination not found");
  return row;
}

export async function updateDestination(
  accountId: string,
  id: string,
  input: DestinationInput,
  actor: Actor,
  ip: string | null,
): Promise<DestinationView> {
  const before = await findRow(accountId, id);
  if (input.url !== before.url) await checkUrl(accountId, input.url);
  const db = await getDb();
  const [row] = await db
    .update(eventDestinations)
    .set({
      url: input.url,
      description: input.description || null,
      eventTypes: input.allTypes ? null : [...new Set(input.eventTypes)],
      updatedAt: new Date(),
    })
    .where(eq(eventDestinations.id, before.id))
    .returning();
  await writeAudit({
    actor,
    accountId,
    action: "destination.updated",
    target: id,
    ip,
    details: { before: { url: before.url, eventTypes: before.eventTypes }, after: { url: row!.url, eventTypes: row!.eventTypes } },
  });
  return view(row!);
}

/** Pause holds deliveries (they wait, due, until resumed); resume also lifts a disabling, with the URL checked again. */
export async function setDestinationState(
  accountId: string,
  id: string,
  next: "paused" | "enabled",
  actor: Actor,
  ip: string | null,
): Promise<DestinationView> {
  const before = await findRow(accountId, id);
  if (next === "enabled" && before.state === "disabled") await checkUrl(accountId, before.url);
  const db = await getDb();
  const [row] = await db
    .update(eventDestinations)
    .set({
      state: next,
      ...(next === "enabled" ? { disabledReason: null, disabledAt: null, failingSince: null } : {}),
      updatedAt: new Date(),
    })
    .where(eq(eventDestinations.id, before.id))
    .returning();
  await writeAudit({
    actor,
    accountId,
    action: next === "paused" ? "destination.paused" : "destination.resumed",
    target: id,
    ip,
    details: { from: before.state, disabledReason: before.disabledReason },
  });
  return view(row!);
}

/**
 * A new secret, shown once. For `overlapHours` the old one keeps signing too (both signatures,
 * space-separated), so the receiver can switch without losing a delivery.
 */
export async function rotateSecret(
  accountId: string,
  id: string,
  overlapHours: number,
  actor: Actor,
  ip: string | null,
): Promise<{ secret: string; previousExpiresAt: Date | null }> {
  const before = await findRow(accountId, id);
  const secret = generateSecret();
  const previousExpiresAt = overlapHours > 0 ? new Date(Date.now() + overlapHours * 3_600_000) : null;
  const db = await getDb();
  await db
    .update(eventDestinations)
    .set({
      secretEncrypted: encryptSecret(secret),
      secretLast4: last4(secret),
      previousSecretEncrypted: previousExpiresAt ? before.secretEncrypted : null,
      previousSecretExpiresAt: previousExpiresAt,
      updatedAt: new Date(),
    })
    .where(eq(eventDestinations.id, before.id));
  await writeAudit({
    actor,
    accountId,
    action: "destination.secret_rotated",
    target: id,
    ip,
    details: { previousLast4: before.secretLast4, newLast4: last4(secret), overlapHours },
  });
  return { secret, previousExpiresAt };
}

export async function deleteDestination(accountId: string, id: string, actor: Actor, ip: string | null): Promise<void> {
  const before = await findRow(accountId, id);
  await removeDestinations([before.id]);
  await writeAudit({ actor, accountId, action: "destination.deleted", target: id, ip, details: { url: before.url } });
}

/** Destinations and everything they sent (the attempts log has no foreign key, see the table). */
export async function removeDestinations(ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.delete(destinationAttempts).where(inArray(destinationAttempts.destinationId, [...ids]));
    await tx.delete(eventDestinations).where(inArray(eventDestinations.id, [...ids]));
  });
}

export type DestinationHealth = DestinationView & {
  attempts24h: number;
  succeeded24h: number;
  queued: number;
  nextRetryAt: Date | null;
  lastAttempt: { at: Date; httpStatus: number | null; error: string | null } | null;
};

/** The account's destinations with their health: success rate over 24 h, last attempt, queue, next retry. */
export async function listDestinations(accountId: string): Promise<DestinationHealth[]> {
  return withHealth(accountId, { kind: "http" });
}

/** One destination (of either kind) with its health. */
export async function getDestinationHealth(accountId: string, id: string): Promise<DestinationHealth | null> {
  const [row] = await withHealth(accountId, { id });
  return row ?? null;
}

async function withHealth(accountId: string, filter: { kind: "http" } | { id: string }): Promise<DestinationHealth[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(eventDestinations)
    .where(
      and(
        eq(eventDestinations.accountId, accountId),
        "kind" in filter ? eq(eventDestinations.kind, filter.kind) : eq(eventDestinations.id, filter.id),
      ),
    )
    .orderBy(eventDestinations.createdAt);
  if (rows.length === 0) return [];
  const stats = rowsOf<{
    id: string;
    attempts: number;
    succeeded: number;
    queued: number;
    next_retry_at: string | null;
    last_at: string | null;
    last_status: number | null;
    last_error: string | null;
  }>(
    await db.execute(sql`
      select e.id,
        (select count(*)::int from destination_attempts a where a.destination_id = e.id and a.started_at > now() - interval '24 hours'
          and (a.http_status is not null or a.error is not null)) as attempts,
        (select count(*)::int from destination_attempts a where a.destination_id = e.id and a.started_at > now() - interval '24 hours'
          and a.http_status between 200 and 299) as succeeded,
        (select count(*)::int from destination_deliveries d where d.destination_id = e.id and d.state = 'pending') as queued,
        (select min(d.next_at) from destination_deliveries d where d.destination_id = e.id and d.state = 'pending' and d.attempts > 0) as next_retry_at,
        l.started_at as last_at, l.http_status as last_status, l.error as last_error
      from event_destinations e
      left join lateral (select started_at, http_status, error from destination_attempts a where a.destination_id = e.id
        and (a.http_status is not null or a.error is not null) order by a.started_at desc limit 1) l on true
      where e.id in (select jsonb_array_elements_text(${JSON.stringify(rows.map((r) => r.id))}::jsonb))`),
  );
  const byId = new Map(stats.map((s) => [s.id, s]));
  return rows.map((row) => {
    const s = byId.get(row.id);
    return {
      ...view(row),
      attempts24h: s?.attempts ?? 0,
      succeeded24h: s?.succeeded ?? 0,
      queued: s?.queued ?? 0,
      nextRetryAt: s?.next_retry_at ? new Date(s.next_retry_at) : null,
      lastAttempt: s?.last_at ? { at: new Date(s.last_at), httpStatus: s.last_status, error: s.last_error } : null,
    };
  });
}

/** Destinations the console stopped by itself: the account's pages say so. */
export async function disabledDestinations(
  accountId: string,
): Promise<Pick<DestinationView, "id" | "url" | "disabledReason" | "disabledAt">[]> {
  const db = await getDb();
  return db
    .select({
      id: eventDestinations.id,
      url: eventDestinations.url,
      disabledReason: eventDestinations.disabledReason,
      disabledAt: eventDestinations.disabledAt,
    })
    .from(eventDestinations)
    .where(and(eq(eventDestinations.accountId, accountId), eq(eventDestinations.state, "disabled"), eq(eventDestinations.kind, "http")));
}

export type AttemptView = typeof destinationAttempts.$inferSelect & { deliveryState: string };

/** The attempts log, newest first; `before` is the id of the last row already shown. */
export async function listAttempts(destinationId: string, options: { before?: number; limit?: number } = {}): Promise<AttemptView[]> {
  const db = await getDb();
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 200);
  const rows = await db
    .select({ attempt: destinationAttempts, deliveryState: destinationDeliveries.state })
    .from(destinationAttempts)
    .innerJoin(destinationDeliveries, eq(destinationDeliveries.id, destinationAttempts.deliveryId))
    .where(
      and(eq(destinationAttempts.destinationId, destinationId), options.before ? lt(destinationAttempts.id, options.before) : undefined),
    )
    .orderBy(desc(destinationAttempts.id))
    .limit(limit);
  return rows.map((r) => ({ ...r.attempt, deliveryState: r.deliveryState }));
}

/** The body an event was sent with (the attempts log opens it). */
export async function getEventPayload(accountId: string, eventId: string): Promise<Record<string, unknown> | null> {
  const db = await getDb();
  const [row] = await db
    .select({ payload: eventOutbox.payload })
    .from(eventOutbox)
    .where(and(eq(eventOutbox.accountId, accountId), eq(eventOutbox.id, eventId), eq(eventOutbox.state, "published")));
  return row?.payload ?? null;
}

/** Queues one event again for one destination, under its same `webhook-id`; the schedule starts over. */
export async function resendEvent(
  accountId: string,
  destinationId: string,
  eventId: string,
  actor: Actor,
  ip: string | null,
): Promise<boolean> {
  const destination = await findRow(accountId, destinationId);
  const db = await getDb();
  const queued = rowsOf<{ id: string }>(
    await db.execute(sql`
      insert into destination_deliveries (destination_id, account_id, event_id, event_type)
      select ${destination.id}, o.account_id, o.id, o.type from event_outbox o
      where o.id = ${eventId} and o.account_id = ${accountId} and o.state = 'published'
      on conflict (destination_id, event_id) do update set state = 'pending', next_at = now(),
        round_start = destination_deliveries.attempts, last_error = null
      returning id`),
  );
  if (queued.length === 0) return false;
  await writeAudit({ actor, accountId, action: "destination.event_resent", target: destinationId, ip, details: { eventId } });
  await signalDue();
  return true;
}

function sinceFilter(destination: DestinationRow, since: Date) {
  const types = destination.eventTypes;
  return sql`o.account_id = ${destination.accountId} and o.state = 'published' and o.type <> ${TEST_EVENT_TYPE} and o.occurred_at >= ${since.toISOString()}::timestamptz
    and (${types === null ? sql`true` : sql`o.type in (select jsonb_array_elements_text(${JSON.stringify(types)}::jsonb))`})`;
}

/** How many events "resend everything since" would send, shown before anything is sent. */
export async function countEventsSince(accountId: string, destinationId: string, since: Date): Promise<number> {
  const destination = await findRow(accountId, destinationId);
  const db = await getDb();
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from event_outbox o where ${sinceFilter(destination, since)}`),
  );
  return row?.n ?? 0;
}

/** Queues every event since `since` that the destination wants, each under its own `webhook-id`. */
export async function replaySince(accountId: string, destinationId: string, since: Date, actor: Actor, ip: string | null): Promise<number> {
  const destination = await findRow(accountId, destinationId);
  const db = await getDb();
  const queued = rowsOf<{ id: string }>(
    await db.execute(sql`
      insert into destination_deliveries (destination_id, account_id, event_id, event_type)
      select ${destination.id}, o.account_id, o.id, o.type from event_outbox o where ${sinceFilter(destination, since)}
      on conflict (destination_id, event_id) do update set state = 'pending', next_at = now(),
        round_start = destination_deliveries.attempts, last_error = null
      returning id`),
  );
  await writeAudit({
    actor,
    accountId,
    action: "destination.replayed",
    target: destinationId,
    ip,
    details: { since: since.toISOString(), events: queued.length },
  });
  await signalDue();
  return queued.length;
}

/** A `destination.test` event for this destination only, delivered by the background sender like any other. */
export async function sendTestEvent(accountId: string, destinationId: string, actor: Actor, ip: string | null): Promise<string> {
  const destination = await findRow(accountId, destinationId);
  const mode = await accountMode(accountId);
  const id = `msg_${crypto.randomUUID().replaceAll("-", "")}`;
  const now = new Date();
  const payload = {
    type: TEST_EVENT_TYPE,
    timestamp: now.toISOString(),
    data: { object: "test", destinationId: destination.id, accountId, mode, message: "Evento de teste enviado pelo console." },
  };
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.insert(eventOutbox).values({
      id,
      accountId,
      source: "test",
      objectId: destination.id,
      snapshot: {},
      occurredAt: now,
      state: "published",
      type: TEST_EVENT_TYPE,
      payload,
      publishedAt: now,
    });
    await tx.insert(destinationDeliveries).values({ destinationId: destination.id, accountId, eventId: id, eventType: TEST_EVENT_TYPE });
  });
  await writeAudit({ actor, accountId, action: "destination.test_sent", target: destinationId, ip, details: { eventId: id } });
  await signalDue();
  return id;
}

async function signalDue(): Promise<void> {
  const db = await getDb();
  await db.execute(sql`select pg_notify(${DUE_CHANNEL}, '')`);
}
