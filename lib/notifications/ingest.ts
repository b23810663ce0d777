import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { gatewayAccounts, webhookRejections } from "@/lib/db/schema";
import type { WebhookRejectionReason, WebhookSanitized } from "@/lib/db/tables/notifications";
import { getWebhookToken } from "@/lib/accounts/queries";
import { storeNotification } from "./store";
import { authenticateTransferNotification, isTransferNotification } from "./transfer-notifications";
import { clip, isRecord, parsePaymentNotification, rawDedupeKey, tokensEqual } from "@/lib/gateway/notifications";
import { mayNeedSanitizing, redactRawBody, sanitizedFlag, sanitizeJson } from "./sanitize";
import { processState } from "@/lib/runtime/state";

export const MAX_WEBHOOK_BYTES = 256 * 1024;

export type WebhookAnswer = { status: number; body: Record<string, unknown> };

export type IncomingNotification = {
  accountId: string;
  /** The per-object segment of the callback path, when the notification came to one. */
  callbackKey?: string | null;
  /** The raw body, already size-checked by the HTTP layer. */
  body: string;
  sourceIp: string | null;
  receivedAt?: Date;
};

/** Tokens are cached briefly: a replaced token takes effect within this many milliseconds in every process. */
const TOKEN_CACHE_MS = 2_000;
const TOKEN_CACHE_MAX = 10_000;
type TokenEntry = { token: string | null; exists: boolean; until: number };
const tokenCache = processState("webhook-token-cache", () => new Map<string, TokenEntry>());

/** A fresh cache entry, without an await (the receiver's hot path). */
function cachedToken(accountId: string): TokenEntry | null {
  const cached = tokenCache().get(accountId);
  return cached && cached.until > Date.now() ? cached : null;
}

async function loadToken(accountId: string): Promise<TokenEntry> {
  const token = await getWebhookToken(accountId);
  let exists = token !== null;
  if (!exists) {
    const db = await getDb();
    const [row] = await db.select({ id: gatewayAccounts.id }).from(gatewayAccounts).where(eq(gatewayAccounts.id, accountId)).limit(1);
    exists = !!row;
  }
  const entry = { token, exists, until: Date.now() + TOKEN_CACHE_MS };
  const cache = tokenCache();
  // Bounded: a scan of made-up account ids cannot grow it; Map order makes the oldest go first.
  if (cache.size >= TOKEN_CACHE_MAX) {
    for (const key of cache.keys()) {
      cache.delete(key);
      if (cache.size < TOKEN_CACHE_MAX / 2) break;
    }
  }
  cache.set(accountId, entry);
  return entry;
}

/** Rejection entries kept per account and window: a flood of forged deliveries cannot fill the table. */
const REJECTION_WINDOW_MS = 10_000;
const REJECTIONS_PER_WINDOW = 50;
const rejectionWindows = processState("webhook-rejection-window", () => new Map<string, { start: number; count: number }>());

function rejectionAllowed(accountId: string, now: number): boolean {
  const windows = rejectionWindows();
  const current = windows.get(accountId);
  // Bounded like the token cache: made-up account ids (a too-large body is refused before the
  // account is looked up) cannot grow it without limit.
  if (!current && windows.size >= TOKEN_CACHE_MAX) windows.clear();
  if (!current || now - current.start >= REJECTION_WINDOW_MS) {
    windows.set(accountId, { start: now, count: 1 });
    return true;
  }
  current.count++;
  return current.count <= REJECTIONS_PER_WINDOW;
}

export async function recordRejection(
  accountId: string,
  reason: WebhookRejectionReason,
  status: number,
  sourceIp: string | null,
  receivedAt = new Date(),
): Promise<void> {
  if (!rejectionAllowed(accountId, receivedAt.getTime())) return;
  const db = await getDb();
  await db.insert(webhookRejections).values({ accountId, reason, status, sourceIp, receivedAt });
}

const reject = async (input: IncomingNotification, reason: WebhookRejectionReason, status: number): Promise<WebhookAnswer> => {
  await recordRejection(input.accountId, reason, status, input.sourceIp, input.receivedAt);
  return { status, body: { error: reason } };
};

