import { createHash } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { documentKind, normalizeDocument } from "../../lib/br/document";
import type { SandboxDb } from "../db/client";
import { refunds, subscriptions, transactions, webhookOutbox } from "../db/schema";
import type { Producer, SandboxContext } from "../context";
import { badRequest, conflict, notFound } from "../lib/errors";
import { newEndToEndId } from "../lib/ids";
import { fromCents } from "../lib/money";
import { availableAtFor, insertMovements, netCents, reverseSale, saleMovements } from "./balance";

export type TxRow = typeof transactions.$inferSelect;
export type TxInsert = typeof transactions.$inferInsert;
type Executor = SandboxDb | Parameters<Parameters<SandboxDb["transaction"]>[0]>[0];

export const PAYMENT_EVENTS = [
  "TRANSACTION_CREATED",
  "TRANSACTION_PAID",
  "TRANSACTION_CANCELED",
  "TRANSACTION_REFUNDED",
  "TRANSACTION_CHARGED_BACK",
] as const;
export type PaymentEvent = (typeof PAYMENT_EVENTS)[number];

export const TRANSITION_TYPES = ["pay", "fail", "cancel", "refund", "chargeback"] as const;
export type TransitionType = (typeof TRANSITION_TYPES)[number];

/**
 * The sandbox's own transition table (the interface does not define one). Statuses a
 * transaction can hold: OK (Pix/deposit awaiting payment), PENDING (boleto/crypto awaiting
 * payment), COMPLETED, FAILED, CANCELED, REFUNDED, CHARGED_BACK.
 */
export const TRANSITIONS: Record<TransitionType, { from: readonly string[]; to: string; event: PaymentEvent }> = {
  pay: { from: ["OK", "PENDING"], to: "COMPLETED", event: "TRANSACTION_PAID" },
  fail: { from: ["OK", "PENDING"], to: "FAILED", event: "TRANSACTION_CANCELED" },
  cancel: { from: ["OK", "PENDING"], to: "CANCELED", event: "TRANSACTION_CANCELED" },
  refund: { from: ["COMPLETED"], to: "REFUNDED", event: "TRANSACTION_REFUNDED" },
  chargeback: { from: ["COMPLETED"], to: "CHARGED_BACK", event: "TRANSACTION_CHARGED_BACK" },
};

export const SANDBOX_FAIL_MESSAGE = "Pagamento recusado (evento do sandbox)";

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

export function urls(publicUrl: string) {
  return {
    order: (orderId: string) => `${publicUrl}/pay/${orderId}`,
    receipt: (orderId: string) => `${publicUrl}/receipt/${orderId}`,
    qr: (transactionId: string) => `${publicUrl}/qr/${transactionId}.png`,
    boletoPdf: (transactionId: string) => `${publicUrl}/boleto/${transactionId}.pdf`,
    checkout: (checkoutId: string) => `${publicUrl}/checkout/${checkoutId}`,
    transferReceipt: (withdrawId: string) => `${publicUrl}/transfer-receipt/${withdrawId}`,
  };
}

function boletoInformation(tx: TxRow, publicUrl: string) {
  if (!tx.boleto) return null;
  return {
    barcode: tx.boleto.barcode,
    digitableLine: tx.boleto.digitableLine,
    dueDate: tx.boleto.dueDate,
    bankCode: tx.boleto.bankCode,
    pdfUrl: urls(publicUrl).boletoPdf(tx.id),
  };
}

/** 2.4 transaction record. */
export function toTransactionRecord(tx: TxRow, producer: Producer, publicUrl: string) {
  const amount = fromCents(tx.amountCents);
  const payedAt = tx.payedAt ? new Date(tx.payedAt) : null;
  const client = (tx.client ?? {}) as { name?: string; document?: string };
  const record: Record<string, unknown> = {
    id: tx.id,
    clientIdentifier: tx.clientIdentifier,
    currency: tx.currency,
    amount,
    chargeAmount: amount,
    exchangeRate: tx.crypto ? tx.crypto.rate : 1,
    producerExtraAmount: 0,
    status: tx.status,
    statusDescription: tx.statusDescription ?? null,
    purchaseType: tx.purchaseType,
    paymentMethod: tx.paymentMethod,
    details: detailsOf(tx),
    errorDescription: tx.errorDescription ?? null,
    webhookUrl: tx.callbackUrl ?? null,
    availableAt: iso(tx.availableAt),
    createdAt: iso(tx.createdAt),
    refundedAt: iso(tx.refundedAt),
    payedAt: iso(payedAt),
    boletoInformation: boletoInformation(tx, publicUrl),
    pixInformation: tx.pixCode ? { qrCode: tx.pixCode, image: urls(publicUrl).qr(tx.id), base64: "" } : null,
  };
  if (tx.pixCode && payedAt) {
    record.pixMetadata = {
      payerBankName: "Banco Sandbox S.A.",
      payerDocument: client.document ? normalizeDocument(client.document) : "",
      payerName: client.name ?? "",
      receiverBankName: "Sandbox Pagamentos IP",
      receiverDocument: producer.document ?? "",
      receiverName: producer.name,
      receiverPixKey: producer.email,
    };
  }
  return record;
}

