/**
 * The sandbox's own request schemas: the contract is the seed (../shared/seeds) plus how the
 * family's real gateways behave, not the console's client schemas. Like the real ones they are
 * lenient: unknown fields and query parameters are ignored (and listed in the request log),
 * numbers may come as strings, empty optional strings count as absent (see `readBody`).
 */
import { z } from "zod";
import { hasAtMostTwoDecimals } from "../../lib/br/money";

/** A sane ceiling for one hosted-checkout offer. */
const MAX_CHECKOUT_PRICE = 1_000_000;

const PERIODICITY_TYPES = ["DAYS", "WEEKS", "MONTHS", "YEARS"] as const;

/** PHP and form-encoded integrations send numbers as strings ("10.50"): read them as numbers. */
function numeric<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (value) => (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)) ? Number(value) : value),
    schema,
  );
}

// ---------------------------------------------------------------------------
// Primitives
// ---------------------------------------------------------------------------

const nonEmptyString = z.string().trim().min(1, "obrigatório");

/** Money / quantity the caller must charge: a finite number strictly above zero. */
const positiveAmount = numeric(z.number().positive("deve ser maior que zero"));
/** Fees, discounts and unit prices may legitimately be zero. */
const nonNegativeAmount = numeric(z.number().nonnegative("não pode ser negativo"));

/** `YYYY-MM-DD` that is a real calendar date. */
export const isoDateSchema = z.iso.date({ error: "use o formato AAAA-MM-DD" });
/** Card expiry `YYYY-MM`. */
export const cardExpirySchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "use o formato AAAA-MM");
export const ipv4Schema = z.ipv4({ error: "deve ser um endereço IPv4" });
/** Absolute http(s) URL (webhook receivers, redirect pages, photos). */
export const httpUrlSchema = z.url({ protocol: /^https?$/, error: "deve ser uma URL http(s)" });
export const hexColorSchema = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, "deve ser uma cor hexadecimal, como #1a2b3c");

/** Free-form caller-defined content. */
export const metadataSchema = z.record(z.string(), z.unknown());

// ---------------------------------------------------------------------------
// 2.1 Shared request objects
// ---------------------------------------------------------------------------

