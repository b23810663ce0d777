import { createHash, timingSafeEqual } from "node:crypto";
import { isKnownWebhookEvent, paymentWebhookSchema } from "@/lib/gateway/schemas/webhooks";
import { toCents } from "@/lib/br/money";
import { parseGatewayTime } from "@/lib/gateway/time";

export const REDACTED = "[redacted]";

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** JSON with keys sorted at every level, so equal content always gives equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isRecord(value)) {
    return `{${Object.keys(value)
      .sort()
      .filter((key) => value[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Constant-time comparison; hashing first gives equal lengths without revealing the expected one. */
export function tokensEqual(received: unknown, expected: string): boolean {
  if (typeof received !== "string" || received.length === 0 || expected.length === 0) return false;
  const a = createHash("sha256").update(received, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}

export const isSecretKey = (key: string) => key === "token" || key === "webhookToken";

/** The payload as stored and shown: the top-level `token` (and any nested `webhookToken`) replaced. */
export function redactPayload(payload: unknown): unknown {
  if (Array.isArray(payload)) return payload.map(redactPayload);
  if (!isRecord(payload)) return payload;
  return Object.fromEntries(
    Object.entries(payload).map(([key, value]) => (isSecretKey(key) ? [key, REDACTED] : [key, redactPayload(value)])),
  );
}

/** A JSON.stringify replacer that writes what redactPayload would, without copying the payload first. */
export function redactingReplacer(key: string, value: unknown): unknown {
  return isSecretKey(key) ? REDACTED : value;
}

/** Timestamps a transaction object may carry about its own state changes (loosely typed: any gateway). */
const STATE_TIMESTAMPS = ["createdAt", "payedAt", "paidAt", "canceledAt", "refundedAt", "chargedBackAt", "updatedAt"] as const;

// Years 1 to 9999: Postgres's timestamptz refuses much of what Date.parse accepts ("-271821-04-20").
/**
 * The moment the notification describes: the latest of the transaction's own timestamps
 * (a TRANSACTION_CREATED carries createdAt, a TRANSACTION_PAID its payedAt, …), or null
 * when it carries none (then arrival order decides).
 */
export function reportedAt(transaction: Record<string, unknown>): Date | null {
  let latest: Date | null = null;
  for (const key of STATE_TIMESTAMPS) {
    const time = parseGatewayTime(transaction[key]);
    if (time && (!latest || time > latest)) latest = time;
  }
  return latest;
}

/** Hex SHA-256 of the text's UTF-8 bytes. */
export function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** A shallow copy of the payload without its top-level `token`. */
export function withoutToken(payload: Record<string, unknown>): Record<string, unknown> {
  const rest = { ...payload };
  delete rest.token;
  return rest;
}

/**
 * What makes two deliveries "the same notification" for a payment webhook: its event name, the
 * transaction id, the status reported and the transaction's own state timestamps. Everything
 * else (token, client data, trackProps, checkoutUrl…) may legitimately differ between retries of
 * one notification or be re-rendered by the gateway, so it is left out. A new status, a new
 * event name or a new timestamp is a new notification. Other shapes: the whole payload minus
 * the token.
 */
export function paymentDedupeKey(event: string, transaction: Record<string, unknown>): string {
  const stamps = Object.fromEntries(STATE_TIMESTAMPS.map((key) => [key, transaction[key] ?? null]));
  return `p1:${sha256(canonicalJson({ event, id: transaction.id, status: transaction.status, ...stamps }))}`;
}

export function rawDedupeKey(kind: string, payload: Record<string, unknown>): string {
  return `${kind.slice(0, 1)}1:${sha256(canonicalJson(withoutToken(payload)))}`;
}

/** The first `max` UTF-16 units, one fewer rather than half a surrogate pair (jsonb refuses a lone half). */
function head(text: string, max = 200): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

const clip = (value: unknown, max = 200): string | null => (typeof value === "string" && value.length > 0 ? head(value, max) : null);

/** Centavos that fit the ledger's bigint columns exactly; a made-up 1e300 is no amount. */
const cents = (value: number): number | null => {
  const result = toCents(value);
  return Number.isSafeInteger(result) ? result : null;
};

/** What a payment notification says, read through the interface's schema. */
export type PaymentNotification = {
  event: string;
  known: boolean;
  token: unknown;
  transaction: Record<string, unknown>;
  gatewayTransactionId: string;
  identifier: string | null;
  status: string;
  paymentMethod: string;
  amountCents: number | null;
  feeCents: number | null;
  paidAt: Date | null;
  reportedAt: Date | null;
  client: { name: string | null; email: string | null; document: string | null };
};

/** As the receiver stores it: with the key that recognises its retries. */
export type ParsedPaymentNotification = PaymentNotification & { dedupeKey: string };

/** A payload of the interface's payment webhook shape, or null (then it is kept as "unknown"). */
export function parsePaymentNotification(payload: Record<string, unknown>): ParsedPaymentNotification | null {
  const read = readPayment(payload);
  if (!read) return null;
  // The object is new and ours: the key is added to it rather than to a copy (this is per delivery).
  const parsed = read.notification as ParsedPaymentNotification;
  parsed.dedupeKey = paymentDedupeKey(read.event, read.tx);
  return parsed;
}

/** parsePaymentNotification without the dedupe key (the applier reads events already stored once). */
export function readPaymentNotification(payload: Record<string, unknown>): PaymentNotification | null {
  return readPayment(payload)?.notification ?? null;
}

function readPayment(
  payload: Record<string, unknown>,
): { notification: PaymentNotification; event: string; tx: Record<string, unknown> } | null {
  const parsed = paymentWebhookSchema.safeParse(payload);
  if (!parsed.success) return null;
  const { event, transaction, client } = parsed.data;
  const tx = payload.transaction as Record<string, unknown>;
  const amount = Number.isFinite(transaction.amount) ? cents(transaction.amount) : null;
  const commission = typeof transaction.commissionAmount === "number" ? cents(transaction.commissionAmount) : null;
  const notification: PaymentNotification = {
    event: head(event),
    known: isKnownWebhookEvent(event),
    token: payload.token,
    transaction: tx,
    gatewayTransactionId: head(transaction.id),
    identifier: clip(transaction.identifier),
    status: head(transaction.status),
    paymentMethod: head(transaction.paymentMethod),
    amountCents: amount,
    feeCents: amount !== null && commission !== null && commission <= amount ? amount - commission : null,
    paidAt: parseGatewayTime(transaction.payedAt) ?? parseGatewayTime(tx.paidAt),
    reportedAt: reportedAt(tx),
    client: { name: clip(client.name), email: clip(client.email), document: clip(client.cpf) ?? clip(client.cnpj) },
  };
  return { notification, event, tx };
}

export { clip };