function detailsOf(tx: TxRow): Record<string, unknown> | null {
  if (tx.card) return { card: { brand: tx.card.brand, last4: tx.card.last4 }, installments: tx.installments };
  if (tx.crypto) {
    return {
      crypto: {
        address: tx.crypto.address,
        amount: tx.crypto.amount,
        currency: tx.crypto.currency,
        network: tx.crypto.network,
        expiresAt: tx.crypto.expiresAt,
      },
      originalCurrency: tx.originalCurrency,
      originalAmount: tx.originalAmount ? Number(tx.originalAmount) : null,
    };
  }
  if (tx.subscriptionId) return { subscriptionId: tx.subscriptionId };
  return null;
}

type SubscriptionRow = typeof subscriptions.$inferSelect;

export function subscriptionSnapshot(sub: SubscriptionRow, chargeNumber?: number) {
  return {
    id: sub.id,
    identifier: sub.identifier,
    status: sub.status,
    paymentMethod: sub.kind === "card" ? "CREDIT_CARD" : sub.kind === "crypto" ? "CRYPTO" : "PIX",
    amount: fromCents(sub.amountCents),
    periodicityType: sub.periodicityType,
    periodicity: sub.periodicity,
    chargeNumber: chargeNumber ?? sub.chargesCount,
    nextChargeAt: iso(sub.nextChargeAt),
    createdAt: iso(sub.createdAt),
  };
}

/** Client object of the payment webhook: stable id per producer and document, cpf/cnpj split. */
function webhookClient(tx: TxRow, producer: Producer) {
  const c = (tx.client ?? {
    name: producer.name,
    email: producer.email,
    phone: producer.phone,
    document: producer.document ?? "",
    address: producer.address ?? undefined,
  }) as {
    name?: string;
    email?: string;
    phone?: string;
    document?: string;
    address?: Record<string, string | undefined>;
  };
  const document = c.document ? normalizeDocument(c.document) : "";
  const kind = document ? documentKind(document) : null;
  const a = c.address ?? {};
  return {
    id: `cli_${createHash("sha256")
      .update(`${producer.id}:${document || c.email || tx.id}`)
      .digest("hex")
      .slice(0, 20)}`,
    name: c.name ?? "",
    email: c.email ?? "",
    phone: c.phone ?? "",
    cpf: kind === "cpf" || (!kind && document.length === 11) ? document : null,
    cnpj: kind === "cnpj" || (!kind && document.length === 14) ? document : null,
    address: {
      country: a.country ?? null,
      zipCode: a.zipCode ?? null,
      state: a.state ?? null,
      city: a.city ?? null,
      neighborhood: a.neighborhood ?? null,
      street: a.street ?? null,
      number: a.number ?? null,
      complement: a.complement ?? null,
    },
  };
}

/** The payment webhook payload (section 6) for a transaction's current state. */
export function buildPaymentWebhook(
  tx: TxRow,
  producer: Producer,
  event: string,
  publicUrl: string,
  subscription: Record<string, unknown> | null = null,
) {
  const amount = fromCents(tx.amountCents);
  const products = (tx.products ?? []) as Array<{ id?: string; name?: string; price?: number; externalId?: string }>;
  const track = (tx.trackProps ?? {}) as Record<string, unknown>;
  return {
    event,
    token: producer.webhookToken,
    offerCode: tx.offerCode ?? null,
    checkoutUrl: tx.checkoutUrl ?? "",
    client: webhookClient(tx, producer),
    transaction: {
      id: tx.id,
      identifier: tx.clientIdentifier,
      status: tx.status,
      paymentMethod: tx.paymentMethod,
      originalCurrency: tx.originalCurrency,
      originalAmount: tx.originalAmount ? Number(tx.originalAmount) : amount,
      amount,
      commissionAmount: fromCents(netCents(tx)),
      currency: tx.currency,
      exchangeRate: tx.crypto ? tx.crypto.rate : 1,
      installments: tx.installments,
      createdAt: iso(tx.createdAt),
      payedAt: iso(tx.payedAt),
      pixInformation: tx.pixCode ? { qrCode: tx.pixCode, endToEndId: tx.endToEndId ?? null } : null,
      boletoInformation: boletoInformation(tx, publicUrl),
      errorDescription: tx.errorDescription ?? null,
    },
    subscription,
    orderItems: products.map((p, index) => ({
      id: `${tx.orderId}_${index + 1}`,
      price: typeof p.price === "number" ? p.price : amount,
      product: { id: p.id ?? "", name: p.name ?? "", externalId: p.externalId ?? p.id ?? null },
    })),
    trackProps: {
      isUpsell: false,
      ip: (track.ip as string | undefined) ?? null,
      user_agent: (track.user_agent as string | undefined) ?? null,
      ...Object.fromEntries(Object.entries(track).filter(([k]) => k.startsWith("utm_"))),
    },
  };
}