export const addressSchema = z.object({
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
export const clientSchema = z.object({
  name: nonEmptyString,
  /** A foreign buyer names their country; their document is then not a CPF or CNPJ. */
  country: z.string().trim().optional(),
  email: z.email({ error: "deve ser um e-mail válido" }),
  phone: nonEmptyString,
  document: nonEmptyString,
  address: addressSchema.optional(),
});

export const cardClientSchema = clientSchema.extend({ address: addressSchema });

/** Charge product (Pix charge: may carry `physical`). */
export const productSchema = z.object({
  id: nonEmptyString,
  name: nonEmptyString,
  quantity: numeric(z.number().int().positive()).optional(),
  price: nonNegativeAmount,
  physical: z.boolean().optional(),
});

/** Charge product on card, boleto and crypto charges: no `physical`. */
export const cardProductSchema = productSchema.omit({ physical: true });

export const splitSchema = z.object({
  producerId: nonEmptyString,
  amount: positiveAmount,
});

/** Boleto split items: the interface does not show their fields, so they are not constrained. */
export const boletoSplitSchema = z.record(z.string(), z.unknown());

export const cardSchema = z.object({
  number: z.string().regex(/^\d{12,19}$/, "o número do cartão tem de 12 a 19 dígitos"),
  owner: nonEmptyString,
  expiresAt: cardExpirySchema,
  cvv: z.string().regex(/^\d{3,4}$/, "o CVV tem 3 ou 4 dígitos"),
  statementDescriptor: z.string().optional(),
});

export const periodicityTypeSchema = z.enum(PERIODICITY_TYPES);

/** The `subscription` recurrence configuration. */
export const recurrenceSchema = z.object({
  periodicityType: periodicityTypeSchema,
  periodicity: numeric(z.number().int().positive()),
  firstChargeIn: numeric(z.number().int().nonnegative()).optional(),
});

/**
 * `product` of subscription requests. The interface does not say which of its fields are
 * required; all three are required here because a subscription product without an id, a name
 * or a price cannot be shown or reconciled.
 */
export const subscriptionProductSchema = z.object({
  id: nonEmptyString,
  name: nonEmptyString,
  price: nonNegativeAmount,
});

// ---------------------------------------------------------------------------
// 4.x Request bodies
// ---------------------------------------------------------------------------

const feeFields = {
  shippingFee: nonNegativeAmount.optional(),
  extraFee: nonNegativeAmount.optional(),
  discount: nonNegativeAmount.optional(),
};

export const pixChargeRequestSchema = z.object({
  identifier: nonEmptyString,
  amount: positiveAmount,
  client: clientSchema,
  products: z.array(productSchema).optional(),
  ...feeFields,
  splits: z.array(splitSchema).optional(),
  metadata: metadataSchema.optional(),
  dueDate: isoDateSchema.optional(),
  callbackUrl: httpUrlSchema.optional(),
});

export const cardChargeRequestSchema = z.object({
  identifier: nonEmptyString,
  amount: positiveAmount,
  installments: numeric(z.number().int().positive()).optional(),
  clientIp: ipv4Schema,
  client: cardClientSchema,
  card: cardSchema,
  callbackUrl: httpUrlSchema.optional(),
  products: z.array(cardProductSchema).optional(),
  ...feeFields,
  splits: z.array(splitSchema).optional(),
  metadata: metadataSchema.optional(),
});

export const boletoChargeRequestSchema = z.object({
  identifier: nonEmptyString,
  amount: positiveAmount,
  client: clientSchema.omit({ address: true }),
  dueDate: isoDateSchema.optional(),
  callbackUrl: httpUrlSchema.optional(),
  products: z.array(cardProductSchema).optional(),
  ...feeFields,
  splits: z.array(boletoSplitSchema).optional(),
  metadata: metadataSchema.optional(),
});

export const cryptoChargeRequestSchema = z.object({
  identifier: nonEmptyString,
  amount: positiveAmount,
  currency: nonEmptyString,
  cryptoCurrency: nonEmptyString,
  network: nonEmptyString,
  client: clientSchema.omit({ address: true }),
  callbackUrl: httpUrlSchema.optional(),
  products: z.array(cardProductSchema).optional(),
  metadata: metadataSchema.optional(),
});

export const pixDepositRequestSchema = z.object({
  identifier: nonEmptyString.optional(),
  amount: positiveAmount,
  callbackUrl: httpUrlSchema.optional(),
});

export const pixSubscriptionRequestSchema = z.object({
  identifier: nonEmptyString,
  amount: positiveAmount,
  client: clientSchema,
  product: subscriptionProductSchema,
  subscription: recurrenceSchema,
  callbackUrl: httpUrlSchema.optional(),
});

export const cardSubscriptionRequestSchema = z.object({
  identifier: nonEmptyString,
  amount: positiveAmount,
  client: clientSchema.omit({ address: true }),
  clientIp: ipv4Schema,
  card: cardSchema,
  product: subscriptionProductSchema,
  subscription: recurrenceSchema,
  callbackUrl: httpUrlSchema.optional(),
});

export const cryptoSubscriptionRequestSchema = z.object({
  identifier: nonEmptyString,
  amount: positiveAmount,
  cryptoCurrency: nonEmptyString,
  network: nonEmptyString,
  client: clientSchema,
  product: subscriptionProductSchema,
  subscription: recurrenceSchema,
  callbackUrl: httpUrlSchema.optional(),
});

/** Pix key types listed by the interface ("supported values include": the set is open). */
export const PIX_KEY_TYPES = ["cpf", "cnpj", "email", "phone", "random"] as const;
/** Owner document types listed by the interface (open set as well). */
export const OWNER_DOCUMENT_TYPES = ["cpf", "cnpj"] as const;

type OpenString<Known extends string> = Known | (string & {});

/** A known value or any other non-empty string, typed so editors still offer the known ones. */
function openEnum<const T extends readonly [string, ...string[]]>(values: T): z.ZodType<OpenString<T[number]>, OpenString<T[number]>> {
  return z.union([z.enum(values), nonEmptyString]);
}

export const pixKeyTypeSchema = openEnum(PIX_KEY_TYPES);
export const ownerDocumentTypeSchema = openEnum(OWNER_DOCUMENT_TYPES);

export const transferRequestSchema = z.object({
  identifier: nonEmptyString,
  amount: positiveAmount,
  discountFeeOfReceiver: z.boolean().optional(),
  callbackUrl: httpUrlSchema,
  pix: z.object({
    type: pixKeyTypeSchema,
    key: nonEmptyString,
  }),
  owner: z.object({
    ip: ipv4Schema,
    // The interface asks for the name "without accents".
    name: nonEmptyString.regex(/^[\x20-\x7E]+$/, "use o nome sem acentos"),
    document: z.object({
      type: ownerDocumentTypeSchema,
      number: nonEmptyString,
    }),
  }),
});

/** Values the interface uses for checkout payment methods (documentation; the field is open). */
export const CHECKOUT_PAYMENT_METHODS = ["BOLETO", "PIX", "CREDIT_CARD"] as const;

export const checkoutRequestSchema = z.object({
  product: z.object({
    externalId: nonEmptyString,
    name: nonEmptyString,
    photos: z.array(httpUrlSchema).optional(),
    offer: z.object({
      name: nonEmptyString,
      price: positiveAmount
        .refine((price) => hasAtMostTwoDecimals(price) && price >= 0.01, "use no máximo duas casas decimais (mínimo 0,01)")
        .refine((price) => price <= MAX_CHECKOUT_PRICE, `o preço máximo é ${MAX_CHECKOUT_PRICE}`),
      offerType: nonEmptyString,
      currency: nonEmptyString,
      lang: nonEmptyString,
    }),
  }),
  settings: z
    .object({
      paymentMethods: z.array(nonEmptyString).min(1, "informe ao menos uma forma de pagamento").optional(),
      acceptedDocs: z.array(nonEmptyString).optional(),
      thankYouPage: httpUrlSchema.optional(),
      askForAddress: z.boolean().optional(),
      colors: z.record(z.string(), hexColorSchema).optional(),
    })
    .optional(),
  customer: z
    .object({
      name: z.string().optional(),
      email: z.email({ error: "e-mail inválido" }).optional(),
      phone: z.string().optional(),
      document: z.string().optional(),
      address: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
});
/** A checkout as stored (the `checkouts.request` column): the body its schema let through. */
export type CheckoutRequest = z.output<typeof checkoutRequestSchema>;

export const refundRequestSchema = z.object({
  transactionId: nonEmptyString,
  reason: nonEmptyString,
  description: z.string().optional(),
});

/**
 * Query of the transaction search. The interface does not name the transaction-ID parameter;
 * this project uses `id`. At least one of the two must be given.
 */
export const transactionQuerySchema = z
  .object({
    id: nonEmptyString.optional(),
    clientIdentifier: nonEmptyString.optional(),
  })
  .refine((q) => q.id !== undefined || q.clientIdentifier !== undefined, {
    message: "informe id ou clientIdentifier",
  });
