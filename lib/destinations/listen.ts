import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { writeAudit } from "@/lib/audit/log";
import { encryptSecret } from "@/lib/crypto/secrets";
import { getDb } from "@/lib/db/client";
import { redactText } from "@/lib/log";
import { eventDestinations, gatewayAccounts, listenTokens } from "@/lib/db/schema";
import { urlShapeProblem } from "./address";
import { claimAttempts, headersFor, loadTargets, recordResults, type AttemptResult } from "./deliver";
import { publishAllPending } from "./publish";
import { removeDestinations } from "./queries";
import { generateSecret } from "./signing";

type Actor = { id: string; email: string };

/**
 * `npm run listen`: a developer's machine pulls the account's events over HTTPS and forwards them
 * to a local URL, so deliveries can be watched without a public address. The command holds a
 * listen key (made here, shown once, valid for a day); each session is a destination of kind
 * "listen" whose deliveries the command claims, forwards and reports, in the same attempts log.
 */
const TOKEN_TTL_MS = 24 * 3_600_000;
/** A session not heard from for this long gets no new events (they are not queued for it). */
export const LISTEN_IDLE_MS = 2 * 60_000;

const hash = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

export async function createListenToken(
  accountId: string,
  actor: Actor,
  ip: string | null,
): Promise<{ id: string; token: string; expiresAt: Date }> {
  const token = `lst_${randomBytes(24).toString("base64url")}`;
  const expiresAt = new Date(Date.now() + TOKEN_TTL_MS);
  const db = await getDb();
  const [row] = await db
    .insert(listenTokens)
    .values({ accountId, tokenHash: hash(token), tokenLast4: token.slice(-4), expiresAt, createdBy: actor.id, createdByEmail: actor.email })
    .returning({ id: listenTokens.id });
  await writeAudit({
    actor,
    accountId,
    action: "destination.listen_key_created",
    target: row!.id,
    ip,
    details: { last4: token.slice(-4), expiresAt: expiresAt.toISOString() },
  });
  return { id: row!.id, token, expiresAt };
}

export async function revokeListenToken(accountId: string, id: string, actor: Actor, ip: string | null): Promise<boolean> {
  const db = await getDb();
  const [row] = await db
    .update(listenTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(listenTokens.accountId, accountId), eq(listenTokens.id, id), isNull(listenTokens.revokedAt)))
    .returning({ id: listenTokens.id });
  if (!row) return false;
  const sessions = await db.select({ id: eventDestinations.id }).from(eventDestinations).where(eq(eventDestinations.listenTokenId, id));
  await removeDestinations(sessions.map((s) => s.id));
  await writeAudit({ actor, accountId, action: "destination.listen_key_revoked", target: id, ip });
  return true;
}

export async function listListenTokens(accountId: string) {
  const db = await getDb();
  return db
    .select({
      id: listenTokens.id,
      tokenLast4: listenTokens.tokenLast4,
      expiresAt: listenTokens.expiresAt,
      createdByEmail: listenTokens.createdByEmail,
      createdAt: listenTokens.createdAt,
      destinationId: eventDestinations.id,
      forwardTo: eventDestinations.url,
      lastSeenAt: eventDestinations.lastSeenAt,
    })
    .from(listenTokens)
    .leftJoin(eventDestinations, eq(eventDestinations.listenTokenId, listenTokens.id))
    .where(and(eq(listenTokens.accountId, accountId), isNull(listenTokens.revokedAt), gt(listenTokens.expiresAt, new Date())))
    .orderBy(desc(listenTokens.createdAt));
}

export type ListenContext = { tokenId: string; accountId: string };

/** The account a listen key speaks for, or null for an unknown, expired or revoked key. */
export async function authenticateListen(authorization: string | null): Promise<ListenContext | null> {
  const match = /^Bearer (lst_[A-Za-z0-9_-]{16,64})$/.exec(authorization ?? "");
  if (!match) return null;
  const db = await getDb();
  const [row] = await db
    .select({ id: listenTokens.id, accountId: listenTokens.accountId })
    .from(listenTokens)
    .where(and(eq(listenTokens.tokenHash, hash(match[1]!)), isNull(listenTokens.revokedAt), gt(listenTokens.expiresAt, new Date())));
  return row ? { tokenId: row.id, accountId: row.accountId } : null;
}

export class ListenForwardError extends Error {}

/**
 * Starts (or restarts) the key's session: its destination records where the command forwards to
 * and gets a new signing secret, returned to the command, which prints it for the local receiver.
 */