/** Where payment webhooks of a transaction go: its callbackUrl, else the producer's default. */
export function webhookTarget(tx: Pick<TxRow, "callbackUrl">, producer: Producer): string | null {
  return tx.callbackUrl ?? producer.webhookUrl ?? null;
}

export function paymentOutboxRow(
  tx: TxRow,
  producer: Producer,
  event: string,
  publicUrl: string,
  subscription: Record<string, unknown> | null,
  url: string,
): typeof webhookOutbox.$inferInsert {
  return {
    producerId: producer.id,
    kind: "payment",
    event,
    transactionId: tx.id,
    url,
    payload: buildPaymentWebhook(tx, producer, event, publicUrl, subscription),
    nextAttemptAt: new Date(),
  };
}

export async function enqueuePaymentWebhook(
  db: Executor,
  tx: TxRow,
  producer: Producer,
  event: string,
  publicUrl: string,
  subscription: Record<string, unknown> | null = null,
  url: string | null = webhookTarget(tx, producer),
): Promise<boolean> {
  if (!url) return false;
  await db.insert(webhookOutbox).values(paymentOutboxRow(tx, producer, event, publicUrl, subscription, url));
  return true;
}

/** Full row as it will be stored, so webhooks can be built without reading it back. */
export function completeRow(row: TxInsert, now: Date): TxRow {
  return {
    statusDescription: null,
    errorDescription: null,
    purchaseType: "ONCE",
    currency: "BRL",
    feeCents: 0,
    splitsCents: 0,
    originalCurrency: "BRL",
    originalAmount: null,
    installments: 1,
    client: null,
    products: null,
    metadata: null,
    callbackUrl: null,
    pixCode: null,
    pixExpiresAt: null,
    endToEndId: null,
    boleto: null,
    crypto: null,
    card: null,
    subscriptionId: null,
    checkoutId: null,
    offerCode: null,
    checkoutUrl: null,
    trackProps: null,
    payedAt: null,
    refundedAt: null,
    availableAt: null,
    ...row,
    createdAt: row.createdAt ?? now,
    updatedAt: row.updatedAt ?? now,
  } as TxRow;
}

/**
 * Inserts a transaction unless (producer, kind, identifier) exists: then the existing one's
 * creation response is replayed. Events are enqueued in the same database transaction.
 */
export async function createTransaction(
  ctx: SandboxContext,
  producer: Producer,
  row: TxRow,
  events: Array<{ event: string; subscription?: Record<string, unknown> | null }>,
): Promise<{ created: boolean; response: Record<string, unknown>; row: TxRow | null }> {
  const target = webhookTarget(row, producer);
  const outbox = target ? events.map((e) => paymentOutboxRow(row, producer, e.event, ctx.publicUrl, e.subscription ?? null, target)) : [];
  const inserted = await ctx.batcher.insert(row, outbox, saleMovements(row));
  if (inserted && outbox.length > 0) ctx.worker.wake();
  if (inserted) return { created: true, response: row.response, row };
  const [existing] = await ctx.db
    .select()
    .from(transactions)
    .where(
      and(
        eq(transactions.producerId, producer.id),
        eq(transactions.kind, row.kind),
        eq(transactions.clientIdentifier, row.clientIdentifier),
      ),
    )
    .limit(1);
  if (!existing) throw new Error("transaction conflict without an existing row");
  return { created: false, response: existing.response, row: existing };
}

export async function findOwnTransaction(db: SandboxDb, producerId: string, id: string): Promise<TxRow | undefined> {
  const [row] = await db
    .select()
    .from(transactions)
    .where(and(eq(transactions.id, id), eq(transactions.producerId, producerId)))
    .limit(1);
  return row;
}

export async function subscriptionFor(db: Executor, tx: TxRow) {
  if (!tx.subscriptionId) return null;
  const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.id, tx.subscriptionId)).limit(1);
  if (!sub) return null;
  const chargeNumber = Number(/-(\d+)$/.exec(tx.clientIdentifier)?.[1] ?? sub.chargesCount);
  return subscriptionSnapshot(sub, chargeNumber);
}

/**
 * Applies a sandbox event (transition table above) and enqueues its webhook atomically. Payments,
 * the hot path, are coalesced with concurrent ones into one database transaction (pay-batcher.ts).
 */
