import { eventBody, type Fact } from "./events";
import type { EventBody } from "./schemas";
import { TEST_EVENT_TYPE, type AnyEventType, type EventType } from "./vocabulary";

/**
 * One example body per event type, made by the same code that writes real ones (eventBody) from
 * records shaped as the console stores them: the documentation cannot show a field the console
 * does not send.
 */
const ACCOUNT = "3f2c1b0a-9e8d-4c7b-a6f5-e4d3c2b1a098";
const AT = new Date("2026-11-20T15:05:12.345Z");

const pixCharge = {
  id: "8d7f6e5c-4b3a-4291-8f7e-6d5c4b3a2910",
  account_id: ACCOUNT,
  kind: "pix_charge",
  identifier: "pedido-10482",
  origin: "console",
  submission: "SUBMITTED",
  gateway_transaction_id: "tx_01JD2Y8K7Q4M3N2P1R0S9T8V7W",
  status_source: "lookup",
  payment_method: "PIX",
  amount_cents: 19790,
  fee_cents: 99,
  currency: "BRL",
  client_name: "Maria Souza",
  client_email: "maria@example.com",
  client_document: "529.982.247-25",
  request: {
    identifier: "pedido-10482",
    amount: 197.9,
    client: { name: "Maria Souza", email: "maria@example.com", phone: "(11) 98888-7777", document: "529.982.247-25" },
    products: [{ id: "curso-pix", name: "Curso Pix na prática", quantity: 1, price: 197.9 }],
    metadata: { pedido: "10482" },
  },
  created_at: "2026-11-20T15:01:02.000+00:00",
  paid_at: "2026-11-20T15:04:58.000+00:00",
};

const notification = {
  event: "TRANSACTION_PAID",
  token: "[redacted]",
  checkoutUrl: "https://pay.example.com/c/7Hq2?utm_source=instagram&utm_medium=stories&utm_campaign=black-friday",
  client: { id: "cli_77", name: "Maria Souza", email: "maria@example.com", phone: "(11) 98888-7777", cpf: "529.982.247-25", cnpj: null },
  orderItems: [{ id: "item_1", price: 197.9, product: { id: "prd_11", name: "Curso Pix na prática", externalId: "curso-pix" } }],
  trackProps: {
    isUpsell: false,
    ip: "203.0.113.9",
    user_agent: "Mozilla/5.0",
    utm_source: "instagram",
    utm_medium: "stories",
    utm_campaign: "black-friday",
  },
};

const CHARGE_STATUS: Record<string, [string | null, string]> = {
  "charge.created": [null, "OK"],
  "charge.paid": ["PENDING", "COMPLETED"],
  "charge.failed": ["PENDING", "FAILED"],
  "charge.canceled": ["PENDING", "CANCELED"],
  "charge.expired": ["PENDING", "EXPIRED"],
  "charge.refunded": ["COMPLETED", "REFUNDED"],
  "charge.charged_back": ["COMPLETED", "CHARGED_BACK"],
};

const transfer = {
  id: "5b4a3928-1706-4f5e-9d8c-7b6a59483726",
  account_id: ACCOUNT,
  identifier: "tr-2026-11-20-0007",
  submission: "SUBMITTED",
  amount_cents: 150000,
  fee_cents: 150,
  pix_key_type: "email",
  pix_key: "afiliado@example.com",
  owner_name: "Joao Pereira",
  owner_document_type: "cpf",
  owner_document_number: "52998224725",
  withdraw_id: "wd_01JD2Z3A4B5C6D7E8F9G0H1J2K",
  withdraw_status_source: "notification",
  receipt_url: "https://gateway.example.com/receipts/wd_01JD2Z3A4B5C6D7E8F9G0H1J2K",
  created_at: "2026-11-20T15:00:00.000+00:00",
};
const TRANSFER_STATUS: Record<string, [string | null, string, string]> = {
  "transfer.created": [null, "PENDING", "creation"],
  "transfer.completed": ["PENDING", "COMPLETED", "notification"],
  "transfer.failed": ["PENDING", "FAILED", "notification"],
  "transfer.canceled": ["PENDING", "CANCELED", "notification"],
};

