import "server-only";
import { inArray, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { authAttempts } from "@/lib/db/schema";

export type AttemptRule = {
  /** Attempts let through per window before the first pause. */
  limit: number;
  windowMs: number;
  /** The first pause; each attempt past the limit doubles it, up to `maxBlockMs`. */
  firstBlockMs: number;
  maxBlockMs: number;
};

const MINUTE = 60_000;

/** Per e-mail: a guesser is slowed at once; the real owner waits at most 15 minutes, never locked out. */
export const SIGN_IN_EMAIL_RULE: AttemptRule = { limit: 5, windowMs: 15 * MINUTE, firstBlockMs: MINUTE, maxBlockMs: 15 * MINUTE };
/** Per address: looser, since an office shares one address behind its router. */
export const SIGN_IN_IP_RULE: AttemptRule = { limit: 30, windowMs: 15 * MINUTE, firstBlockMs: MINUTE, maxBlockMs: 15 * MINUTE };
/** Password or code checks inside a session (confirming a transfer, changing the password, the second factor). */
export const IN_SESSION_RULE: AttemptRule = { limit: 5, windowMs: 15 * MINUTE, firstBlockMs: MINUTE, maxBlockMs: 15 * MINUTE };

export const attemptKeys = {
  signInEmail: (email: string) => `signin-email:${email.trim().toLowerCase()}`,
  signInIp: (ip: string) => `signin-ip:${ip}`,
  user: (userId: string, check: "password" | "totp") => `user:${userId}:${check}`,
};

export type AttemptVerdict = { allowed: true } | { allowed: false; retryAfterMs: number };

/**
 * Counts one attempt and says whether it may go ahead, in a single upsert: the row lock makes
 * concurrent attempts queue, so a burst gets exactly `limit` checks through, never more.
 * Counting happens before the check, so a slow password hash cannot open a race window.
 */
export async function takeAttempt(key: string, rule: AttemptRule, now = new Date()): Promise<AttemptVerdict> {
  const db = await getDb();
  const windowStart = new Date(now.getTime() - rule.windowMs);
  const result = await db.execute<{ last_allowed: boolean; blocked_until: string | Date | null }>(sql`
    insert into auth_attempts as a (key, attempts, window_started_at, blocked_until, last_allowed)
    values (${key}, 1, ${now}, null, true)
    on conflict (key) do update set
      attempts = case
        when a.window_started_at < ${windowStart} then 1
        when a.blocked_until > ${now} then a.attempts
        else a.attempts + 1 end,
      window_started_at = case when a.window_started_at < ${windowStart} then ${now} else a.window_started_at end,
      blocked_until = case
        when a.window_started_at < ${windowStart} then null
        when a.blocked_until > ${now} then a.blocked_until
        when a.attempts + 1 >= ${rule.limit} then ${now}::timestamptz + make_interval(secs => least(
          ${rule.maxBlockMs / 1000}::float8,
          ${rule.firstBlockMs / 1000}::float8 * power(2, a.attempts + 1 - ${rule.limit}::int)))
        else null end,
      last_allowed = case
        when a.window_started_at < ${windowStart} then true
        when a.blocked_until > ${now} then false
        else true end
    returning last_allowed, blocked_until`);
  const [row] = result.rows;
  if (row?.last_allowed) return { allowed: true };
  const until = row?.blocked_until ? new Date(row.blocked_until).getTime() : now.getTime() + rule.firstBlockMs;
  return { allowed: false, retryAfterMs: Math.max(0, until - now.getTime()) };
}

/** Takes one attempt on every key; refused if any key refuses (all are counted, so none can be skipped). */
export async function takeAttempts(entries: (readonly [key: string, rule: AttemptRule])[], now = new Date()): Promise<AttemptVerdict> {
  let verdict: AttemptVerdict = { allowed: true };
  for (const [key, rule] of entries) {
    const next = await takeAttempt(key, rule, now);
    if (!next.allowed && (verdict.allowed || next.retryAfterMs > verdict.retryAfterMs)) verdict = next;
  }
  return verdict;
}

/** After a successful check: the owner starts afresh (address counters are left to expire). */
export async function clearAttempts(keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const db = await getDb();
  await db.delete(authAttempts).where(inArray(authAttempts.key, keys));
}

/** Minutes to tell the person, rounded up. */
export function retryMinutes(verdict: AttemptVerdict): number {
  return verdict.allowed ? 0 : Math.max(1, Math.ceil(verdict.retryAfterMs / MINUTE));
}