/**
 * The receiver: authenticates, stores once and answers once the event is committed; the applier
 * (lib/notifications/applier.ts) then applies payment notifications to the ledger and transfer
 * notifications to their transfer, and signals the feed. Nothing but a rejection entry is written for an unauthenticated
 * delivery.
 */
export async function receiveNotification(input: IncomingNotification): Promise<WebhookAnswer> {
  const receivedAt = input.receivedAt ?? new Date();
  const account = cachedToken(input.accountId) ?? (await loadToken(input.accountId));
  if (!account.exists) return { status: 404, body: { error: "unknown_account" } };

  let parsed: unknown;
  try {
    // V8's JSON.parse is iterative: 100,000 levels (200 KB of brackets) parse without a stack overflow.
    parsed = JSON.parse(input.body);
  } catch {
    return reject(input, "invalid_json", 400);
  }
  if (!isRecord(parsed)) return reject(input, "invalid_json", 400);
  // Anything jsonb refuses (NUL, a lone surrogate) or nested past what recursive readers survive
  // would fail the store on every retry: such a delivery is stored sanitised and flagged instead.
  // The quick scan of the text spares ordinary deliveries the copy.
  let payload = parsed;
  let sanitized: WebhookSanitized | null = null;
  if (mayNeedSanitizing(input.body)) {
    const clean = sanitizeJson(parsed);
    sanitized = sanitizedFlag(clean.reasons);
    if (sanitized) payload = clean.value as Record<string, unknown>;
  }
  // Made only once the delivery is authentic (and only for a sanitised one).
  const kept = () => (sanitized ? { sanitized, rawBody: redactRawBody(input.body) } : {});

  if (isTransferNotification(payload)) {
    const authentication = await authenticateTransferNotification(input.accountId, payload, input.callbackKey);
    if (authentication.outcome !== "authentic") return reject(input, authentication.outcome, 401);
    const withdraw = isRecord(payload.withdraw) ? payload.withdraw : {};
    const stored = await storeNotification({
      accountId: input.accountId,
      receivedAt,
      sourceIp: input.sourceIp,
      kind: "transfer",
      dedupeKey: rawDedupeKey("transfer", payload),
      event: clip(payload.event),
      gatewayTransactionId: clip(withdraw.id),
      identifier: clip(payload.identifier),
      status: clip(withdraw.status),
      paymentMethod: "PIX_TRANSFER",
      amountCents: null,
      payload,
      notification: null,
      // Applied to the transfer by the applier, after this commit (lib/notifications/applier.ts).
      transferId: authentication.transferId,
      // No transfer lookup exists: the transfer's own token or callback path is its confirmation.
      confirmation: "unconfirmable",
      ...kept(),
    });
    return { status: 200, body: { received: true, id: stored.id, deliveries: stored.deliveries } };
  }

  // The token as sent (top level: sanitising never drops it), not its sanitised copy.
  const token = parsed.token;
  if (token === undefined || token === null || token === "") return reject(input, "missing_token", 401);
  if (!account.token) return reject(input, "no_token_configured", 401);
  if (!tokensEqual(token, account.token)) return reject(input, "bad_token", 401);

  const notification = parsePaymentNotification(payload);
  const stored = await storeNotification({
    accountId: input.accountId,
    receivedAt,
    sourceIp: input.sourceIp,
    kind: notification ? "payment" : "unknown",
    dedupeKey: notification?.dedupeKey ?? rawDedupeKey("unknown", payload),
    event: notification?.event ?? clip(payload.event),
    gatewayTransactionId: notification?.gatewayTransactionId ?? null,
    identifier: notification?.identifier ?? null,
    status: notification?.status ?? null,
    paymentMethod: notification?.paymentMethod ?? null,
    amountCents: notification?.amountCents ?? null,
    payload,
    notification,
    ...kept(),
  });
  return { status: 200, body: { received: true, id: stored.id, deliveries: stored.deliveries } };
}
