import type { Permission } from "@/lib/auth/permissions";
import { withoutPaymentCodes } from "@/lib/charges/payment-instructions";
import type { Translate } from "@/lib/i18n/translate";
import type { LedgerRow } from "@/lib/ledger/queries";
import { refundRequestOpen } from "@/lib/refunds/outcome";
import { statusLabel } from "@/lib/status/labels";
import { isPayable, machineKindForOperation, stateOf, transactionMachine } from "@/lib/status/machine";
import type { TransactionNotificationDto } from "@/lib/notifications/queries";

/**
 * What the transaction page shows and offers, decided from the ledger row and what was recorded
 * about it: the words for the gateway's codes, the timeline, the notices, which actions are
 * offered and whether the codes to pay are still shown.
 */

export type TransactionWords = { t: Translate; has: (key: string) => boolean };

type Row = Pick<
  LedgerRow,
  | "kind"
  | "status"
  | "origin"
  | "createdAt"
  | "createdByEmail"
  | "error"
  | "submission"
  | "gatewayTransactionId"
  | "lastLookupStatus"
  | "lastWebhookStatus"
  | "response"
  | "gatewayRecord"
>;
type EventEntry = Pick<TransactionNotificationDto, "event" | "status" | "confirmation" | "deliveries" | "firstReceivedAt">;
type LookupEntry = { at: Date; userEmail: string | null; action: string; details: unknown };
type RefundEntry = { id: string; submission: string; status: string | null };

/** `codes`: the gateway's own spellings behind the words, for the tooltip. */
export type TimelineItem = { at: Date; icon: "created" | "webhook" | "lookup" | "added"; text: string; detail?: string; codes?: string };

const ADDED_FROM_LOOKUP = "transactions.add_from_lookup";

/** The gateway's codes joined for a tooltip; undefined when there is none. */
export function joinCodes(...parts: (string | null | undefined)[]): string | undefined {
  return parts.filter(Boolean).join(" · ") || undefined;
}

/** Words for what the gateway reported about this transaction; its codes stay in the tooltips. */
export function transactionWording({ t, has }: TransactionWords, operationKind: string) {
  const kind = machineKindForOperation(operationKind);
  return {
    status: (status: string | null | undefined) => (status ? statusLabel(t, has, kind, status).label : "—"),
    event: (event: string | null) =>
      event && has(`transactions.detail.events.${event}`)
        ? t(`transactions.detail.events.${event}`)
        : t("transactions.detail.eventUnknown", { event: event ?? "?" }),
    error: (errorKind: string, area: "charges.errors.gateway" | "transactions.gatewayErrors") =>
      // The lookup's "server" message wants the HTTP status, which the audit entry does not keep.
      has(`${area}.${errorKind}`) && !(area === "transactions.gatewayErrors" && errorKind === "server")
        ? t(`${area}.${errorKind}`)
        : t("transactions.detail.errorOther"),
    who: (email: string | null) => email ?? t("transactions.detail.unknownUser"),
  };
}

