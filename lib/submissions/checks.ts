import "server-only";
import { and, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { getDb, type Database } from "@/lib/db/client";
import { gatewayChecks } from "@/lib/db/schema";
import type { CheckReason, CheckTarget } from "@/lib/db/tables/checks";
import { groupCommit } from "@/lib/runtime/group-commit";

export type GatewayCheck = typeof gatewayChecks.$inferSelect;
type Executor = Pick<Database, "execute" | "select" | "update" | "insert">;

function numberList(value: string | undefined): number[] | null {
  if (!value) return null;
  const list = value.split(",").map((v) => Number(v.trim()));
  return list.length > 0 && list.every((n) => Number.isFinite(n) && n >= 0) ? list : null;
}

/** Read at each use, so tests and deployments can tune them with environment variables. */
export function reconcileConfig() {
  return {
    /** Waits between one attempt and the next: 10 s, 30 s, 2 min, 10 min, then hourly. */
    delaysMs: numberList(process.env.RECONCILE_DELAYS_MS) ?? [10_000, 30_000, 120_000, 600_000, 3_600_000],
    /** After this long unsettled, a person is asked (with everything that is known). */
    giveUpMs: Number(process.env.RECONCILE_GIVE_UP_MS ?? 24 * 3_600_000),
    /** A lookup miss proves a charge absent only this long after it was sent. */
    absentAfterMs: Number(process.env.RECONCILE_ABSENT_AFTER_MS ?? 120_000),
    /** How long a claimed check is reserved for the process that claimed it. */
    leaseMs: Number(process.env.RECONCILE_LEASE_MS ?? 60_000),
    /** How often a Node process looks for due checks. */
    intervalMs: Number(process.env.RECONCILE_INTERVAL_MS ?? 2_000),
    /**
     * Checks in flight at once per process. Throughput is this over a lookup's time: with 16, a
     * launch-day burst that slowed the gateway's answers to ~1 s confirmed 16 payments a second
     * while the gateway could answer far more (`npm run bench:chain`: 96 took it from 0.42× to
     * 0.68× a minimal confirmer). The lookup limiter's AIMD window still bounds what is sent.
     */
    concurrency: Math.max(1, Number(process.env.RECONCILE_CONCURRENCY ?? 96)),
  };
}

/** The wait before attempt number `attempts + 1`. */
export function delayAfter(attempts: number): number {
  const { delaysMs } = reconcileConfig();
  return delaysMs[Math.min(Math.max(attempts, 0), delaysMs.length - 1)];
}

type CheckRequest = { accountId: string; target: CheckTarget; targetId: string; reason: CheckReason; delayMs: number };

/**
 * Opens a check for a record, or brings an open one forward. One open check per record: the
 * partial unique index decides between concurrent writers.
 */
export async function enqueueCheck(input: CheckRequest, db?: Executor): Promise<void> {
  await enqueueChecks([input], db);
}

/** enqueueCheck for many records in one statement (the applier opens one per confirmed batch). */
export async function enqueueChecks(inputs: CheckRequest[], db?: Executor): Promise<void> {
  if (inputs.length === 0) return;
  const database = db ?? (await getDb());
  const records = inputs.map((i) => ({
    account_id: i.accountId,
    target: i.target,
    target_id: i.targetId,
    reason: i.reason,
    delay_s: i.delayMs / 1000,
  }));
  await database.execute(sql`
    insert into gateway_checks (account_id, target, target_id, reason, next_at)
    select account_id, target, target_id, reason, now() + make_interval(secs => delay_s)
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r(account_id text, target text, target_id text, reason text, delay_s double precision)
    on conflict (target, target_id) where state = 'pending'
    do update set next_at = least(gateway_checks.next_at, excluded.next_at),
      reason = case when excluded.reason = 'confirm' then 'confirm'
        when excluded.reason = 'release' and gateway_checks.reason = 'unknown' then 'release' else gateway_checks.reason end,
      updated_at = now()`);
}

/**
 * A notification about a transaction the console has no row of waits for the gateway's lookup in
 * a check of its own, one per (account, gateway id), whatever the number of deliveries.
 */
export const NOTIFICATION_TARGET = "notification" as const satisfies CheckTarget;

function notificationTargetId(accountId: string, gatewayTransactionId: string): string {
  return `${accountId}:${gatewayTransactionId}`;
}

export function readNotificationTargetId(check: Pick<GatewayCheck, "accountId" | "targetId">): string {
  const prefix = `${check.accountId}:`;
  return check.targetId.startsWith(prefix) ? check.targetId.slice(prefix.length) : check.targetId;
}

/**
 * Opens the check of each unconfirmed transaction, at once. An open one is left as it is: more
 * deliveries of the same claim neither bring its lookups forward nor push them back.
 */
export async function openNotificationChecks(inputs: { accountId: string; gatewayTransactionId: string }[], db?: Executor): Promise<void> {
  if (inputs.length === 0) return;
  const database = db ?? (await getDb());
  const records = inputs.map((i) => ({ account_id: i.accountId, target_id: notificationTargetId(i.accountId, i.gatewayTransactionId) }));
  await database.execute(sql`
    insert into gateway_checks (account_id, target, target_id, reason, next_at)
    select distinct account_id, ${NOTIFICATION_TARGET}, target_id, 'confirm', now()
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r(account_id text, target_id text)
    on conflict (target, target_id) where state = 'pending' do nothing`);
}

/** Moves an open check of a record to `delayMs` from now (for example after an UNKNOWN answer). */
export async function rescheduleOpenCheck(target: CheckTarget, targetId: string, delayMs: number, db?: Executor): Promise<void> {
  const database = db ?? (await getDb());
  await database
    .update(gatewayChecks)
    .set({ nextAt: sql`now() + make_interval(secs => ${delayMs / 1000})`, updatedAt: sql`now()` })
    .where(and(eq(gatewayChecks.target, target), eq(gatewayChecks.targetId, targetId), eq(gatewayChecks.state, "pending")));
}

/**
 * Closes a record's open check because the record settled on its own (an answer, a notification).
 * A sale's release lookup is not about settling it, and stays (the creation answer that settles a
 * card also asks for it, in the same round).
 */
export async function closeOpenCheck(target: CheckTarget, targetId: string, outcome: string, db?: Executor): Promise<void> {
  const database = db ?? (await getDb());
  await database
    .update(gatewayChecks)
    .set({ state: "done", lastOutcome: outcome, settledAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        eq(gatewayChecks.target, target),
        eq(gatewayChecks.targetId, targetId),
        eq(gatewayChecks.state, "pending"),
        ne(gatewayChecks.reason, "release"),
      ),
    );
}

/**
 * Claims up to `limit` due checks for this process: `for update skip locked` keeps concurrent
 * claimers apart, and the lease (next_at pushed forward) keeps a claimed check from being
 * claimed again while it is worked on, in this process or any other.
 */
export async function claimDueChecks(limit: number): Promise<GatewayCheck[]> {
  const db = await getDb();
  const { leaseMs } = reconcileConfig();
  const result = await db.execute<{ id: string; due_at: string | Date }>(sql`
    update gateway_checks c set next_at = now() + make_interval(secs => ${leaseMs / 1000}), attempts = c.attempts + 1,
      last_attempt_at = now(), updated_at = now()
    from (
      select id, next_at from gateway_checks where state = 'pending' and next_at <= now()
      order by next_at limit ${limit} for update skip locked) due
    where c.id = due.id
    returning c.id, due.next_at as due_at`);
  if (result.rows.length === 0) return [];
  // Oldest due first, as claimed: under a lookup ceiling the payments wait their turn in this order.
  const dueAt = new Map(result.rows.map((r) => [r.id, new Date(r.due_at).getTime()]));
  const rows = await db
    .select()
    .from(gatewayChecks)
    .where(inArray(gatewayChecks.id, [...dueAt.keys()]));
  return rows.sort((a, b) => dueAt.get(a.id)! - dueAt.get(b.id)! || a.createdAt.getTime() - b.createdAt.getTime());
}

export async function finishCheck(
  id: string,
  state: "done" | "needs_person",
  outcome: string,
  error?: GatewayCheck["lastError"],
): Promise<void> {
  const db = await getDb();
  await db
    .update(gatewayChecks)
    .set({ state, lastOutcome: outcome, lastError: error ?? null, settledAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(gatewayChecks.id, id));
}

/** finishCheck, written in one statement with the other checks of this process that end at about the same time. */
export const finishCheckBatched = groupCommit(
  "finish-checks",
  async (items: { id: string; state: "done" | "needs_person"; outcome: string; error?: GatewayCheck["lastError"] }[]) => {
    const db = await getDb();
    const values = items.map((i) => ({ id: i.id, state: i.state, outcome: i.outcome, error: i.error ?? null }));
    await db.execute(sql`
      update gateway_checks c set state = v.state, last_outcome = v.outcome, last_error = v.error, settled_at = now(), updated_at = now()
      from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(id text, state text, outcome text, error jsonb)
      where c.id = v.id`);
  },
);

/**
 * `uncount`: the attempt asked nothing (the request was still in flight), so the schedule does not
 * advance. `outcome` null: nothing was learned, the last outcome and error stay as they were.
 */
export async function retryCheckLater(
  id: string,
  delayMs: number,
  outcome: string | null,
  error?: GatewayCheck["lastError"],
  options: { uncount?: boolean } = {},
): Promise<void> {
  const db = await getDb();
  await db
    .update(gatewayChecks)
    .set({
      nextAt: sql`now() + make_interval(secs => ${delayMs / 1000})`,
      ...(options.uncount ? { attempts: sql`greatest(${gatewayChecks.attempts} - 1, 0)` } : {}),
      ...(outcome === null ? {} : { lastOutcome: outcome, lastError: error ?? null }),
      updatedAt: sql`now()`,
    })
    .where(eq(gatewayChecks.id, id));
}

/** The wait before asking again after a 429 that named no Retry-After. */
export const RATE_LIMITED_DEFAULT_DELAY_MS = 1_000;

/**
 * The gateway answered 429: not an answer about the record, so not an outcome and not an attempt.
 * The check comes due again no earlier than the gateway's Retry-After, with its attempts, last
 * outcome and last error as they were (a confirmation's misses still count), and no give-up.
 */
export async function deferRateLimitedCheck(id: string, retryAfterMs: number | undefined): Promise<void> {
  await retryCheckLater(id, Math.max(0, retryAfterMs ?? RATE_LIMITED_DEFAULT_DELAY_MS), null, undefined, { uncount: true });
}

/** The latest check of a record (open, or the last settled one), for "verificando com o gateway" on its page. */
export async function latestCheck(target: CheckTarget, targetId: string): Promise<GatewayCheck | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(gatewayChecks)
    .where(and(eq(gatewayChecks.target, target), eq(gatewayChecks.targetId, targetId)))
    .orderBy(desc(gatewayChecks.createdAt))
    .limit(1);
  return row ?? null;
}
