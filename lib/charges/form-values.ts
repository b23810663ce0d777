import { parseMoneyInput, toCents } from "@/lib/br/money";

/*
 * What the charge forms hold and send, without their schemas: the browser loads the zod schemas
 * (lib/charges/schemas.ts) only once someone starts filling a form.
 */

export const CHARGE_FORM_KINDS = [
  "pix",
  "card",
  "boleto",
  "crypto",
  "deposit",
  "pix-subscription",
  "card-subscription",
  "crypto-subscription",
] as const;
export type ChargeFormKind = (typeof CHARGE_FORM_KINDS)[number];

export const OPERATION_KIND_OF = {
  pix: "pix_charge",
  card: "card_charge",
  boleto: "boleto_charge",
  crypto: "crypto_charge",
  deposit: "pix_deposit",
  "pix-subscription": "pix_subscription",
  "card-subscription": "card_subscription",
  "crypto-subscription": "crypto_subscription",
} as const satisfies Record<ChargeFormKind, string>;

export function localIsoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** What the form holds while typing: every field of every kind, as text. */
export type ChargeFormValues = {
  identifier: string;
  amount: string;
  client: { name: string; email: string; phone: string; document: string };
  address: { country: string; zipCode: string; state: string; city: string; street: string; neighborhood: string; number: string; complement: string };
  card: { number: string; owner: string; expiresAt: string; cvv: string; statementDescriptor: string };
  installments: string;
  clientIp: string;
  products: { id: string; name: string; quantity: string; price: string; physical: boolean }[];
  shippingFee: string;
  extraFee: string;
  discount: string;
  splits: { producerId: string; amount: string }[];
  metadata: { key: string; value: string }[];
  dueDate: string;
  currency: string;
  cryptoCurrency: string;
  network: string;
  product: { id: string; name: string; price: string };
  subscription: { periodicityType: string; periodicity: string; firstChargeIn: string };
};

/** The fields each kind sends: the form submits only these (so a card number never rides along elsewhere). */
export function pickFormInput(kind: ChargeFormKind, values: ChargeFormValues): Record<string, unknown> {
  const base = { identifier: values.identifier, amount: values.amount };
  const extras = {
    products: values.products,
    shippingFee: values.shippingFee,
    extraFee: values.extraFee,
    discount: values.discount,
    splits: values.splits,
    metadata: values.metadata,
  };
  const subscription = { client: values.client, product: values.product, subscription: values.subscription };
  switch (kind) {
    case "pix":
    case "boleto":
      return { ...base, client: values.client, ...extras, dueDate: values.dueDate };
    case "card":
      return { ...base, client: values.client, ...extras, installments: values.installments, clientIp: values.clientIp, address: values.address, card: values.card };
    case "crypto":
      return { ...base, client: values.client, products: values.products, metadata: values.metadata, currency: values.currency, cryptoCurrency: values.cryptoCurrency, network: values.network };
    case "deposit":
      return base;
    case "pix-subscription":
      return { ...base, ...subscription };
    case "card-subscription":
      return { ...base, ...subscription, clientIp: values.clientIp, card: values.card };
    case "crypto-subscription":
      return { ...base, ...subscription, cryptoCurrency: values.cryptoCurrency, network: values.network };
  }
}

/** Products total + shipping + extra fee − discount, in centavos; null when there are no products. */
export function expectedTotalCents(values: Pick<ChargeFormValues, "products" | "shippingFee" | "extraFee" | "discount">): number | null {
  if (!values.products.length) return null;
  const money = (v: string) => toCents(parseMoneyInput(v ?? "") ?? 0);
  const products = values.products.reduce((sum, p) => {
    const quantity = Number(p.quantity || 1);
    return sum + money(p.price) * (Number.isFinite(quantity) && quantity > 0 ? quantity : 1);
  }, 0);
  return products + money(values.shippingFee) + money(values.extraFee) - money(values.discount);
}