/** What was recorded about the transaction, oldest first. */
export function transactionTimeline(
  tx: Row,
  events: readonly EventEntry[],
  lookups: readonly LookupEntry[],
  words: TransactionWords,
): TimelineItem[] {
  const { t } = words;
  const say = transactionWording(words, tx.kind);
  // A row added from a lookup was not created here: its first entry is the addition.
  const addedByLookup = lookups.some((entry) => entry.action === ADDED_FROM_LOOKUP);
  const created: TimelineItem = {
    at: tx.createdAt,
    icon: "created",
    text:
      tx.origin === "console"
        ? t("transactions.detail.timelineCreated", { who: say.who(tx.createdByEmail) })
        : t("transactions.detail.timelineCreatedExternal", { origin: t(`transactions.detail.origins.${tx.origin}`) }),
    detail: tx.error
      ? t("transactions.detail.timelineError", { reason: say.error(tx.error.kind, "charges.errors.gateway") })
      : tx.submission
        ? t("transactions.detail.timelineSubmission", { state: t(`vocab.submission.${tx.submission}`) })
        : undefined,
    codes: joinCodes(tx.error?.kind, tx.submission),
  };
  const notified = events.map((event): TimelineItem => ({
    at: new Date(event.firstReceivedAt),
    icon: "webhook",
    text: t("transactions.detail.timelineWebhook", { event: say.event(event.event), status: say.status(event.status) }),
    codes: joinCodes(event.event, event.status),
    detail:
      [
        event.confirmation ? t(`activity.confirmation.${event.confirmation}`) : null,
        event.deliveries > 1 ? t("transactions.detail.timelineWebhookRepeated", { count: event.deliveries }) : null,
      ]
        .filter(Boolean)
        .join(" · ") || undefined,
  }));
  const looked = lookups.map((entry): TimelineItem => {
    const details = (entry.details ?? {}) as { status?: string; error?: string };
    if (entry.action === ADDED_FROM_LOOKUP) {
      return { at: entry.at, icon: "added", text: t("transactions.detail.timelineAdded", { who: say.who(entry.userEmail) }) };
    }
    return {
      at: entry.at,
      icon: "lookup",
      text: details.error
        ? t("transactions.detail.timelineLookupFailed", {
            who: say.who(entry.userEmail),
            reason: say.error(details.error, "transactions.gatewayErrors"),
          })
        : t("transactions.detail.timelineLookup", { who: say.who(entry.userEmail), status: say.status(details.status) }),
      codes: joinCodes(details.error, details.status),
    };
  });
  return [...(addedByLookup ? [] : [created]), ...notified, ...looked].sort((a, b) => a.at.getTime() - b.at.getTime());
}

/**
 * The actions the page offers. A request waiting for its outcome is shown, not asked for again
 * (the interface allows one per transaction); only a charge the gateway confirmed as paid can be
 * refunded: elsewhere the request could only be refused.
 */
export function transactionActions<R extends RefundEntry>(
  tx: Pick<Row, "status" | "gatewayTransactionId">,
  refunds: readonly R[],
  allowed: (permission: Permission) => boolean,
): { openRefund: R | undefined; canRefund: boolean; canRefresh: boolean } {
  const openRefund = refunds.find(refundRequestOpen);
  return {
    openRefund,
    canRefund:
      !openRefund && allowed("refunds.request") && Boolean(tx.gatewayTransactionId) && stateOf(transactionMachine, tx.status) === "paid",
    canRefresh: allowed("ledger.refresh"),
  };
}

/** The notifications about a transaction are listed only for those who may see the inbox. */
export function showsNotifications(allowed: (permission: Permission) => boolean): boolean {
  return allowed("webhooks.view");
}

/**
 * Whether the charge can still be paid, and the gateway's answers as the raw view shows them:
 * once it cannot, without their codes to pay.
 */
export function paymentView(tx: Pick<Row, "status" | "kind" | "response" | "gatewayRecord">) {
  const payable = isPayable(tx.status, tx.kind);
  return {
    payable,
    paid: stateOf(transactionMachine, tx.status) === "paid",
    response: payable ? tx.response : withoutPaymentCodes(tx.response),
    record: payable ? tx.gatewayRecord : withoutPaymentCodes(tx.gatewayRecord),
  };
}

/** The lookup and the last notification disagree, or a lookup answered and no notification came. */
export function statusNotices(tx: Pick<Row, "lastLookupStatus" | "lastWebhookStatus">, eventCount: number) {
  return {
    gap: Boolean(tx.lastLookupStatus && tx.lastWebhookStatus && tx.lastLookupStatus !== tx.lastWebhookStatus),
    lookupWithoutWebhook: Boolean(tx.lastLookupStatus && !tx.lastWebhookStatus && eventCount === 0),
  };
}
