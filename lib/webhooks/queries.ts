import "server-only";
import { and, asc, desc, eq, getTableColumns, gt, inArray, max, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { ledgerTransactions, webhookEvents, webhookRejections } from "@/lib/db/schema";
import type { WebhookRejectionReason, WebhookSanitized } from "@/lib/db/tables/webhooks";
import type { FeedEvent } from "@/lib/feed/types";
import { toFeedEvent } from "@/lib/feed/signal";

/** Callers must have checked the user's `webhooks.view` on every account id they pass. */

/** Every column but the raw body (up to 256 KB, kept for sanitised deliveries only): lists never need it. */
const eventColumns = (() => {
  const columns: Partial<ReturnType<typeof getTableColumns<typeof webhookEvents>>> = { ...getTableColumns(webhookEvents) };
  delete columns.rawBody;
  return columns as Omit<ReturnType<typeof getTableColumns<typeof webhookEvents>>, "rawBody">;
})();

/** A listed event: the feed's fields and whether its payload is a sanitised copy (lib/webhooks/sanitize.ts). */
export type ListedEvent = FeedEvent & { sanitized: WebhookSanitized | null };

export type TransactionEventDto = {
  id: string;
  event: string | null;
  known: boolean;
  status: string | null;
  deliveries: number;
  confirmation: FeedEvent["confirmation"];
  firstReceivedAt: string;
  lastReceivedAt: string;
  /** The payload with its token redacted. */
  payload: unknown;
};

/**
 * The Pix end-to-end id the gateway's notifications reported for a ledger row (the interface's
 * webhook carries `transaction.pixInformation.endToEndId`; its lookup does not), from the latest
 * one the gateway did not contradict; null when none carried it.
 */
export async function reportedEndToEndId(accountId: string, ledgerId: string): Promise<string | null> {
  const db = await getDb();
  const endToEndId = sql<string | null>`${webhookEvents.payload}->'transaction'->'pixInformation'->>'endToEndId'`;
  const [row] = await db
    .select({ endToEndId })
    .from(webhookEvents)
    .where(
      and(
        eq(webhookEvents.accountId, accountId),
        eq(webhookEvents.ledgerId, ledgerId),
        eq(webhookEvents.kind, "payment"),
        sql`${webhookEvents.confirmation} is distinct from 'contradicted'`,
        sql`${endToEndId} <> ''`,
      ),
    )
    .orderBy(desc(webhookEvents.lastReceivedAt))
    .limit(1);
  return row?.endToEndId ?? null;
}

/** The notifications that concerned one ledger row, oldest first (for the transaction timeline). */
export async function listEventsForTransaction(accountId: string, ledgerId: string): Promise<TransactionEventDto[]> {
  const db = await getDb();
  const rows = await db
    .select(eventColumns)
    .from(webhookEvents)
    .where(and(eq(webhookEvents.accountId, accountId), eq(webhookEvents.ledgerId, ledgerId)))
    .orderBy(asc(webhookEvents.firstReceivedAt), asc(webhookEvents.feedSeq));
  return rows.map((row) => {
    const dto = toFeedEvent(row);
    return {
      id: row.id,
      event: row.event,
      known: dto.known,
      status: row.status,
      deliveries: row.deliveries,
      confirmation: dto.confirmation,
      firstReceivedAt: dto.firstReceivedAt,
      lastReceivedAt: dto.lastReceivedAt,
      payload: row.payload,
    };
  });
}

export type FeedQuery = {
  accountIds: string[];
  event?: string;
  paymentMethod?: string;
  /** Only rows delivered after this feed cursor (polling). */
  afterSeq?: number;
  limit?: number;
};

/** Newest first by first delivery; with `afterSeq`, everything delivered since (repeats included), oldest first. */
export async function listFeedEvents(query: FeedQuery): Promise<ListedEvent[]> {
  if (query.accountIds.length === 0) return [];
  const db = await getDb();
  const conditions: SQL[] = [inArray(webhookEvents.accountId, query.accountIds)];
  if (query.event) conditions.push(eq(webhookEvents.event, query.event));
  if (query.paymentMethod) conditions.push(eq(webhookEvents.paymentMethod, query.paymentMethod));
  const limit = Math.min(query.limit ?? 100, 500);
  if (query.afterSeq !== undefined) {
    conditions.push(gt(webhookEvents.feedSeq, query.afterSeq));
    const rows = await db
      .select(eventColumns)
      .from(webhookEvents)
      .where(and(...conditions))
      .orderBy(asc(webhookEvents.feedSeq))
      .limit(limit);
    return rows.map(listed);
  }
  const rows = await db
    .select(eventColumns)
    .from(webhookEvents)
    .where(and(...conditions))
    .orderBy(desc(webhookEvents.firstReceivedAt), desc(webhookEvents.feedSeq))
    .limit(limit);
  return rows.map(listed);
}

const listed = (row: Parameters<typeof toFeedEvent>[0] & { sanitized: WebhookSanitized | null }): ListedEvent => ({
  ...toFeedEvent(row),
  sanitized: row.sanitized,
});

/** The highest feed cursor now: a fresh page starts polling from here. */
export async function currentFeedSeq(): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ seq: max(webhookEvents.feedSeq) }).from(webhookEvents);
  return Number(row?.seq ?? 0);
}

