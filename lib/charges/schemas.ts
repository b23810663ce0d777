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
} from "@/lib/br";
import { zCardExpiry, zCardNumber, zDocument, zEmail, zIPv4, zMoney, zPhone } from "@/lib/br/zod";
import { PERIODICITY_TYPES } from "@/lib/gateway/constants";
import { ORIGIN_MAX_LENGTH } from "@/lib/gateway/origin";
import { saoPauloDate } from "@/lib/i18n/format";
import { ORIGIN_METADATA_KEY, type ChargeFormValues } from "./form-values";

/*
 * The form schemas of every incoming-money operation. The same schema validates the form in the
 * browser and is re-run by the server action; messages are i18n keys (`br.*`, `charges.errors.*`).
 */

const text = (max = 200) =>
  z.string({ error: "br.errors.required" }).trim().min(1, { error: "br.errors.required" }).max(max, { error: "charges.errors.tooLong" });
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

const requiredNonNegativeMoney = optionalMoney
  .refine((v) => v !== undefined, { error: "br.errors.required" })
  .transform((v) => v as number);

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

/**
 * The producer's own "origem" of a sale (instagram, indicação…): one line of text, kept whole in
 * the ledger's origin column (lib/gateway/origin.ts), so no longer than it keeps. Empty → absent.
 */
export const originFormSchema = z
  .string()
  .trim()
  .max(ORIGIN_MAX_LENGTH, { error: "charges.errors.originTooLong" })
  .refine((value) => !/\p{Cc}/u.test(value), { error: "charges.errors.originControl" })
  .optional()
  .transform((value) => (value ? value : undefined));

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
  origin: originFormSchema,
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

/**
 * Cross-field rules: splits may not add up to more than the amount; metadata keys are unique, and
 * "origem" is the Origem field's (so the rules above hold for it, whatever the form sent).
 */
function crossChecks<T extends WithSplitsAndMetadata>(value: T, ctx: z.RefinementCtx) {
  const splitCents = (value.splits ?? []).reduce((sum, s) => sum + toCents(s.amount), 0);
  if (splitCents > toCents(value.amount)) ctx.addIssue({ code: "custom", path: ["splits"], message: "charges.errors.splitsAboveAmount" });
  const seen = new Set<string>();
  (value.metadata ?? []).forEach((entry, index) => {
    if (entry.key === ORIGIN_METADATA_KEY)
      ctx.addIssue({ code: "custom", path: ["metadata", index, "key"], message: "charges.errors.metadataOrigin" });
    else if (seen.has(entry.key))
      ctx.addIssue({ code: "custom", path: ["metadata", index, "key"], message: "charges.errors.metadataDuplicate" });
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
    origin: productFields.origin,
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

/**
 * A kind's schema as its form uses it: on everything the form holds (`ChargeFormValues`), other
 * kinds' fields dropped. It does not compile when the form's values do not fit what the schema reads.
 */
export function onChargeForm<O, I>(
  schema: z.ZodType<O, I> & (ChargeFormValues extends I ? unknown : { error: "ChargeFormValues does not fit this schema" }),
): z.ZodType<O, ChargeFormValues> {
  return z.preprocess((values: ChargeFormValues) => values, schema);
}