export async function applyTransition(
  ctx: SandboxContext,
  producer: Producer,
  transactionId: string,
  type: TransitionType,
  opts: { errorDescription?: string; now?: Date } = {},
): Promise<TxRow> {
  if (type === "pay") return ctx.payments.pay(producer, transactionId, opts.now ?? new Date(), opts.now !== undefined);
  return applyTransitionNow(ctx, producer, transactionId, type, opts);
}

/** One transition in a database transaction of its own. */
export async function applyTransitionNow(
  ctx: SandboxContext,
  producer: Producer,
  transactionId: string,
  type: TransitionType,
  opts: { errorDescription?: string; now?: Date } = {},
): Promise<TxRow> {
  const rule = TRANSITIONS[type];
  const now = opts.now ?? new Date();
  const result = await ctx.db.transaction(async (db) => {
    const patch: Partial<TxInsert> = { status: rule.to, updatedAt: now };
    if (type === "pay") {
      patch.payedAt = now;
      patch.statusDescription = null;
    }
    if (type === "fail") patch.errorDescription = opts.errorDescription ?? SANDBOX_FAIL_MESSAGE;
    if (type === "cancel") patch.statusDescription = "Cancelada (evento do sandbox)";
    if (type === "refund") patch.refundedAt = now;
    if (type === "chargeback") patch.statusDescription = "Chargeback: contestada pelo comprador (evento do sandbox)";
    const current = await db
      .select({
        pixCode: transactions.pixCode,
        createdAt: transactions.createdAt,
        payedAt: transactions.payedAt,
        paymentMethod: transactions.paymentMethod,
        purchaseType: transactions.purchaseType,
      })
      .from(transactions)
      .where(and(eq(transactions.id, transactionId), eq(transactions.producerId, producer.id)))
      .limit(1);
    if (current.length === 0) throw notFound(`Transação ${transactionId} não encontrada`);
    // A dated request (x-sandbox-at) may not put an event before what it follows.
    const after = (type === "refund" || type === "chargeback" ? current[0].payedAt : null) ?? current[0].createdAt;
    if (opts.now && now.getTime() < after.getTime()) {
      throw badRequest(
        `x-sandbox-at: "${type}" não pode acontecer antes de ${after.toISOString()} (${after === current[0].createdAt ? "a criação" : "o pagamento"} da transação)`,
      );
    }
    if (type === "pay" && current[0].pixCode) patch.endToEndId = newEndToEndId(now);
    if (type === "pay") patch.availableAt = availableAtFor(producer, current[0], now);
    const [updated] = await db
      .update(transactions)
      .set(patch)
      .where(
        and(eq(transactions.id, transactionId), eq(transactions.producerId, producer.id), inArray(transactions.status, [...rule.from])),
      )
      .returning();
    if (!updated) {
      const [row] = await db.select({ status: transactions.status }).from(transactions).where(eq(transactions.id, transactionId)).limit(1);
      throw conflict(
        `Não é possível aplicar "${type}" a uma transação em status ${row?.status}; "${type}" só vale a partir de ${rule.from.join(", ")}`,
      );
    }
    if (type === "pay") await insertMovements(db, saleMovements(updated));
    // Undated, a refund happens on the producer's sandbox clock, the one its balance is read at.
    if (type === "refund" || type === "chargeback") await reverseSale(db, updated, type, opts.now ?? ctx.producers.now(producer.id));
    if (type === "refund") {
      await db
        .update(refunds)
        .set({ status: "APPROVED", decidedAt: now })
        .where(and(eq(refunds.transactionId, transactionId), eq(refunds.status, "PENDING")));
    }
    const queued = await enqueuePaymentWebhook(db, updated, producer, rule.event, ctx.publicUrl, await subscriptionFor(db, updated));
    return { updated, queued };
  });
  if (result.queued) ctx.worker.wake();
  return result.updated;
}

/** Re-sends a webhook for the current state under any event name, without a transition. */
export async function renotify(ctx: SandboxContext, producer: Producer, tx: TxRow, event: string, url?: string | null) {
  const queued = await enqueuePaymentWebhook(
    ctx.db,
    tx,
    producer,
    event,
    ctx.publicUrl,
    await subscriptionFor(ctx.db, tx),
    url ?? webhookTarget(tx, producer),
  );
  if (queued) ctx.worker.wake();
  return queued;
}

/**
 * Test tool (control API): the transaction reports `status` from now on, a string the transition
 * table need not know. No webhook is sent: `renotify` sends one when the test wants it.
 */
export async function setTransactionStatus(ctx: SandboxContext, producer: Producer, transactionId: string, status: string): Promise<TxRow> {
  const [updated] = await ctx.db
    .update(transactions)
    .set({ status, updatedAt: new Date() })
    .where(and(eq(transactions.id, transactionId), eq(transactions.producerId, producer.id)))
    .returning();
  if (!updated) throw notFound(`Transação ${transactionId} não encontrada`);
  return updated;
}
