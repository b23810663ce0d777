import { fromCents } from "@/lib/br/money";
import { utmOf } from "@/lib/gateway/origin";
import { machineForOperation, refundMachine, stateOf, transactionMachine, transferMachine } from "@/lib/status/machine";
import type { OutboxSource } from "@/lib/db/tables/destinations";
import type {
  ChargeData,
  CheckoutLinkData,
  EventBody,
  EventData,
  RefundRequestData,
  SubscriptionData,
  SubscriptionStateData,
  TransferData,
} from "./schemas";
import { SUBSCRIPTION_STATE_WORDS, type EventType, type SubscriptionStateWord } from "./vocabulary";

/** One outbox row as the worker reads it: a fact, with the record as the fact left it (column names). */
export type Fact = {
  id: string;
  accountId: string;
  source: Exclude<OutboxSource, "test">;
  objectId: string;
  previousStatus: string | null;
  status: string | null;
  snapshot: Record<string, unknown>;
  occurredAt: Date;
};

/** What else the console knows when it writes the body. */
export type FactContext = {
  mode: "test" | "live";
  /** For charges: the latest payment notification the gateway did not contradict (client, items, trackProps, checkoutUrl). */
  notification?: Record<string, unknown> | null;
};

const CHARGE_TYPES = {
  paid: "charge.paid",
  failed: "charge.failed",
  canceled: "charge.canceled",
  expired: "charge.expired",
  refunded: "charge.refunded",
  charged_back: "charge.charged_back",
} as const satisfies Record<string, EventType>;

const TRANSFER_TYPES = {
  completed: "transfer.completed",
  failed: "transfer.failed",
  canceled: "transfer.canceled",
} as const satisfies Record<string, EventType>;
/** The `event` of a "subscription" outbox row (written by lib/subscriptions) and the type it is. */
const SUBSCRIPTION_TYPES = {
  renewed: "subscription.renewed",
  renewal_failed: "subscription.renewal_failed",
  overdue: "subscription.overdue",
  lost: "subscription.lost",
} as const satisfies Record<string, EventType>;
const REFUND_TYPES = {
  approved: "refund_request.approved",
  refused: "refund_request.refused",
  canceled: "refund_request.canceled",
} as const satisfies Record<string, EventType>;

const text = (value: unknown): string | null => (typeof value === "string" && value.length > 0 ? value : null);
const num = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value)
    ? value
    : typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))
      ? Number(value)
      : null;
const record = (value: unknown): Record<string, unknown> | null =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
const whole = (value: unknown): number | null => {
  const n = num(value);
  return n !== null && Number.isSafeInteger(n) ? n : null;
};
/** A calendar day, YYYY-MM-DD, that exists (2026-02-30 does not). */
const day = (value: unknown): string | null => {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value ? value : null;
};
const stateWord = (value: unknown): SubscriptionStateWord =>
  typeof value === "string" && (SUBSCRIPTION_STATE_WORDS as readonly string[]).includes(value)
    ? (value as SubscriptionStateWord)
    : "unknown";

/**
 * Which event a fact is, or null when it is none. Only what the gateway confirmed counts: a ledger
 * status from a creation answer or from the gateway's own lookup, a transfer status from its
 * creation answer or from a notification that carried that transfer's own token (the interface's
 * only proof for transfers), a refund request the gateway answered, a checkout link it created.
 * A status a notification alone set (it moves no money and is applied at once) makes no event.
 * A "subscription" row (lib/subscriptions writes it when the gateway confirmed a renewal's outcome,
 * or when the console's calculated state became overdue or lost) names its event in
 * `snapshot.event`; any other value, or a malformed snapshot, is skipped.
 */
export function classify(fact: Fact): EventType | null {
  const s = fact.snapshot;
  switch (fact.source) {
    case "ledger": {
      const source = s.status_source;
      if (source !== "creation" && source !== "lookup") return null;
      const kind = String(s.kind ?? "");
      const machine = machineForOperation(kind);
      const from = stateOf(machine, fact.previousStatus);
      const to = stateOf(machine, fact.status);
      if (to === null || to === from || to === "unknown") return null;
      if (machine.kind === "transaction") {
        if (to === "awaiting") return from === null ? "charge.created" : null;
        return CHARGE_TYPES[to as keyof typeof CHARGE_TYPES] ?? null;
      }
      return from === null && source === "creation" ? "subscription.created" : null;
    }
    case "transfer": {
      const source = s.withdraw_status_source;
      if (source !== "creation" && source !== "notification") return null;
      const from = stateOf(transferMachine, fact.previousStatus);
      const to = stateOf(transferMachine, fact.status);
      if (to === null || to === from || to === "unknown") return null;
      if (to === "awaiting") return from === null && source === "creation" ? "transfer.created" : null;
      return TRANSFER_TYPES[to as keyof typeof TRANSFER_TYPES] ?? null;
    }
    case "refund_request": {
      if (fact.previousStatus === null) return "refund_request.created";
      const from = stateOf(refundMachine, fact.previousStatus);
      const to = stateOf(refundMachine, fact.status);
      if (to === null || to === from) return null;
      return REFUND_TYPES[to as keyof typeof REFUND_TYPES] ?? null;
    }
    case "checkout_link":
      return "checkout_link.created";
    case "subscription": {
      const event = record(s)?.event;
      return typeof event === "string" && Object.hasOwn(SUBSCRIPTION_TYPES, event)
        ? SUBSCRIPTION_TYPES[event as keyof typeof SUBSCRIPTION_TYPES]
        : null;
    }
  }
}

