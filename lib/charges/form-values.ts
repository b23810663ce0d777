import { parseMoneyInput, toCents } from "@/lib/br/money";
import type { PeriodicityType } from "@/lib/gateway/constants";

/*
 * What the charge forms hold and send, without their schemas: the browser loads the zod schemas
 * (lib/charges/schemas.ts) only once someone starts filling a form. What differs by kind is in
 * lib/charges/kinds/.
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

export function localIsoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** What the form holds while typing: every field of every kind, as text (the recurrence's unit is picked from a list). */
export type ChargeFormValues = {
  identifier: string;
  amount: string;
  client: { name: string; email: string; phone: string; document: string };
  address: {
    country: string;
    zipCode: string;
    state: string;
    city: string;
    street: string;
    neighborhood: string;
    number: string;
    complement: string;
  };
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
  subscription: { periodicityType: PeriodicityType; periodicity: string; firstChargeIn: string };
};

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