const refund = {
  id: "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  account_id: ACCOUNT,
  gateway_transaction_id: "tx_01JD2Y8K7Q4M3N2P1R0S9T8V7W",
  ledger_transaction_id: pixCharge.id,
  gateway_refund_id: "rf_01JD31QWERTY",
  amount_cents: 19790,
  reason: "CUSTOMER_REQUEST",
  description: "Cliente desistiu da compra",
  created_at: "2026-11-20T15:10:00.000+00:00",
};
const REFUND_STATUS: Record<string, [string | null, string]> = {
  "refund_request.created": [null, "PENDING"],
  "refund_request.approved": ["PENDING", "APPROVED"],
  "refund_request.refused": ["PENDING", "REFUSED"],
  "refund_request.canceled": ["PENDING", "CANCELED"],
};

/** A card subscription as lib/subscriptions writes it into a "subscription" outbox row. */
const subscription = {
  id: "6e5d4c3b-2a19-4807-b6f5-e4d3c2b1a0f9",
  gateway_subscription_id: "sub_01JD2W4X5Y6Z7A8B9C0D1E2F3G",
  identifier: "assinatura-clube-551",
  payment_method: "CREDIT_CARD",
  amount_cents: 4990,
  currency: "BRL",
  periodicity_type: "MONTHS",
  periodicity: 1,
  client_name: "Maria Souza",
  client_email: "maria@example.com",
  client_document: "529.982.247-25",
  product_id: "clube",
  product_name: "Clube mensal",
  started_at: "2026-06-20T14:00:00.000Z",
  gateway_status: "ACTIVE",
};
const renewal = {
  gateway_transaction_id: "tx_01JD2Y9M8N7P6Q5R4S3T2V1W0X",
  ledger_id: "1a2b3c4d-5e6f-4071-8293-a4b5c6d7e8f9",
  identifier: "assinatura-clube-551-6",
  charge_number: 6,
  due_at: "2026-11-20T14:00:00.000Z",
  paid_at: null,
  status: "PENDING",
  amount_cents: 4990,
  currency: "BRL",
};
/**
 * The console's state before and at the fact, its DerivedState (lib/subscriptions/rules.ts), the
 * charge it is about and when it was recorded: the sixth charge is paid (renewed), or it fails and
 * stays unpaid past the grace period (overdue) until three periods are missed (lost).
 */
const SUBSCRIPTION_FACTS: Record<string, [string | null, string, Record<string, unknown>, Record<string, unknown>, Date]> = {
  "subscription.renewed": [
    "awaiting_payment",
    "active",
    { state: "active", lastPaidAt: "2026-11-20T15:04:58.000Z" },
    { ...renewal, paid_at: "2026-11-20T15:04:58.000Z", status: "COMPLETED" },
    AT,
  ],
  "subscription.renewal_failed": [
    "awaiting_payment",
    "awaiting_payment",
    { state: "awaiting_payment", dueDay: "2026-11-20", daysSinceDue: 0 },
    { ...renewal, status: "FAILED" },
    AT,
  ],
  "subscription.overdue": [
    "awaiting_payment",
    "overdue",
    { state: "overdue", dueDay: "2026-11-20", days: 4, missedPeriods: 1 },
    { ...renewal, status: "FAILED" },
    new Date("2026-11-24T03:00:07.512Z"),
  ],
  "subscription.lost": [
    "overdue",
    "lost",
    { state: "lost", dueDay: "2026-11-20", missedPeriods: 3, sinceDay: "2027-01-24" },
    { ...renewal, status: "FAILED" },
    new Date("2027-01-24T03:00:07.512Z"),
  ],
};

