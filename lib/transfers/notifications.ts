import "server-only";
import { createHash } from "node:crypto";
import { and, eq, or, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { transferNotifications, transfers } from "@/lib/db/schema";
import { decryptSecret } from "@/lib/crypto/secrets";
import { closeOpenCheck } from "@/lib/reconcile/checks";
import { decide, transferMachine } from "@/lib/status/machine";
import { canonicalJson, tokensEqual } from "@/lib/webhooks/payload";
import { callbackKeyHash } from "./callback-key";
import { parseGatewayTime } from "@/lib/gateway/time";

export type TransferNotificationOutcome = {
  outcome: "applied" | "bad_token" | "unknown_transfer";
  transferId?: string;
  /** Whether the reported status became the transfer's status (false: out of order, or a final status holds). */
  statusApplied?: boolean;
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Transfer notifications carry a `withdraw` object (payment webhooks carry `transaction`). */
export function isTransferNotification(payload: unknown): boolean {
  if (!isRecord(payload)) return false;
  if (isRecord(payload.withdraw)) return true;
  const event = payload.event;
  return typeof event === "string" && (event.startsWith("WITHDRAW_") || event.startsWith("TRANSFER_"));
}

function withoutToken(payload: Record<string, unknown>): Record<string, unknown> {
  const rest = { ...payload };
  delete rest.token;
  return rest;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 ? value : null;
}

/**
 * Applies a transfer notification to the transfer it names (by `withdraw.id` or `identifier`)
 * inside `accountId`. It is authentic when its token matches that transfer's webhookToken, or
 * when it arrived on the transfer's own callback path (its unguessable key was recorded before
 * the request left, so a transfer whose answer was lost can still be matched). The interface has
 * no transfer lookup: this per-transfer proof is the confirmation. The status changes only
 * through the transfer status machine; a repeated delivery changes nothing but its counter.
 */
export async function applyTransferNotification(
  accountId: string,
  payload: Record<string, unknown>,
  callbackKey?: string | null,
): Promise<TransferNotificationOutcome> {
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

  const stored = withoutToken(payload);
  const fingerprint = createHash("sha256").update(canonicalJson(stored)).digest("hex");
  const event = stringOrNull(payload.event);
  const reportedStatus = stringOrNull(withdraw.status);
  const reportedAt = parseGatewayTime(withdraw.updatedAt) ?? parseGatewayTime(withdraw.createdAt);
  const now = new Date();

  const statusApplied = await db.transaction(async (tx) => {
    // The transfer's row first: the notification's insert takes a key-share lock on it, and two
    // notifications of one transfer taking that before their `for update` deadlocked each other.
    const [current] = await tx
      .select({ status: transfers.withdrawStatus, at: transfers.withdrawStatusAt, withdrawId: transfers.withdrawId })
      .from(transfers)
      .where(eq(transfers.id, transfer.id))
      .for("update");
    const inserted = await tx
      .insert(transferNotifications)
      .values({ transferId: transfer.id, event, withdrawStatus: reportedStatus, fingerprint, payload: stored })
      .onConflictDoUpdate({
        target: [transferNotifications.transferId, transferNotifications.fingerprint],
        set: { deliveries: sql`${transferNotifications.deliveries} + 1`, lastReceivedAt: now },
      })
      .returning({ deliveries: transferNotifications.deliveries });
    if (inserted[0]?.deliveries !== 1) return false;
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
      .where(eq(transfers.id, transfer.id));
    await closeOpenCheck("transfer", transfer.id, "notification", tx);
    return decision.apply;
  });

  return { outcome: "applied", transferId: transfer.id, statusApplied };
}

