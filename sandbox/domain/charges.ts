import type { Producer, SandboxContext } from "../context";
import { badRequest } from "../lib/errors";
import { newTransactionId, prefixedId } from "../lib/ids";
import { fromCents } from "../lib/money";
import { defaultDueDate, issueBoleto } from "../rails/boleto";
import { authorizeCard, DECLINE_MESSAGES, type CardOutcome } from "../rails/card";
import { CRYPTO_QUOTE_TTL_MS, cryptoAmountFor, depositAddressFor, type CryptoQuote } from "../rails/crypto";
import { chargeFeeCents } from "../rails/fees";
import { pixCodeFor } from "../rails/pix";
import type { StoredCard } from "../db/schema";
import { availableAtFor } from "./balance";
import { completeRow, urls, type TxRow } from "./transactions";

/** Fields every charge builder takes. `kind` scopes identifier idempotency. */
export type ChargeBase = {
  kind: string;
  identifier: string;
  amountCents: number;
  /** What the splits take of the amount (the producer's net is amount − fee − splits). */
  splitsCents?: number;
  client: Record<string, unknown> | null;
  products?: Array<Record<string, unknown>> | null;
  metadata?: Record<string, unknown> | null;
  callbackUrl?: string | null;
  purchaseType?: string;
  subscriptionId?: string | null;
  checkout?: { id: string; offerCode: string; url: string } | null;
  trackProps?: Record<string, unknown> | null;
};

export type BuiltCharge = {
  row: TxRow;
  /** Webhook events to enqueue with the insert. */
  events: string[];
};

function base(producer: Producer, input: ChargeBase, now: Date) {
  const id = newTransactionId();
  const orderId = prefixedId("ord");
  return {
    id,
    orderId,
    common: {
      id,
      orderId,
      producerId: producer.id,
      kind: input.kind,
      clientIdentifier: input.identifier,
      amountCents: input.amountCents,
      splitsCents: input.splitsCents ?? 0,
      client: input.client,
      products: input.products ?? null,
      metadata: input.metadata ?? null,
      callbackUrl: input.callbackUrl ?? null,
      purchaseType: input.purchaseType ?? "ONCE",
      subscriptionId: input.subscriptionId ?? null,
      checkoutId: input.checkout?.id ?? null,
      offerCode: input.checkout?.offerCode ?? null,
      checkoutUrl: input.checkout?.url ?? null,
      trackProps: input.trackProps ?? null,
      createdAt: now,
      updatedAt: now,
    },
  };
}

/** A Pix charge with `dueDate` stays payable until the end of that day (Brasília time). */
export function buildPixCharge(
  ctx: SandboxContext,
  producer: Producer,
  input: ChargeBase & { dueDate?: string },
  now = new Date(),
): BuiltCharge {
  const { id, orderId, common } = base(producer, input, now);
  const u = urls(ctx.publicUrl);
  const { code } = pixCodeFor({
    publicUrl: ctx.publicUrl,
    transactionId: id,
    amount: fromCents(input.amountCents),
    merchantName: producer.name,
  });
  const feeCents = chargeFeeCents("PIX", input.amountCents);
  const response = {
    transactionId: id,
    status: "OK",
    fee: fromCents(feeCents),
    order: { id: orderId, url: u.order(orderId), receiptUrl: u.receipt(orderId) },
    pix: { code, image: u.qr(id), base64: "" },
  };
  return {
    row: completeRow(
      {
        ...common,
        status: "PENDING",
        paymentMethod: "PIX",
        feeCents,
        pixCode: code,
        pixExpiresAt: input.dueDate ? new Date(`${input.dueDate}T23:59:59-03:00`) : null,
        response,
      },
      now,
    ),
    events: ["TRANSACTION_CREATED"],
  };
}

export const PIX_DEPOSIT_TTL_MS = 30 * 60_000;

export function buildPixDeposit(ctx: SandboxContext, producer: Producer, input: ChargeBase, now = new Date()): BuiltCharge {
  const { id, orderId, common } = base(producer, input, now);
  const u = urls(ctx.publicUrl);
  const { code } = pixCodeFor({
    publicUrl: ctx.publicUrl,
    transactionId: id,
    amount: fromCents(input.amountCents),
    merchantName: producer.name,
  });
  const expiresAt = new Date(now.getTime() + PIX_DEPOSIT_TTL_MS);
  const response = {
    transactionId: id,
    status: "OK",
    order: { id: orderId, url: u.order(orderId) },
    pix: { code, image: u.qr(id), expiresAt: expiresAt.toISOString(), base64: "" },
  };
  return {
    row: completeRow(
      { ...common, purchaseType: "DEPOSIT", status: "PENDING", paymentMethod: "PIX", pixCode: code, pixExpiresAt: expiresAt, response },
      now,
    ),
    events: ["TRANSACTION_CREATED"],
  };
}

export const MAX_INSTALLMENTS = 12;

export type CardInput = { number: string; owner: string; expiresAt: string };

