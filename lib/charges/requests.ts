import { cardBin, cardBrand, cardLast4, toCents } from "@/lib/br";
import type { OperationKind } from "@/lib/db/tables/ledger";
import type { BoletoChargeRequest, CardChargeRequest, CryptoChargeRequest, PixChargeRequest, PixDepositRequest } from "@/lib/gateway/schemas/charges";
import type { CardSubscriptionRequest, CryptoSubscriptionRequest, PixSubscriptionRequest } from "@/lib/gateway/schemas/subscriptions";
import { OPERATION_KIND_OF, type ChargeFormKind } from "./form-values";
import type { ChargeFormOutput } from "./schemas";

export type GatewayRequestOf = {
  pix: PixChargeRequest;
  card: CardChargeRequest;
  boleto: BoletoChargeRequest;
  crypto: CryptoChargeRequest;
  deposit: PixDepositRequest;
  "pix-subscription": PixSubscriptionRequest;
  "card-subscription": CardSubscriptionRequest;
  "crypto-subscription": CryptoSubscriptionRequest;
};

export type BuiltRequest<K extends ChargeFormKind> = {
  kind: OperationKind;
  identifier: string;
  request: GatewayRequestOf[K];
  /** The request as the ledger keeps it: card number and CVV replaced by brand, BIN and last 4. */
  stored: Record<string, unknown>;
  summary: { amountCents: number; currency: string; paymentMethod: string; clientName?: string; clientEmail?: string; clientDocument?: string };
};

type AnyOutput = Partial<ChargeFormOutput<"card">> &
  Partial<ChargeFormOutput<"crypto">> &
  Partial<ChargeFormOutput<"pix-subscription">> &
  Partial<ChargeFormOutput<"pix">> & { identifier: string; amount: number };

const PAYMENT_METHOD: Record<ChargeFormKind, string> = {
  pix: "PIX",
  card: "CREDIT_CARD",
  boleto: "BOLETO",
  crypto: "CRYPTO",
  deposit: "PIX",
  "pix-subscription": "PIX",
  "card-subscription": "CREDIT_CARD",
  "crypto-subscription": "CRYPTO",
};

/** Only what the card may leave behind: brand, BIN and last 4 (never the number or the CVV). */
export function cardForStorage(card: { number: string; owner: string; expiresAt: string; statementDescriptor?: string }) {
  return {
    brand: cardBrand(card.number),
    bin: cardBin(card.number),
    last4: cardLast4(card.number),
    owner: card.owner,
    expiresAt: card.expiresAt,
    ...(card.statementDescriptor ? { statementDescriptor: card.statementDescriptor } : {}),
  };
}

function defined<T extends Record<string, unknown>>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0))) as T;
}

/** Turns a validated form into the gateway request of its kind; `callbackUrl` is always the console's own receiver for the account. */
export function buildGatewayRequest<K extends ChargeFormKind>(kind: K, parsed: ChargeFormOutput<K>, callbackUrl: string): BuiltRequest<K> {
  const input = parsed as unknown as AnyOutput;
  const client = input.client;
  const products = (physical: boolean) =>
    input.products?.map((p) => defined({ id: p.id, name: p.name, quantity: p.quantity, price: p.price, ...(physical ? { physical: p.physical ?? false } : {}) }));
  const metadata = input.metadata?.length ? Object.fromEntries(input.metadata.map((m) => [m.key, m.value])) : undefined;
  const fees = { shippingFee: input.shippingFee, extraFee: input.extraFee, discount: input.discount };
  const splits = input.splits?.map((s) => ({ producerId: s.producerId, amount: s.amount }));
  const card = input.card
    ? defined({ number: input.card.number, owner: input.card.owner, expiresAt: input.card.expiresAt, cvv: input.card.cvv, statementDescriptor: input.card.statementDescriptor })
    : undefined;

  let request: Record<string, unknown>;
  switch (kind) {
    case "pix":
      request = { identifier: input.identifier, amount: input.amount, client, products: products(true), ...fees, splits, metadata, dueDate: input.dueDate, callbackUrl };
      break;
    case "boleto":
      request = { identifier: input.identifier, amount: input.amount, client, products: products(false), ...fees, splits, metadata, dueDate: input.dueDate, callbackUrl };
      break;
    case "card":
      request = {
        identifier: input.identifier,
        amount: input.amount,
        installments: input.installments,
        clientIp: input.clientIp,
        client: { ...client, address: defined({ ...input.address! }) },
        card,
        callbackUrl,
        products: products(false),
        ...fees,
        splits,
        metadata,
      };
      break;
    case "crypto":
      request = {
        identifier: input.identifier,
        amount: input.amount,
        currency: input.currency,
        cryptoCurrency: input.cryptoCurrency,
        network: input.network,
        client,
        callbackUrl,
        products: products(false),
        metadata,
      };
      break;
    case "deposit":
      request = { identifier: input.identifier, amount: input.amount, callbackUrl };
      break;
    default: {
      const recurrence = defined({ ...input.subscription! });
      request = { identifier: input.identifier, amount: input.amount, client, product: input.product, subscription: recurrence, callbackUrl };
      if (kind === "card-subscription") Object.assign(request, { clientIp: input.clientIp, card });
      if (kind === "crypto-subscription") Object.assign(request, { cryptoCurrency: input.cryptoCurrency, network: input.network });
    }
  }
  request = defined(request);
  const stored = { ...request, ...(input.card ? { card: cardForStorage(input.card) } : {}) };
  return {
    kind: OPERATION_KIND_OF[kind],
    identifier: input.identifier,
    request: request as GatewayRequestOf[K],
    stored,
    summary: defined({
      amountCents: toCents(input.amount),
      currency: kind === "crypto" ? (input.currency ?? "BRL") : "BRL",
      paymentMethod: PAYMENT_METHOD[kind],
      clientName: client?.name,
      clientEmail: client?.email,
      clientDocument: client?.document,
    }),
  };
}
