import { z } from "zod";
import {
  cardBrand,
  cvvLengthFor,
  hasAtMostTwoDecimals,
  isUf,
  isValidCep,
  onlyDigits,
  parseMoneyInput,
  roundMoney,
  toCents,
  zCardExpiry,
  zCardNumber,
  zDocument,
  zEmail,
  zIPv4,
  zMoney,
  zPhone,
} from "@/lib/br";
import { PERIODICITY_TYPES } from "@/lib/gateway/constants";
import { saoPauloDate } from "@/lib/i18n/format";

/*
 * The form schemas of every incoming-money operation. The same schema validates the form in the
 * browser and is re-run by the server action; messages are i18n keys (`br.*`, `charges.errors.*`).
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

const text = (max = 200) => z.string({ error: "br.errors.required" }).trim().min(1, { error: "br.errors.required" }).max(max, { error: "charges.errors.tooLong" });
const optionalText = (max = 200) =>
  z
    .string()
    .trim()
    .max(max, { error: "charges.errors.tooLong" })
    .optional()
    .transform((v) => (v ? v : undefined));

/** Fees, discounts and unit prices: empty → absent, otherwise ≥ 0 with at most 2 decimals. */
const optionalMoney = z
  .union([z.string(), z.number()])
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || (typeof value === "string" && value.trim() === "")) return undefined;
    const n = typeof value === "number" ? value : parseMoneyInput(value);
    if (n === null || !Number.isFinite(n) || n < 0) {
      ctx.addIssue({ code: "custom", message: "br.errors.amountInvalid" });
      return z.NEVER;
    }
    if (!hasAtMostTwoDecimals(n)) {
      ctx.addIssue({ code: "custom", message: "br.errors.amountDecimals" });
      return z.NEVER;
    }
    return roundMoney(n);
  });

const requiredNonNegativeMoney = optionalMoney.refine((v) => v !== undefined, { error: "br.errors.required" }).transform((v) => v as number);

const positiveInt = (max: number) =>
  z
    .union([z.string(), z.number()])
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || (typeof value === "string" && value.trim() === "")) return undefined;
      const n = typeof value === "number" ? value : Number(value);
      if (!Number.isInteger(n) || n < 1 || n > max) {
        ctx.addIssue({ code: "custom", message: "charges.errors.integer" });
        return z.NEVER;
      }
      return n;
    });

/** `YYYY-MM-DD`, today or later in the browser's/server's calendar. */
const optionalDueDate = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx) => {
    if (!value) return undefined;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
      ctx.addIssue({ code: "custom", message: "charges.errors.dateInvalid" });
      return z.NEVER;
    }
    if (value < saoPauloDate()) {
      ctx.addIssue({ code: "custom", message: "charges.errors.datePast" });
      return z.NEVER;
    }
    return value;
  });

export function localIsoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const identifier = text(100).regex(/^[\w.:-]+$/, { error: "charges.errors.identifierChars" });

export const clientFormSchema = z.object({
  name: text(),
  email: zEmail,
  phone: zPhone,
  document: zDocument,
});

export const addressFormSchema = z
  .object({
    country: text(2).toUpperCase(),
    zipCode: text(20),
    state: text(40).toUpperCase(),
    city: text(),
    street: text(),
    neighborhood: text(),
    number: text(20),
    complement: optionalText(),
  })
  .superRefine((address, ctx) => {
    if (address.country !== "BR") return;
    if (!isValidCep(address.zipCode)) ctx.addIssue({ code: "custom", path: ["zipCode"], message: "br.errors.cepInvalid" });
    if (!isUf(address.state)) ctx.addIssue({ code: "custom", path: ["state"], message: "br.errors.ufInvalid" });
  })
  .transform((address) => (address.country === "BR" ? { ...address, zipCode: onlyDigits(address.zipCode) } : address));

const productFormSchema = z.object({
  id: text(100),
  name: text(),
  quantity: positiveInt(100_000),
  price: requiredNonNegativeMoney,
  physical: z.boolean().optional(),
});

const splitFormSchema = z.object({ producerId: text(100), amount: zMoney });
const metadataEntrySchema = z.object({ key: text(100), value: z.string().max(500, { error: "charges.errors.tooLong" }) });

export const cardFormSchema = z
  .object({
    number: zCardNumber,
    owner: text(),
    expiresAt: zCardExpiry,
    cvv: z.string().trim().min(1, { error: "br.errors.required" }),
    statementDescriptor: optionalText(22),
  })
  .superRefine((card, ctx) => {
    const brand = cardBrand(card.number);
    const length = cvvLengthFor(brand);
    if (!new RegExp(`^\\d{${length}}$`).test(card.cvv)) ctx.addIssue({ code: "custom", path: ["cvv"], message: "br.errors.cvvInvalid" });
  });