function iso(value: unknown): string | null {
  if (typeof value !== "string" && !(value instanceof Date)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function moneyOf(cents: unknown, currency: unknown) {
  const read = num(cents);
  // A count of cents past what a number holds exactly is no amount (and no schema's integer).
  const amountCents = read !== null && Number.isSafeInteger(Math.round(read)) ? read : null;
  return {
    amount: amountCents === null ? null : fromCents(amountCents),
    amountCents: amountCents === null ? null : Math.round(amountCents),
    currency: text(currency) ?? "BRL",
  };
}

function productsOf(request: Record<string, unknown> | null, notification: Record<string, unknown> | null): ChargeData["products"] {
  const items = Array.isArray(notification?.orderItems) ? notification.orderItems : null;
  if (items && items.length > 0) {
    return items.map((item) => {
      const i = record(item) ?? {};
      const product = record(i.product) ?? {};
      return {
        id: text(product.id) ?? text(i.id),
        externalId: text(product.externalId),
        name: text(product.name),
        quantity: num(i.quantity),
        price: num(i.price),
      };
    });
  }
  const sent = Array.isArray(request?.products) ? request.products : [];
  return sent.map((p) => {
    const product = record(p) ?? {};
    return { id: text(product.id), externalId: null, name: text(product.name), quantity: num(product.quantity), price: num(product.price) };
  });
}

function chargeData(fact: Fact, ctx: FactContext, status: { status: string | null; gatewayStatus: string | null }): ChargeData {
  const s = fact.snapshot;
  const request = record(s.request);
  const n = ctx.notification ?? null;
  const client = record(n?.client);
  const requestClient = record(request?.client);
  const transaction = record(n?.transaction);
  const trackProps = record(n?.trackProps);
  const checkoutUrl = text(n?.checkoutUrl);
  return {
    object: "charge",
    id: fact.objectId,
    accountId: fact.accountId,
    mode: ctx.mode,
    ...status,
    kind: String(s.kind),
    gatewayId: text(s.gateway_transaction_id),
    identifier: String(s.identifier),
    paymentMethod: text(s.payment_method),
    ...moneyOf(s.amount_cents, s.currency),
    feeCents: num(s.fee_cents),
    customer: {
      name: text(s.client_name) ?? text(client?.name),
      email: text(s.client_email) ?? text(client?.email),
      document: text(s.client_document) ?? text(client?.cpf) ?? text(client?.cnpj),
      phone: text(requestClient?.phone) ?? text(client?.phone),
    },
    products: productsOf(request, n),
    trackProps,
    utm: utmOf(trackProps, checkoutUrl),
    checkoutUrl,
    metadata: record(request?.metadata),
    createdAt: iso(s.created_at) ?? iso(transaction?.createdAt),
    paidAt: iso(s.paid_at),
  };
}

function subscriptionData(fact: Fact, ctx: FactContext, status: { status: string | null; gatewayStatus: string | null }): SubscriptionData {
  const s = fact.snapshot;
  const request = record(s.request);
  const client = record(request?.client);
  const product = record(request?.product);
  return {
    object: "subscription",
    id: fact.objectId,
    accountId: fact.accountId,
    mode: ctx.mode,
    ...status,
    kind: String(s.kind),
    gatewayId: text(s.gateway_transaction_id),
    identifier: String(s.identifier),
    paymentMethod: text(s.payment_method),
    ...moneyOf(s.amount_cents, s.currency),
    customer: { name: text(s.client_name), email: text(s.client_email), document: text(s.client_document), phone: text(client?.phone) },
    product: product ? { id: text(product.id), name: text(product.name), price: num(product.price) } : null,
    recurrence: record(request?.subscription),
    createdAt: iso(s.created_at),
  };
}

/**
 * The body of a "subscription" row: the subscription as the console keeps it, its state (the
 * DerivedState of lib/subscriptions/rules.ts, as JSON) and the charge. Written for a snapshot of
 * any shape: what is missing or malformed is null, never an exception (one bad row would stop the
 * whole batch).
 */
function subscriptionStateData(fact: Fact, ctx: FactContext): SubscriptionStateData {
  const s = record(fact.snapshot) ?? {};
  const sub = record(s.subscription) ?? {};
  const state = record(s.state) ?? {};
  const charge = record(s.charge);
  const periodicityType = text(sub.periodicity_type);
  const productId = text(sub.product_id);
  const productName = text(sub.product_name);
  return {
    object: "subscription",
    id: fact.objectId,
    accountId: fact.accountId,
    mode: ctx.mode,
    status: stateWord(fact.status ?? state.state),
    gatewayStatus: text(sub.gateway_status),
    gatewaySubscriptionId: text(sub.gateway_subscription_id),
    identifier: text(sub.identifier),
    paymentMethod: text(sub.payment_method),
    ...moneyOf(sub.amount_cents, sub.currency),
    periodicity: periodicityType ? { type: periodicityType, every: whole(sub.periodicity) } : null,
    customer: { name: text(sub.client_name), email: text(sub.client_email), document: text(sub.client_document) },
    product: productId || productName ? { id: productId, name: productName } : null,
    startedAt: iso(sub.started_at),
    state: {
      dueDate: day(state.dueDay),
      daysSinceDue: whole(state.daysSinceDue) ?? whole(state.days),
      daysOverdue: whole(state.days),
      missedPeriods: whole(state.missedPeriods),
      lostSince: day(state.sinceDay),
      lastPaidAt: iso(state.lastPaidAt),
      canceledAt: iso(state.since),
    },
    charge: charge
      ? {
          gatewayId: text(charge.gateway_transaction_id),
          ledgerId: text(charge.ledger_id),
          identifier: text(charge.identifier),
          chargeNumber: whole(charge.charge_number),
          dueAt: iso(charge.due_at),
          paidAt: iso(charge.paid_at),
          status: stateOf(transactionMachine, text(charge.status)),
          gatewayStatus: text(charge.status),
          ...moneyOf(charge.amount_cents, text(charge.currency) ?? sub.currency),
        }
      : null,
  };
}

function transferData(fact: Fact, ctx: FactContext, status: { status: string | null; gatewayStatus: string | null }): TransferData {
  const s = fact.snapshot;
  return {
    object: "transfer",
    id: fact.objectId,
    accountId: fact.accountId,
    mode: ctx.mode,
    ...status,
    identifier: String(s.identifier),
    withdrawId: text(s.withdraw_id),
    ...moneyOf(s.amount_cents, "BRL"),
    feeCents: num(s.fee_cents),
    pixKeyType: String(s.pix_key_type ?? ""),
    pixKey: String(s.pix_key ?? ""),
    receiver: {
      name: String(s.owner_name ?? ""),
      documentType: String(s.owner_document_type ?? ""),
      documentNumber: String(s.owner_document_number ?? ""),
    },
    receiptUrl: text(s.receipt_url),
    createdAt: iso(s.created_at),
  };
}

function refundRequestData(
  fact: Fact,
  ctx: FactContext,
  status: { status: string | null; gatewayStatus: string | null },
): RefundRequestData {
  const s = fact.snapshot;
  const { amount, amountCents } = moneyOf(s.amount_cents, "BRL");
  return {
    object: "refund_request",
    id: fact.objectId,
    accountId: fact.accountId,
    mode: ctx.mode,
    ...status,
    gatewayRefundId: text(s.gateway_refund_id),
    transactionId: String(s.gateway_transaction_id ?? ""),
    chargeId: text(s.ledger_transaction_id),
    amount,
    amountCents,
    reason: String(s.reason ?? ""),
    description: text(s.description),
    createdAt: iso(s.created_at),
  };
}

function checkoutLinkData(fact: Fact, ctx: FactContext): CheckoutLinkData {
  const s = fact.snapshot;
  return {
    object: "checkout_link",
    id: fact.objectId,
    accountId: fact.accountId,
    mode: ctx.mode,
    checkoutUrl: String(s.checkout_url ?? ""),
    product: { externalId: String(s.product_external_id ?? ""), name: String(s.product_name ?? "") },
    offer: {
      name: String(s.offer_name ?? ""),
      price: String(s.price ?? ""),
      currency: String(s.currency ?? ""),
      lang: String(s.lang ?? ""),
    },
    createdAt: iso(s.created_at),
  };
}

/** The body of the event a fact is: `{ type, timestamp, data }`. */
export function eventBody(fact: Fact, type: EventType, ctx: FactContext): EventBody {
  let data: EventData;
  switch (fact.source) {
    case "ledger": {
      const machine = machineForOperation(String(fact.snapshot.kind ?? ""));
      const status = { status: stateOf(machine, fact.status), gatewayStatus: fact.status };
      data = type.startsWith("subscription.") ? subscriptionData(fact, ctx, status) : chargeData(fact, ctx, status);
      break;
    }
    case "transfer":
      data = transferData(fact, ctx, { status: stateOf(transferMachine, fact.status), gatewayStatus: fact.status });
      break;
    case "refund_request":
      data = refundRequestData(fact, ctx, { status: stateOf(refundMachine, fact.status), gatewayStatus: fact.status });
      break;
    case "checkout_link":
      data = checkoutLinkData(fact, ctx);
      break;
    case "subscription":
      data = subscriptionStateData(fact, ctx);
      break;
  }
  return { type, timestamp: fact.occurredAt.toISOString(), data };
}