/** The record an example is written from, as the outbox would hold it. */
export function exampleFact(type: EventType): { fact: Fact; notification?: Record<string, unknown> } {
  const base = { id: "msg_2f9c8b7a6d5e4f3a2b1c0d9e8f7a6b5c", accountId: ACCOUNT, occurredAt: AT };
  if (type.startsWith("charge.")) {
    const [previousStatus, status] = CHARGE_STATUS[type]!;
    const snapshot = {
      ...pixCharge,
      status,
      status_source: type === "charge.created" ? "creation" : "lookup",
      paid_at: ["charge.created", "charge.failed", "charge.canceled", "charge.expired"].includes(type) ? null : pixCharge.paid_at,
    };
    return {
      fact: { ...base, source: "ledger", objectId: pixCharge.id, previousStatus, status, snapshot },
      notification: type === "charge.created" ? undefined : notification,
    };
  }
  if (type === "subscription.created") {
    const snapshot = {
      ...pixCharge,
      id: "c3b2a190-8f7e-4d6c-9b5a-483726150493",
      kind: "pix_subscription",
      identifier: "assinatura-clube-551",
      status: "OK",
      status_source: "creation",
      paid_at: null,
      request: {
        identifier: "assinatura-clube-551",
        amount: 49.9,
        client: { name: "Maria Souza", email: "maria@example.com", phone: "(11) 98888-7777", document: "529.982.247-25" },
        product: { id: "clube", name: "Clube mensal", price: 49.9 },
        subscription: { periodicityType: "MONTHS", periodicity: 1 },
      },
      amount_cents: 4990,
    };
    return { fact: { ...base, source: "ledger", objectId: snapshot.id, previousStatus: null, status: "OK", snapshot } };
  }
  if (type in SUBSCRIPTION_FACTS) {
    const [previousStatus, status, state, charge, occurredAt] = SUBSCRIPTION_FACTS[type]!;
    const snapshot = { event: type.slice("subscription.".length), subscription, state, charge };
    return { fact: { ...base, source: "subscription", objectId: subscription.id, previousStatus, status, snapshot, occurredAt } };
  }
  if (type.startsWith("transfer.")) {
    const [previousStatus, status, source] = TRANSFER_STATUS[type]!;
    return {
      fact: {
        ...base,
        source: "transfer",
        objectId: transfer.id,
        previousStatus,
        status,
        snapshot: { ...transfer, withdraw_status: status, withdraw_status_source: source },
      },
    };
  }
  if (type.startsWith("refund_request.")) {
    const [previousStatus, status] = REFUND_STATUS[type]!;
    return { fact: { ...base, source: "refund_request", objectId: refund.id, previousStatus, status, snapshot: { ...refund, status } } };
  }
  const link = {
    id: "9f8e7d6c-5b4a-4392-8172-635445362718",
    account_id: ACCOUNT,
    checkout_url: "https://pay.example.com/c/7Hq2",
    product_external_id: "curso-pix",
    product_name: "Curso Pix na prática",
    offer_name: "Lançamento",
    price: "197.90",
    currency: "BRL",
    lang: "pt-BR",
    created_at: "2026-11-20T14:00:00.000+00:00",
  };
  return { fact: { ...base, source: "checkout_link", objectId: link.id, previousStatus: null, status: null, snapshot: link } };
}

export function exampleBody(type: AnyEventType): EventBody {
  if (type === TEST_EVENT_TYPE) {
    return {
      type,
      timestamp: AT.toISOString(),
      data: {
        object: "test",
        destinationId: "7c6b5a49-3827-4160-9f8e-7d6c5b4a3928",
        accountId: ACCOUNT,
        mode: "test",
        message: "Evento de teste enviado pelo console.",
      },
    };
  }
  const { fact, notification: n } = exampleFact(type);
  return eventBody(fact, type, { mode: "live", notification: n ?? null });
}
