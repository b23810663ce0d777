/**
 * The console's own event vocabulary: stable names a producer's systems subscribe to. Each event
 * is a fact the gateway confirmed (a creation answer, its own lookup, a transfer notification
 * carrying that transfer's token); a notification alone never makes one.
 *
 * Browser-safe: forms list these types.
 */
export const EVENT_TYPES = [
  "charge.created",
  "charge.paid",
  "charge.failed",
  "charge.canceled",
  "charge.expired",
  "charge.refunded",
  "charge.charged_back",
  "subscription.created",
  "subscription.renewed",
  "subscription.renewal_failed",
  "subscription.overdue",
  "subscription.lost",
  "transfer.created",
  "transfer.completed",
  "transfer.failed",
  "transfer.canceled",
  "refund_request.created",
  "refund_request.approved",
  "refund_request.refused",
  "refund_request.canceled",
  "checkout_link.created",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The console's state of a subscription, in its own words (the `StateName` of
 * lib/subscriptions/rules.ts, which works it out; a test keeps the two lists equal). Repeated here
 * so that destinations, which the subscriptions' code writes to, does not import it back.
 */
export const SUBSCRIPTION_STATE_WORDS = ["active", "awaiting_payment", "overdue", "lost", "canceled", "unknown"] as const;
export type SubscriptionStateWord = (typeof SUBSCRIPTION_STATE_WORDS)[number];

/** Sent only by "send a test event", to the one destination it was asked for. */
export const TEST_EVENT_TYPE = "destination.test";

export type AnyEventType = EventType | typeof TEST_EVENT_TYPE;

export const EVENT_GROUPS = ["charge", "subscription", "transfer", "refund_request", "checkout_link"] as const;
export type EventGroup = (typeof EVENT_GROUPS)[number];

export function groupOf(type: EventType): EventGroup {
  return type.slice(0, type.indexOf(".")) as EventGroup;
}

export function isEventType(value: unknown): value is EventType {
  return typeof value === "string" && (EVENT_TYPES as readonly string[]).includes(value);
}

/** Whether a destination listening to `types` (null: all) receives `type`. */
export function wants(types: readonly string[] | null, type: string): boolean {
  return type === TEST_EVENT_TYPE || types === null || types.includes(type);
}