/** Names and methods seen, for the filter menus. */
export async function feedFacets(accountIds: string[]): Promise<{ events: string[]; methods: string[] }> {
  if (accountIds.length === 0) return { events: [], methods: [] };
  const db = await getDb();
  const scope = inArray(webhookEvents.accountId, accountIds);
  const [events, methods] = await Promise.all([
    db.selectDistinct({ value: webhookEvents.event }).from(webhookEvents).where(scope).limit(100),
    db.selectDistinct({ value: webhookEvents.paymentMethod }).from(webhookEvents).where(scope).limit(100),
  ]);
  const values = (rows: { value: string | null }[]) =>
    rows
      .map((r) => r.value)
      .filter((v): v is string => !!v)
      .sort();
  return { events: values(events), methods: values(methods) };
}

export type EventDetailDto = ListedEvent & { payload: unknown; sourceIp: string | null; ledgerOutcome: string | null };

export async function getEvent(eventId: string): Promise<EventDetailDto | null> {
  const db = await getDb();
  const [row] = await db.select(eventColumns).from(webhookEvents).where(eq(webhookEvents.id, eventId)).limit(1);
  if (!row) return null;
  return { ...listed(row), payload: row.payload, sourceIp: row.sourceIp, ledgerOutcome: row.ledgerOutcome };
}

export type RejectionDto = { id: string; receivedAt: string; sourceIp: string | null; reason: WebhookRejectionReason; status: number };

export async function listRejections(accountId: string, limit = 50): Promise<RejectionDto[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(webhookRejections)
    .where(eq(webhookRejections.accountId, accountId))
    .orderBy(desc(webhookRejections.receivedAt))
    .limit(limit);
  return rows.map((r) => ({ id: r.id, receivedAt: r.receivedAt.toISOString(), sourceIp: r.sourceIp, reason: r.reason, status: r.status }));
}

export async function inboxSummary(accountId: string): Promise<{
  accepted: number;
  deliveries: number;
  rejected: number;
  lastAcceptedAt: string | null;
  lastRejectedAt: string | null;
}> {
  const db = await getDb();
  const [events] = await db
    .select({
      count: sql<number>`count(*)::int`,
      deliveries: sql<number>`coalesce(sum(${webhookEvents.deliveries}), 0)::int`,
      last: max(webhookEvents.lastReceivedAt),
    })
    .from(webhookEvents)
    .where(eq(webhookEvents.accountId, accountId));
  const [rejections] = await db
    .select({ count: sql<number>`count(*)::int`, last: max(webhookRejections.receivedAt) })
    .from(webhookRejections)
    .where(eq(webhookRejections.accountId, accountId));
  const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null);
  return {
    accepted: Number(events?.count ?? 0),
    deliveries: Number(events?.deliveries ?? 0),
    rejected: Number(rejections?.count ?? 0),
    lastAcceptedAt: iso(events?.last),
    lastRejectedAt: iso(rejections?.last),
  };
}

export type RecentLedgerRow = {
  id: string;
  gatewayTransactionId: string;
  identifier: string;
  status: string | null;
  amountCents: number | null;
};

/** Ledger rows with a gateway id, newest first: what the sandbox tools can target. */
export async function recentGatewayTransactions(accountId: string, limit = 20): Promise<RecentLedgerRow[]> {
  const db = await getDb();
  const rows = await db
    .select({
      id: ledgerTransactions.id,
      gatewayTransactionId: ledgerTransactions.gatewayTransactionId,
      identifier: ledgerTransactions.identifier,
      status: ledgerTransactions.status,
      amountCents: ledgerTransactions.amountCents,
    })
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.accountId, accountId), sql`${ledgerTransactions.gatewayTransactionId} is not null`))
    .orderBy(desc(ledgerTransactions.createdAt))
    .limit(limit);
  return rows.map((r) => ({
    ...r,
    gatewayTransactionId: r.gatewayTransactionId!,
    amountCents: r.amountCents === null ? null : Number(r.amountCents),
  }));
}
