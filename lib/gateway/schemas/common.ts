import { z } from "zod";

export const nonEmptyString = z.string().trim().min(1, "Required");

/** Money / quantity the caller must charge: a finite number strictly above zero. */
export const positiveAmount = z.number().positive("Must be greater than zero");

/** Fees, discounts and unit prices may legitimately be zero. */
export const nonNegativeAmount = z.number().nonnegative("Must not be negative");

/** `YYYY-MM-DD` that is a real calendar date. */
export const isoDateSchema = z.iso.date({ error: "Use the format YYYY-MM-DD" });

/** Card expiry `YYYY-MM`. */
export const cardExpirySchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "Use the format YYYY-MM");

export const ipv4Schema = z.ipv4({ error: "Must be an IPv4 address" });

/** Absolute http(s) URL (webhook receivers, redirect pages, photos). */
export const httpUrlSchema = z.url({ protocol: /^https?$/, error: "Must be an http(s) URL" });

export const hexColorSchema = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, "Must be a hex color such as #1a2b3c");

/** Free-form caller-defined content. */
export const metadataSchema = z.record(z.string(), z.unknown());

export const addressSchema = z.strictObject({
  country: nonEmptyString,
  zipCode: nonEmptyString,
  state: nonEmptyString,
  city: nonEmptyString,
  street: nonEmptyString,
  neighborhood: nonEmptyString,
  number: nonEmptyString,
  complement: z.string().optional(),
});

/** Client of charge and subscription requests; `address` is only required on the card charge. */
export const clientSchema = z.strictObject({
  name: nonEmptyString,
  email: z.email({ error: "Must be an email address" }),
  phone: nonEmptyString,
  document: nonEmptyString,
  address: addressSchema.optional(),
});

export const cardClientSchema = clientSchema.extend({ address: addressSchema });

/** Charge product (Pix charge: may carry `physical`). */
export const productSchema = z.strictObject({
  id: nonEmptyString,
  name: nonEmptyString,
  quantity: z.number().int().positive().optional(),
  price: nonNegativeAmount,
  physical: z.boolean().optional(),
});

/** Charge product on card, boleto and crypto charges: no `physical`. */
export const cardProductSchema = productSchema.omit({ physical: true });

export const splitSchema = z.strictObject({
  producerId: nonEmptyString,
  amount: positiveAmount,
});

/** Boleto split items: the interface does not show their fields, so they are not constrained. */
export const boletoSplitSchema = z.record(z.string(), z.unknown());

export const cardSchema = z.strictObject({
  number: z.string().regex(/^\d{12,19}$/, "Card number must be 12 to 19 digits"),
  owner: nonEmptyString,
  expiresAt: cardExpirySchema,
  cvv: z.string().regex(/^\d{3,4}$/, "CVV must be 3 or 4 digits"),
  statementDescriptor: z.string().optional(),
});

type OpenString<Known extends string> = Known | (string & {});

/** A known value or any other non-empty string, typed so editors still offer the known ones. */
export function openEnum<const T extends readonly [string, ...string[]]>(
  values: T,
): z.ZodType<OpenString<T[number]>, OpenString<T[number]>> {
  return z.union([z.enum(values), nonEmptyString]);
}

/** Real gateways of the family send numbers as strings now and then ("10.50"): answers read both. */
export function answerNumber() {
  return z.preprocess(
    (value) => (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)) ? Number(value) : value),
    z.number(),
  );
}

export const statusSchema = z.string();

export const timestampSchema = z.string();

export const gatewayErrorBodySchema = z.looseObject({
  statusCode: answerNumber(),
  errorCode: z.string(),
  message: z.string(),
});

export const KNOWN_STATUSES = {
  transactionCreation: ["OK", "PENDING"],
  transactionLookup: ["FAILED"],
  transactionWebhook: ["COMPLETED"],
  withdraw: ["PENDING"],
  payoutAccount: ["ACTIVE"],
  refundRequest: ["PENDING"],
} as const;

/** Payment methods seen in transaction records (documentation only). */
export const KNOWN_PAYMENT_METHODS = ["PIX", "CREDIT_CARD"] as const;

/** Error code documented for a second refund request on the same transaction. */
export const GATEWAY_INVALID_ARGUMENT = "GATEWAY_INVALID_ARGUMENT";

export type Address = z.input<typeof addressSchema>;
export type Client = z.input<typeof clientSchema>;
export type CardClient = z.input<typeof cardClientSchema>;
export type Product = z.input<typeof productSchema>;
export type CardProduct = z.input<typeof cardProductSchema>;
export type Split = z.input<typeof splitSchema>;
export type Card = z.input<typeof cardSchema>;
export type Metadata = z.infer<typeof metadataSchema>;
export type GatewayErrorBody = z.output<typeof gatewayErrorBodySchema>;
