import "server-only";
import { createHash } from "node:crypto";
import { and, eq, or, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { transferNotifications, transfers } from "@/lib/db/schema";
import { decryptSecret } from "@/lib/crypto/secrets";
import { canonicalJson, tokensEqual } from "@/lib/webhooks/payload";

export type TransferNotificationOutcome = {
  outcome: "applied" | "bad_token" | "unknown_transfer";
  transferId?: string;
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
 * inside `accountId`, once its token matched that transfer's stored webhookToken. Records the
 * withdraw status exactly as reported. A repeated delivery changes nothing but its counter.
 */
export async function applyTransferNotification(
  accountId: string,
  payload: Record<string, unknown>,
): Promise<TransferNotificationOutcome> {
  const withdraw = isRecord(payload.withdraw) ? payload.withdraw : {};
  const withdrawId = stringOrNull(withdraw.id);
  const identifier = stringOrNull(payload.identifier);
  if (!withdrawId && !identifier) return { outcome: "unknown_transfer" };

  const db = await getDb();
  const matchers = [
    withdrawId ? eq(transfers.withdrawId, withdrawId) : undefined,
    identifier ? eq(transfers.identifier, identifier) : undefined,
  ].filter((m) => m !== undefined);
  const candidates = await db
    .select({ id: transfers.id, withdrawId: transfers.withdrawId, token: transfers.webhookTokenEncrypted })
    .from(transfers)
    .where(and(eq(transfers.accountId, accountId), or(...matchers)));
  // Prefer the withdraw id match: identifiers are ours, withdraw ids are the gateway's.
  const transfer = candidates.find((c) => withdrawId && c.withdrawId === withdrawId) ?? candidates[0];
  if (!transfer) return { outcome: "unknown_transfer" };
  // Without a stored token (answer never received) nothing can be authenticated.
  if (!transfer.token) return { outcome: "bad_token", transferId: transfer.id };

  let expected: string;
  try {
    expected = decryptSecret(transfer.token);
  } catch {
    return { outcome: "bad_token", transferId: transfer.id };
  }
  if (!tokensEqual(payload.token, expected)) return { outcome: "bad_token", transferId: transfer.id };

  const stored = withoutToken(payload);
  const fingerprint = createHash("sha256").update(canonicalJson(stored)).digest("hex");
  const event = stringOrNull(payload.event);
  const reportedStatus = stringOrNull(withdraw.status);
  const now = new Date();

  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(transferNotifications)
      .values({ transferId: transfer.id, event, withdrawStatus: reportedStatus, fingerprint, payload: stored })
      .onConflictDoUpdate({
        target: [transferNotifications.transferId, transferNotifications.fingerprint],
        set: { deliveries: sql`${transferNotifications.deliveries} + 1`, lastReceivedAt: now },
      })
      .returning({ deliveries: transferNotifications.deliveries });
    if (inserted[0]?.deliveries !== 1) return;

    const payoutAccount = isRecord(payload.payoutAccount) ? payload.payoutAccount : undefined;
    await tx
      .update(transfers)
      .set({
        ...(reportedStatus ? { withdrawStatus: reportedStatus, withdrawStatusSource: "notification" as const, withdrawStatusAt: now } : {}),
        ...(withdrawId ? { withdrawId, withdraw } : {}),
        ...(payoutAccount ? { payoutAccount } : {}),
        // A notification proves the gateway created the withdraw: an UNKNOWN submission is resolved.
        submission: sql`case when ${transfers.submission} in ('UNKNOWN', 'SUBMITTING') then 'SUBMITTED' else ${transfers.submission} end`,
        lastNotificationEvent: event,
        lastNotificationAt: now,
        updatedAt: now,
      })
      .where(eq(transfers.id, transfer.id));
  });

  return { outcome: "applied", transferId: transfer.id };
}
