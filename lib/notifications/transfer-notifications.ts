import "server-only";
import { syncTransferMovements } from "@/lib/ledger/movements";
import { and, eq, or, sql } from "drizzle-orm";
import { getDb, type Tx } from "@/lib/db/client";
import { transferNotifications, transfers } from "@/lib/db/schema";
import { decryptSecret } from "@/lib/crypto/secrets";
import { decide, transferMachine } from "@/lib/status/machine";
import { closeOpenCheck } from "@/lib/submissions/checks";
import { callbackKeyHash } from "@/lib/transfers/callback-key";
import { parseGatewayTime } from "@/lib/gateway/time";
import { canonicalJson, isRecord, sha256, tokensEqual, withoutToken } from "@/lib/gateway/notifications";

type TransferAuthentication =
  { outcome: "authentic"; transferId: string } | { outcome: "bad_token" | "unknown_transfer"; transferId?: string };

type TransferNotificationOutcome = {
  outcome: "applied" | "bad_token" | "unknown_transfer";
  transferId?: string;
  /** Whether the reported status became the transfer's status (false: out of order, or a final status holds). */
  statusApplied?: boolean;
};

/** Transfer notifications carry a `withdraw` object (payment webhooks carry `transaction`). */
export function isTransferNotification(payload: unknown): boolean {
  if (!isRecord(payload)) return false;
  if (isRecord(payload.withdraw)) return true;
  const event = payload.event;
  return typeof event === "string" && (event.startsWith("WITHDRAW_") || event.startsWith("TRANSFER_"));
}

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 ? value : null;
}

/**
 * Finds the transfer a notification names (by `withdraw.id` or `identifier`) inside `accountId`,
 * and tells whether the notification is authentic: its token matches that transfer's
 * webhookToken, or it arrived on the transfer's own callback path (its unguessable key was
 * recorded before the request left, so a transfer whose answer was lost can still be matched).
 * The interface has no transfer lookup: this per-transfer proof is the confirmation. Reads only.
 */
export async function authenticateTransferNotification(
  accountId: string,
  payload: Record<string, unknown>,
  callbackKey?: string | null,
): Promise<TransferAuthentication> {
  const withdraw = isRecord(payload.withdraw) ? payload.withdraw : {};
  const withdrawId = stringOrNull(withdraw.id);
  const identifier = stringOrNull(payload.identifier);
  const keyHash = callbackKey ? callbackKeyHash(callbackKey) : null;
  if (!withdrawId && !identifier && !keyHash) return { outcome: "unknown_transfer" };

  const db = await getDb();
  const matchers = [
    withdrawId ? eq(transfers.withdrawId, withdrawId) : undefined,
    identifier ? eq(transfers.identifier, identifier) : undefined,
    keyHash ? eq(transfers.callbackKeyHash, keyHash) : undefined,
  ].filter((m) => m !== undefined);
  const candidates = await db
    .select({
      id: transfers.id,
      withdrawId: transfers.withdrawId,
      identifier: transfers.identifier,
      token: transfers.webhookTokenEncrypted,
      keyHash: transfers.callbackKeyHash,
    })
    .from(transfers)
    .where(and(eq(transfers.accountId, accountId), or(...matchers)));
  // The callback path names exactly one transfer; otherwise prefer the gateway's withdraw id over our identifier.
  const transfer =
    (keyHash ? candidates.find((c) => c.keyHash === keyHash) : undefined) ??
    candidates.find((c) => withdrawId && c.withdrawId === withdrawId) ??
    candidates.find((c) => identifier && c.identifier === identifier);
  if (!transfer) return { outcome: "unknown_transfer" };
  // A notification on one transfer's path must not speak for another.
  if (keyHash && transfer.keyHash === keyHash && withdrawId && transfer.withdrawId && transfer.withdrawId !== withdrawId) {
    return { outcome: "bad_token", transferId: transfer.id };
  }

  const byPath = keyHash !== null && transfer.keyHash === keyHash;
  let byToken = false;
  if (transfer.token) {
    try {
      byToken = tokensEqual(payload.token, decryptSecret(transfer.token));
    } catch {
      byToken = false;
    }
  }
  if (!byPath && !byToken) return { outcome: "bad_token", transferId: transfer.id };
  return { outcome: "authentic", transferId: transfer.id };
}

