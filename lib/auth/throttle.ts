import "server-only";
import { and, count, gte, inArray, lt } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { signInFailures } from "@/lib/db/schema";

export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const THROTTLE_MAX_FAILURES = 5;

function keysFor(email: string, ip: string | null): string[] {
  return [`email:${email.trim().toLowerCase()}`, ...(ip ? [`ip:${ip}`] : [])];
}

/** Throttled while any key has reached the limit within the sliding window; it lifts by itself. */
export async function isThrottled(email: string, ip: string | null, now = new Date()): Promise<boolean> {
  const db = await getDb();
  const since = new Date(now.getTime() - THROTTLE_WINDOW_MS);
  const rows = await db
    .select({ key: signInFailures.key, failures: count() })
    .from(signInFailures)
    .where(and(inArray(signInFailures.key, keysFor(email, ip)), gte(signInFailures.at, since)))
    .groupBy(signInFailures.key);
  return rows.some((row) => row.failures >= THROTTLE_MAX_FAILURES);
}

export async function recordFailure(email: string, ip: string | null, now = new Date()): Promise<void> {
  const db = await getDb();
  await db.insert(signInFailures).values(keysFor(email, ip).map((key) => ({ key, at: now })));
  await db.delete(signInFailures).where(lt(signInFailures.at, new Date(now.getTime() - 2 * THROTTLE_WINDOW_MS)));
}
