import { cardBin, cardBrand, cardLast4, toCents } from "@/lib/br";
import type { OperationKind } from "@/lib/db/tables/ledger";
import { ORIGIN_METADATA_KEY, type ChargeFormKind } from "./form-values";
import type { ChargeKindDefinition, ChargeValues } from "./kinds/define";

export type BuiltRequest<Request> = {
  kind: OperationKind;
  identifier: string;
  request: Request;
  /** The request as the ledger keeps it: card number and CVV replaced by brand, BIN and last 4. */
  stored: Record<string, unknown>;
  summary: {
    amountCents: number;
    currency: string;
    paymentMethod: string;
    clientName?: string;
    clientEmail?: string;
    clientDocument?: string;
  };
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

/** Without its absent fields and empty lists: the gateway is sent only what was filled in. */
export function defined<T extends Record<string, unknown>>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0))) as T;
}

/*
 * Parts of a request that several kinds share, read from a validated form.
 */

type FormProduct = { id: string; name: string; quantity?: number; price: number; physical?: boolean };

/** Products as the gateway takes them; only the Pix charge's may say they are physical goods. */
export function productsOf(products: FormProduct[] | undefined) {
  return products?.map((p) => defined({ id: p.id, name: p.name, quantity: p.quantity, price: p.price }));
}
export function physicalProductsOf(products: FormProduct[] | undefined) {
  return products?.map((p) => defined({ id: p.id, name: p.name, quantity: p.quantity, price: p.price, physical: p.physical ?? false }));
}

/** The metadata entries typed, with the "Origem" field as `metadata.origem` (what lib/gateway/origin.ts reads back). */
export function metadataOf(entries: { key: string; value: string }[] | undefined, origin?: string) {
  const metadata: Record<string, string> = Object.fromEntries((entries ?? []).map((m) => [m.key, m.value]));
  if (origin) metadata[ORIGIN_METADATA_KEY] = origin;
  return Object.keys(metadata).length ? metadata : undefined;
}

export function feesOf(values: { shippingFee?: number; extraFee?: number; discount?: number }) {
  return { shippingFee: values.shippingFee, extraFee: values.extraFee, discount: values.discount };
}

export function splitsOf(splits: { producerId: string; amount: number }[] | undefined) {
  return splits?.map((s) => ({ producerId: s.producerId, amount: s.amount }));
}

export function cardOf(card: { number: string; owner: string; expiresAt: string; cvv: string; statementDescriptor?: string }) {
  return defined({
    number: card.number,
    owner: card.owner,
    expiresAt: card.expiresAt,
    cvv: card.cvv,
    statementDescriptor: card.statementDescriptor,
  });
}

/** Kinds that carry a card keep it in the ledger as brand, BIN and last 4. */
export function storedWithCard<Request extends { card: Parameters<typeof cardForStorage>[0] }>(request: Request): Record<string, unknown> {
  return { ...request, card: cardForStorage(request.card) };
}

/** Turns a validated form into the gateway request of its kind, with what the ledger keeps of it. */
export function buildGatewayRequest<Values extends ChargeValues, Request extends Record<string, unknown>, Answer>(
  definition: ChargeKindDefinition<ChargeFormKind, Values, Request, Answer>,
  values: Values,
  callbackUrl: string,
): BuiltRequest<Request> {
  const request = definition.buildRequest(values, callbackUrl);
  return {
    kind: definition.operationKind,
    identifier: values.identifier,
    request,
    stored: definition.stored ? definition.stored(request) : { ...request },
    summary: defined({
      amountCents: toCents(values.amount),
      currency: definition.currency?.(values) ?? "BRL",
      paymentMethod: definition.paymentMethod,
      clientName: values.client?.name,
      clientEmail: values.client?.email,
      clientDocument: values.client?.document,
    }),
  };
}