/**
 * Applies an authenticated transfer notification to its transfer, inside `tx` (the applier's
 * batch, lib/notifications/applier.ts). The status changes only through the transfer status machine;
 * a repeated delivery changes nothing but its counter. `deliveries`: the stored event's count
 * (the applier's), else one more. Returns whether this notification was new and whether its
 * status became the transfer's (false: out of order, or a final status holds).
 */
export async function applyTransferNotificationIn(
  tx: Tx,
  transferId: string,
  payload: Record<string, unknown>,
  delivery: { deliveries: number; receivedAt: Date } | null = null,
): Promise<{ first: boolean; statusApplied: boolean }> {
  const withdraw = isRecord(payload.withdraw) ? payload.withdraw : {};
  const withdrawId = stringOrNull(withdraw.id);
  const stored = withoutToken(payload);
  const fingerprint = sha256(canonicalJson(stored));
  const event = stringOrNull(payload.event);
  const reportedStatus = stringOrNull(withdraw.status);
  const reportedAt = parseGatewayTime(withdraw.updatedAt) ?? parseGatewayTime(withdraw.createdAt);
  const now = new Date();

  // The transfer's row first: the notification's insert takes a key-share lock on it, and two
  // notifications of one transfer taking that before their `for update` deadlocked each other.
  const [current] = await tx
    .select({ status: transfers.withdrawStatus, at: transfers.withdrawStatusAt, withdrawId: transfers.withdrawId })
    .from(transfers)
    .where(eq(transfers.id, transferId))
    .for("update");
  if (!current) return { first: false, statusApplied: false };
  const [known] = await tx
    .select({ id: transferNotifications.id, deliveries: transferNotifications.deliveries })
    .from(transferNotifications)
    .where(and(eq(transferNotifications.transferId, transferId), eq(transferNotifications.fingerprint, fingerprint)));
  if (known) {
    await tx
      .update(transferNotifications)
      .set({
        deliveries: delivery ? Math.max(known.deliveries, delivery.deliveries) : known.deliveries + 1,
        lastReceivedAt: delivery?.receivedAt ?? now,
      })
      .where(eq(transferNotifications.id, known.id));
    return { first: false, statusApplied: false };
  }
  await tx
    .insert(transferNotifications)
    .values({ transferId, event, withdrawStatus: reportedStatus, fingerprint, payload: stored, deliveries: delivery?.deliveries ?? 1 });
  const decision = reportedStatus
    ? decide(transferMachine, current.status, reportedStatus, { currentAt: current.at, incomingAt: reportedAt ?? now })
    : { apply: false };
  const payoutAccount = isRecord(payload.payoutAccount) ? payload.payoutAccount : undefined;
  await tx
    .update(transfers)
    .set({
      ...(decision.apply && reportedStatus
        ? { withdrawStatus: reportedStatus, withdrawStatusSource: "notification" as const, withdrawStatusAt: reportedAt ?? now }
        : {}),
      ...(withdrawId && !current.withdrawId ? { withdrawId, withdraw } : {}),
      ...(payoutAccount ? { payoutAccount } : {}),
      // A notification proves the gateway created the withdraw: an UNKNOWN submission is resolved.
      submission: sql`case when ${transfers.submission} in ('UNKNOWN', 'SUBMITTING') then 'SUBMITTED' else ${transfers.submission} end`,
      lastNotificationEvent: event,
      lastNotificationAt: now,
      updatedAt: now,
    })
    .where(eq(transfers.id, transferId));
  await syncTransferMovements(tx, transferId);
  await closeOpenCheck("transfer", transferId, "notification", tx);
  return { first: true, statusApplied: decision.apply };
}

/** Authenticates and applies one notification at once (its own transaction): for tools and tests; the receiver stores, the applier applies. */
export async function applyTransferNotification(
  accountId: string,
  payload: Record<string, unknown>,
  callbackKey?: string | null,
): Promise<TransferNotificationOutcome> {
  const authentication = await authenticateTransferNotification(accountId, payload, callbackKey);
  if (authentication.outcome !== "authentic") return authentication;
  const db = await getDb();
  const { statusApplied } = await db.transaction((tx) => applyTransferNotificationIn(tx, authentication.transferId, payload));
  return { outcome: "applied", transferId: authentication.transferId, statusApplied };
}
