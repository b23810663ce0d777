import "server-only";
import { and, asc, desc, eq, getTableColumns, gt, inArray, max, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { ledgerTransactions, gatewayNotifications, webhookRejections } from "@/lib/db/schema";
import type { WebhookRejectionReason, WebhookSanitized } from "@/lib/db/tables/notifications";
import type { FeedNotification } from "@/lib/feed/types";
import { toFeedNotification } from "@/lib/feed/signal";

/** Callers must have checked the user's `webhooks.view` on every account id they pass. */

/** Every column but the raw body (up to 256 KB, kept for sanitised deliveries only): lists never need it. */
const eventColumns = (() => {
  const columns: Partial<ReturnType<typeof getTableColumns<typeof gatewayNotifications>>> = { ...getTableColumns(gatewayNotifications) };
  delete columns.rawBody;
  return columns as Omit<ReturnType<typeof getTableColumns<typeof gatewayNotifications>>, "rawBody">;
})();

/** A listed event: the feed's fields and whether its payload is a sanitised copy (lib/notifications/sanitize.ts). */
export type ListedNotification = FeedNotification & { sanitized: WebhookSanitized | null };

export type TransactionNotificationDto = {
  id: string;
  event: string | null;
  known: boolean;
  status: string | null;
  deliveries: number;
  confirmation: FeedNotification["confirmation"];
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
  const endToEndId = sql<string | null>`${gatewayNotifications.payload}->'transaction'->'pixInformation'->>'endToEndId'`;
  const [row] = await db
    .select({ endToEndId })
    .from(gatewayNotifications)
    .where(
      and(
        eq(gatewayNotifications.accountId, accountId),
        eq(gatewayNotifications.ledgerId, ledgerId),
        eq(gatewayNotifications.kind, "payment"),
        sql`${gatewayNotifications.confirmation} is distinct from 'contradicted'`,
        sql`${endToEndId} <> ''`,
      ),
    )
    .orderBy(desc(gatewayNotifications.lastReceivedAt))
    .limit(1);
  return row?.endToEndId ?? null;
}

/** The notifications that concerned one ledger row, oldest first (for the transaction timeline). */
export async function listNotificationsForTransaction(accountId: string, ledgerId: string): Promise<TransactionNotificationDto[]> {
  const db = await getDb();
  const rows = await db
    .select(eventColumns)
    .from(gatewayNotifications)
    .where(and(eq(gatewayNotifications.accountId, accountId), eq(gatewayNotifications.ledgerId, ledgerId)))
    .orderBy(asc(gatewayNotifications.firstReceivedAt), asc(gatewayNotifications.feedSeq));
  return rows.map((row) => {
    const dto = toFeedNotification(row);
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
export async function listFeedNotifications(query: FeedQuery): Promise<ListedNotification[]> {
  if (query.accountIds.length === 0) return [];
  const db = await getDb();
  const conditions: SQL[] = [inArray(gatewayNotifications.accountId, query.accountIds)];
  if (query.event) conditions.push(eq(gatewayNotifications.event, query.event));
  if (query.paymentMethod) conditions.push(eq(gatewayNotifications.paymentMethod, query.paymentMethod));
  const limit = Math.min(query.limit ?? 100, 500);
  if (query.afterSeq !== undefined) {
    conditions.push(gt(gatewayNotifications.feedSeq, query.afterSeq));
    const rows = await db
      .select(eventColumns)
      .from(gatewayNotifications)
      .where(and(...conditions))
      .orderBy(asc(gatewayNotifications.feedSeq))
      .limit(limit);
    return rows.map(listed);
  }
  const rows = await db
    .select(eventColumns)
    .from(gatewayNotifications)
    .where(and(...conditions))
    .orderBy(desc(gatewayNotifications.firstReceivedAt), desc(gatewayNotifications.feedSeq))
    .limit(limit);
  return rows.map(listed);
}

const listed = (row: Parameters<typeof toFeedNotification>[0] & { sanitized: WebhookSanitized | null }): ListedNotification => ({
  ...toFeedNotification(row),
  sanitized: row.sanitized,
});

/** The highest feed cursor now: a fresh page starts polling from here. */
export async function currentFeedSeq(): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ seq: max(gatewayNotifications.feedSeq) }).from(gatewayNotifications);
  return Number(row?.seq ?? 0);
}

/** Names and methods seen, for the filter menus. */
export async function feedFacets(accountIds: string[]): Promise<{ events: string[]; methods: string[] }> {
  if (accountIds.length === 0) return { events: [], methods: [] };
  const db = await getDb();
  const scope = inArray(gatewayNotifications.accountId, accountIds);
  const [events, methods] = await Promise.all([
    db.selectDistinct({ value: gatewayNotifications.event }).from(gatewayNotifications).where(scope).limit(100),
    db.selectDistinct({ value: gatewayNotifications.paymentMethod }).from(gatewayNotifications).where(scope).limit(100),
  ]);
  const values = (rows: { value: string | null }[]) =>
    rows
      .map((r) => r.value)
      .filter((v): v is string => !!v)
      .sort();
  return { events: values(events), methods: values(methods) };
}

export type NotificationDetailDto = ListedNotification & { payload: unknown; sourceIp: string | null; ledgerOutcome: string | null };

export async function getNotification(eventId: string): Promise<NotificationDetailDto | null> {
  const db = await getDb();
  const [row] = await db.select(eventColumns).from(gatewayNotifications).where(eq(gatewayNotifications.id, eventId)).limit(1);
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
      deliveries: sql<number>`coalesce(sum(${gatewayNotifications.deliveries}), 0)::int`,
      last: max(gatewayNotifications.lastReceivedAt),
    })
    .from(gatewayNotifications)
    .where(eq(gatewayNotifications.accountId, accountId));
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
