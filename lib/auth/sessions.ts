import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lt, ne } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { userSessions, users } from "@/lib/db/schema";

export const SESSION_MAX_AGE_S = 8 * 60 * 60;

/** A row per sign-in: the cookie only names it, the row decides whether it still counts. */
export async function openSession(userId: string, ip: string | null, now = new Date()): Promise<string> {
  const db = await getDb();
  const id = randomBytes(24).toString("base64url");
  await db.insert(userSessions).values({ id, userId, ip, createdAt: now, expiresAt: new Date(now.getTime() + SESSION_MAX_AGE_S * 1000) });
  // Old rows are only history: keep the table small as people sign in.
  await db.delete(userSessions).where(and(eq(userSessions.userId, userId), lt(userSessions.expiresAt, now)));
  return id;
}

/** The user behind a live session, or null when it was revoked, expired, or the user changed since. */
export async function findSessionUser(sessionId: string, userId: string, sessionVersion: number | undefined, now = new Date()) {
  const db = await getDb();
  const [row] = await db
    .select({ user: users })
    .from(userSessions)
    .innerJoin(users, eq(users.id, userSessions.userId))
    .where(
      and(eq(userSessions.id, sessionId), eq(userSessions.userId, userId), isNull(userSessions.revokedAt), gt(userSessions.expiresAt, now)),
    )
    .limit(1);
  if (!row || !row.user.active || row.user.sessionVersion !== sessionVersion) return null;
  return row.user;
}

export async function revokeSession(sessionId: string): Promise<void> {
  const db = await getDb();
  await db
    .update(userSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(userSessions.id, sessionId), isNull(userSessions.revokedAt)));
}

/** Ends every session of the user, or every other one when `except` names the current session. */
export async function revokeUserSessions(userId: string, except?: string): Promise<void> {
  const db = await getDb();
  await db
    .update(userSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(userSessions.userId, userId), isNull(userSessions.revokedAt), except ? ne(userSessions.id, except) : undefined));
}
