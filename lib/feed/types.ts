import type { WebhookConfirmation, NotificationKind } from "@/lib/db/tables/notifications";

/** What the feed sends to browsers about one stored notification (never the payload or a token). */
export type FeedNotification = {
  id: string;
  accountId: string;
  /** Feed cursor: grows on every delivery, repeated ones included. */
  seq: number;
  kind: NotificationKind;
  event: string | null;
  known: boolean;
  gatewayTransactionId: string | null;
  identifier: string | null;
  status: string | null;
  paymentMethod: string | null;
  amountCents: number | null;
  ledgerId: string | null;
  /** The delivery changed the ledger row (created or updated it). */
  ledgerChanged: boolean;
  /** False while the event is stored but not yet applied to the ledger. */
  applied: boolean;
  /** "confirming": received, the gateway is being asked before the console believes it. */
  confirmation: WebhookConfirmation | null;
  deliveries: number;
  firstReceivedAt: string;
  lastReceivedAt: string;
};

export type FeedFilter = {
  accountId?: string;
  ledgerId?: string;
  /** The gateway's id of the transaction, for a page that follows a charge it may not have a ledger row of yet. */
  gatewayTransactionId?: string;
  event?: string;
  paymentMethod?: string;
};

export function matchesFeedFilter(event: FeedNotification, filter: FeedFilter): boolean {
  if (filter.accountId && event.accountId !== filter.accountId) return false;
  if (filter.ledgerId && event.ledgerId !== filter.ledgerId) return false;
  if (filter.gatewayTransactionId && event.gatewayTransactionId !== filter.gatewayTransactionId) return false;
  if (filter.event && event.event !== filter.event) return false;
  if (filter.paymentMethod && event.paymentMethod !== filter.paymentMethod) return false;
  return true;
}

/**
 * A feed cursor is taken before its transaction commits, so events can become visible slightly
 * out of order: a resumed stream or a poll looks back this many cursors, and the browser drops
 * what it already has (by id and cursor).
 */
export const FEED_RESUME_OVERLAP = 200;