/** Card charges settle at creation: approved → COMPLETED + TRANSACTION_PAID, declined → FAILED. */
export function buildCardCharge(
  ctx: SandboxContext,
  producer: Producer,
  input: ChargeBase & { installments?: number } & ({ card: CardInput } | { storedCard: StoredCard; outcome: CardOutcome }),
  now = new Date(),
): BuiltCharge {
  const installments = input.installments ?? 1;
  if (installments > MAX_INSTALLMENTS) throw badRequest(`installments: o sandbox aceita de 1 a ${MAX_INSTALLMENTS} parcelas`);
  let stored: StoredCard;
  let outcome: CardOutcome;
  if ("card" in input) {
    const auth = authorizeCard(input.card, now);
    if (!auth.ok) throw badRequest(auth.message);
    stored = auth.stored;
    outcome = auth.outcome;
  } else {
    stored = input.storedCard;
    outcome = input.outcome;
  }
  const { id, orderId, common } = base(producer, input, now);
  const feeCents = chargeFeeCents("CREDIT_CARD", input.amountCents, installments);
  const order = { id: orderId, url: urls(ctx.publicUrl).order(orderId) };
  if (outcome === "approve") {
    const response = { transactionId: id, status: "OK", fee: fromCents(feeCents), order };
    return {
      row: completeRow(
        {
          ...common,
          status: "COMPLETED",
          paymentMethod: "CREDIT_CARD",
          feeCents,
          installments,
          card: stored,
          payedAt: now,
          availableAt: availableAtFor(producer, { paymentMethod: "CREDIT_CARD", purchaseType: common.purchaseType }, now),
          response,
        },
        now,
      ),
      events: ["TRANSACTION_PAID"],
    };
  }
  const errorDescription = DECLINE_MESSAGES[outcome];
  const response = { transactionId: id, status: "FAILED", fee: 0, order, errorDescription };
  return {
    row: completeRow(
      { ...common, status: "FAILED", paymentMethod: "CREDIT_CARD", feeCents: 0, installments, card: stored, errorDescription, response },
      now,
    ),
    events: ["TRANSACTION_CANCELED"],
  };
}

export function buildBoletoCharge(
  ctx: SandboxContext,
  producer: Producer,
  input: ChargeBase & { dueDate?: string },
  now = new Date(),
): BuiltCharge {
  const dueDate = input.dueDate ?? defaultDueDate(now);
  if (dueDate < now.toISOString().slice(0, 10)) throw badRequest("dueDate: deve ser hoje ou uma data futura");
  if (input.amountCents > 9_999_999_999) throw badRequest("amount: alto demais para um boleto");
  const { id, orderId, common } = base(producer, input, now);
  const boleto = issueBoleto({ transactionId: id, amountCents: input.amountCents, dueDate });
  const feeCents = chargeFeeCents("BOLETO", input.amountCents);
  const response = {
    transactionId: id,
    status: "PENDING",
    fee: fromCents(feeCents),
    order: { id: orderId, url: urls(ctx.publicUrl).order(orderId) },
    boleto: { barcode: boleto.barcode, digitableLine: boleto.digitableLine, pdfUrl: urls(ctx.publicUrl).boletoPdf(id) },
  };
  return {
    row: completeRow(
      {
        ...common,
        status: "PENDING",
        paymentMethod: "BOLETO",
        feeCents,
        boleto: { barcode: boleto.barcode, digitableLine: boleto.digitableLine, dueDate, bankCode: boleto.bankCode },
        response,
      },
      now,
    ),
    events: ["TRANSACTION_CREATED"],
  };
}

export function buildCryptoCharge(
  ctx: SandboxContext,
  producer: Producer,
  input: ChargeBase & { quote: CryptoQuote },
  now = new Date(),
): BuiltCharge {
  const { id, orderId, common } = base(producer, input, now);
  const fiatAmount = fromCents(input.amountCents);
  const expiresAt = new Date(now.getTime() + CRYPTO_QUOTE_TTL_MS).toISOString();
  const crypto = {
    address: depositAddressFor(input.quote.network, id),
    amount: cryptoAmountFor(input.quote, fiatAmount),
    currency: input.quote.cryptoCurrency,
    network: input.quote.network,
    expiresAt,
  };
  const feeCents = chargeFeeCents("CRYPTO", input.amountCents);
  const response = {
    transactionId: id,
    status: "PENDING",
    fee: fromCents(feeCents),
    order: { id: orderId, url: urls(ctx.publicUrl).order(orderId) },
    crypto,
  };
  return {
    row: completeRow(
      {
        ...common,
        status: "PENDING",
        paymentMethod: "CRYPTO",
        currency: input.quote.fiatCurrency,
        originalCurrency: input.quote.fiatCurrency,
        originalAmount: String(fiatAmount),
        feeCents,
        crypto: { ...crypto, rate: input.quote.rate },
        response,
      },
      now,
    ),
    events: ["TRANSACTION_CREATED"],
  };
}
