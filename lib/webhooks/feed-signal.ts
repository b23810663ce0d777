import "server-only";
import { sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import type { webhookEvents } from "@/lib/db/schema";
import { isKnownWebhookEvent } from "@/lib/gateway/schemas/webhooks";
import { FEED_CHANNEL } from "@/lib/feed/bus";
import type { FeedEvent } from "@/lib/feed/types";

export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];
type StoredEvent = Omit<typeof webhookEvents.$inferSelect, "payload">;

export function toFeedEvent(row: StoredEvent, ledgerChanged = false): FeedEvent {
  return {
    id: row.id,
    accountId: row.accountId,
    seq: Number(row.feedSeq),
    kind: row.kind,
    event: row.event,
    known: row.kind === "payment" && row.event !== null && isKnownWebhookEvent(row.event),
    gatewayTransactionId: row.gatewayTransactionId,
    identifier: row.identifier,
    status: row.status,
    paymentMethod: row.paymentMethod,
    amountCents: row.amountCents === null ? null : Number(row.amountCents),
    ledgerId: row.ledgerId,
    ledgerChanged,
    applied: row.applyState === "applied",
    confirmation: row.confirmation,
    deliveries: row.deliveries,
    firstReceivedAt: row.firstReceivedAt.toISOString(),
    lastReceivedAt: row.lastReceivedAt.toISOString(),
  };
}

/** Inside a transaction: on Postgres every process hears it at commit; PGlite callers emit after commit. */
export async function notifyFeed(tx: Tx, signals: FeedEvent[], driver: "postgres" | "pglite"): Promise<void> {
  if (driver !== "postgres" || signals.length === 0) return;
  const payloads = signals.map((s) => sql`(${JSON.stringify(s)}::text)`);
  await tx.execute(sql`select pg_notify(${FEED_CHANNEL}, p) from (values ${sql.join(payloads, sql`, `)}) as t(p)`);
}