export async function openListenSession(
  ctx: ListenContext,
  forwardTo: string,
): Promise<{ destinationId: string; secret: string; account: { name: string; mode: string } }> {
  if (forwardTo.length > 2000 || urlShapeProblem(forwardTo, "test") === "scheme" || urlShapeProblem(forwardTo, "test") === "invalid")
    throw new ListenForwardError("forward-to must be an http(s) URL");
  const db = await getDb();
  const secret = generateSecret();
  const now = new Date();
  const [destination] = await db
    .insert(eventDestinations)
    .values({
      accountId: ctx.accountId,
      kind: "listen",
      url: forwardTo,
      description: "npm run listen",
      listenTokenId: ctx.tokenId,
      secretEncrypted: encryptSecret(secret),
      secretLast4: secret.slice(-4),
      lastSeenAt: now,
    })
    .onConflictDoUpdate({
      target: eventDestinations.listenTokenId,
      targetWhere: sql`${eventDestinations.listenTokenId} is not null`,
      set: {
        url: forwardTo,
        secretEncrypted: encryptSecret(secret),
        secretLast4: secret.slice(-4),
        lastSeenAt: now,
        state: "enabled",
        updatedAt: now,
      },
    })
    .returning({ id: eventDestinations.id });
  const [account] = await db
    .select({ name: gatewayAccounts.name, mode: gatewayAccounts.mode })
    .from(gatewayAccounts)
    .where(eq(gatewayAccounts.id, ctx.accountId));
  return { destinationId: destination!.id, secret, account: account! };
}

/** `roundStart` comes back with the report: it places the attempt in the retry schedule. */
export type ListenDelivery = {
  deliveryId: string;
  attempt: number;
  roundStart: number;
  eventId: string;
  eventType: string;
  headers: Record<string, string>;
  body: string;
};

async function sessionOf(ctx: ListenContext): Promise<string | null> {
  const db = await getDb();
  const [row] = await db
    .update(eventDestinations)
    .set({ lastSeenAt: new Date() })
    .where(and(eq(eventDestinations.listenTokenId, ctx.tokenId), eq(eventDestinations.accountId, ctx.accountId)))
    .returning({ id: eventDestinations.id });
  return row?.id ?? null;
}

/** Due deliveries of the session, claimed like the worker claims its own; waits up to `waitMs` for one. */
export async function pullListenDeliveries(ctx: ListenContext, waitMs: number): Promise<ListenDelivery[] | null> {
  const destinationId = await sessionOf(ctx);
  if (!destinationId) return null;
  const deadline = Date.now() + Math.min(Math.max(waitMs, 0), 25_000);
  for (;;) {
    // Serverless deployments publish here too: nothing else may be running between cron ticks.
    await publishAllPending();
    const claimed = await claimAttempts({ limit: 20, kind: "listen", destinationId });
    if (claimed.length > 0) {
      const target = (await loadTargets(claimed)).get(destinationId)!;
      return claimed.map((attempt) => ({
        deliveryId: attempt.deliveryId,
        attempt: attempt.attempt,
        roundStart: attempt.roundStart,
        eventId: attempt.eventId,
        eventType: attempt.eventType,
        headers: { ...headersFor(target, attempt), "content-type": "application/json" },
        body: attempt.body,
      }));
    }
    if (Date.now() >= deadline) return [];
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
}

export type ListenReport = {
  deliveryId: string;
  attempt: number;
  roundStart: number;
  status: number | null;
  durationMs: number;
  excerpt?: string | null;
};

/** What the local receiver answered, written to the attempts log as any attempt is. */
export async function reportListenResults(ctx: ListenContext, reports: ListenReport[]): Promise<number> {
  const destinationId = await sessionOf(ctx);
  if (!destinationId || reports.length === 0) return 0;
  const results: AttemptResult[] = reports.map((r) => ({
    deliveryId: r.deliveryId,
    destinationId,
    attempt: r.attempt,
    roundStart: Math.min(r.roundStart, r.attempt),
    ok: r.status !== null && r.status >= 200 && r.status < 300,
    status: r.status,
    error: r.status === null ? "connection" : r.status >= 300 && r.status < 400 ? "redirect" : null,
    excerpt: r.excerpt ? redactText(r.excerpt.slice(0, 1024)) : null,
    durationMs: Math.max(0, Math.round(r.durationMs)),
    retryAfterMs: null,
  }));
  await recordResults(results, { destinationId });
  return results.length;
}