const productFields = {
  products: z.array(productFormSchema).default([]),
  shippingFee: optionalMoney,
  extraFee: optionalMoney,
  discount: optionalMoney,
  splits: z.array(splitFormSchema).default([]),
  metadata: z.array(metadataEntrySchema).default([]),
};

export const subscriptionProductFormSchema = z.object({ id: text(100), name: text(), price: requiredNonNegativeMoney });
export const recurrenceFormSchema = z.object({
  periodicityType: z.enum(PERIODICITY_TYPES, { error: "br.errors.required" }),
  periodicity: positiveInt(1000).refine((v) => v !== undefined, { error: "br.errors.required" }),
  firstChargeIn: positiveIntOrZero(1000),
});

function positiveIntOrZero(max: number) {
  return z
    .union([z.string(), z.number()])
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || (typeof value === "string" && value.trim() === "")) return undefined;
      const n = typeof value === "number" ? value : Number(value);
      if (!Number.isInteger(n) || n < 0 || n > max) {
        ctx.addIssue({ code: "custom", message: "charges.errors.integer" });
        return z.NEVER;
      }
      return n;
    });
}

type WithSplitsAndMetadata = {
  amount: number;
  splits?: { amount: number }[];
  metadata?: { key: string }[];
};

/** Cross-field rules: splits may not add up to more than the amount; metadata keys are unique. */
function crossChecks<T extends WithSplitsAndMetadata>(value: T, ctx: z.RefinementCtx) {
  const splitCents = (value.splits ?? []).reduce((sum, s) => sum + toCents(s.amount), 0);
  if (splitCents > toCents(value.amount)) ctx.addIssue({ code: "custom", path: ["splits"], message: "charges.errors.splitsAboveAmount" });
  const seen = new Set<string>();
  (value.metadata ?? []).forEach((entry, index) => {
    if (seen.has(entry.key)) ctx.addIssue({ code: "custom", path: ["metadata", index, "key"], message: "charges.errors.metadataDuplicate" });
    seen.add(entry.key);
  });
}

export const pixChargeFormSchema = z
  .object({ identifier, amount: zMoney, client: clientFormSchema, ...productFields, dueDate: optionalDueDate })
  .superRefine(crossChecks);

export const cardChargeFormSchema = z
  .object({
    identifier,
    amount: zMoney,
    installments: positiveInt(24),
    clientIp: zIPv4,
    client: clientFormSchema,
    address: addressFormSchema,
    card: cardFormSchema,
    ...productFields,
  })
  .superRefine(crossChecks);

export const boletoChargeFormSchema = z
  .object({ identifier, amount: zMoney, client: clientFormSchema, ...productFields, dueDate: optionalDueDate })
  .superRefine(crossChecks);

export const cryptoChargeFormSchema = z
  .object({
    identifier,
    amount: zMoney,
    currency: text(10).toUpperCase(),
    cryptoCurrency: text(20).toUpperCase(),
    network: text(40).toUpperCase(),
    client: clientFormSchema,
    products: productFields.products,
    metadata: productFields.metadata,
  })
  .superRefine(crossChecks);

/** The identifier is optional for the gateway; the form always carries one so a retry is recognised. */
export const pixDepositFormSchema = z.object({ identifier, amount: zMoney });

const subscriptionBase = {
  identifier,
  amount: zMoney,
  client: clientFormSchema,
  product: subscriptionProductFormSchema,
  subscription: recurrenceFormSchema,
};

export const pixSubscriptionFormSchema = z.object(subscriptionBase);
export const cardSubscriptionFormSchema = z.object({ ...subscriptionBase, clientIp: zIPv4, card: cardFormSchema });
export const cryptoSubscriptionFormSchema = z.object({
  ...subscriptionBase,
  cryptoCurrency: text(20).toUpperCase(),
  network: text(40).toUpperCase(),
});

export const CHARGE_FORM_SCHEMAS = {
  pix: pixChargeFormSchema,
  card: cardChargeFormSchema,
  boleto: boletoChargeFormSchema,
  crypto: cryptoChargeFormSchema,
  deposit: pixDepositFormSchema,
  "pix-subscription": pixSubscriptionFormSchema,
  "card-subscription": cardSubscriptionFormSchema,
  "crypto-subscription": cryptoSubscriptionFormSchema,
} as const satisfies Record<ChargeFormKind, z.ZodType>;

export type ChargeFormOutput<K extends ChargeFormKind> = z.output<(typeof CHARGE_FORM_SCHEMAS)[K]>;

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
