/**
 * zod schemas and types for the whole gateway interface (seeds/000_75a5d2a2c8c7772d.txt).
 *
 * The console's client side of the interface (the sandbox keeps its own schemas in
 * sandbox/contract, so the two never agree only with each other). Free of `server-only`.
 *
 * Policy:
 * - Requests are strict objects: an unknown field is REJECTED (a typo such as `clientIP` would
 *   otherwise be silently dropped and the gateway would see a request without the field). The
 *   only open places are those the interface leaves open: `metadata`, checkout
 *   `customer.address` and the boleto `splits` items, whose fields are not shown.
 *   Requests check what the interface states (presence, types, formats, IPv4, URLs, positive
 *   amounts), never Brazilian business rules such as CPF check digits (those live in lib/br
 *   and the console's form schemas).
 * - Responses are loose objects at every level: unknown fields are KEPT, numbers sent as strings
 *   are read as numbers, and every `status` is a plain string because the interface never gives
 *   the full status sets (lib/status/machine.ts maps the family's spellings).
 */
import { z } from "zod";
import { PERIODICITY_TYPES } from "./constants";

export { PERIODICITY_TYPES };

// ---------------------------------------------------------------------------
// Primitives
// ---------------------------------------------------------------------------

const nonEmptyString = z.string().trim().min(1, "Required");

/** Money / quantity the caller must charge: a finite number strictly above zero. */
const positiveAmount = z.number().positive("Must be greater than zero");
/** Fees, discounts and unit prices may legitimately be zero. */
const nonNegativeAmount = z.number().nonnegative("Must not be negative");

/** `YYYY-MM-DD` that is a real calendar date. */
export const isoDateSchema = z.iso.date({ error: "Use the format YYYY-MM-DD" });
/** Card expiry `YYYY-MM`. */
export const cardExpirySchema = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "Use the format YYYY-MM");
export const ipv4Schema = z.ipv4({ error: "Must be an IPv4 address" });
/** Absolute http(s) URL (webhook receivers, redirect pages, photos). */
export const httpUrlSchema = z.url({ protocol: /^https?$/, error: "Must be an http(s) URL" });
export const hexColorSchema = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, "Must be a hex color such as #1a2b3c");

/** Free-form caller-defined content. */
export const metadataSchema = z.record(z.string(), z.unknown());

// ---------------------------------------------------------------------------
// 2.1 Shared request objects
// ---------------------------------------------------------------------------

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

export const periodicityTypeSchema = z.enum(PERIODICITY_TYPES);

/** The `subscription` recurrence configuration. */
export const recurrenceSchema = z.strictObject({
  periodicityType: periodicityTypeSchema,
  periodicity: z.number().int().positive(),
  firstChargeIn: z.number().int().nonnegative().optional(),
});

/**
 * `product` of subscription requests. The interface does not say which of its fields are
 * required; all three are required here because a subscription product without an id, a name
 * or a price cannot be shown or reconciled.
 */
export const subscriptionProductSchema = z.strictObject({
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

export const pixChargeRequestSchema = z.strictObject({
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

export const cardChargeRequestSchema = z.strictObject({
  identifier: nonEmptyString,
  amount: positiveAmount,
  installments: z.number().int().positive().optional(),
  clientIp: ipv4Schema,
  client: cardClientSchema,
  card: cardSchema,
  callbackUrl: httpUrlSchema.optional(),
  products: z.array(cardProductSchema).optional(),
  ...feeFields,
  splits: z.array(splitSchema).optional(),
  metadata: metadataSchema.optional(),
});

export const boletoChargeRequestSchema = z.strictObject({
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

export const cryptoChargeRequestSchema = z.strictObject({
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

export const pixDepositRequestSchema = z.strictObject({
  identifier: nonEmptyString.optional(),
  amount: positiveAmount,
  callbackUrl: httpUrlSchema.optional(),
});

export const pixSubscriptionRequestSchema = z.strictObject({
  identifier: nonEmptyString,
  amount: positiveAmount,
  client: clientSchema,
  product: subscriptionProductSchema,
  subscription: recurrenceSchema,
  callbackUrl: httpUrlSchema.optional(),
});

export const cardSubscriptionRequestSchema = z.strictObject({
  identifier: nonEmptyString,
  amount: positiveAmount,
  client: clientSchema.omit({ address: true }),
  clientIp: ipv4Schema,
  card: cardSchema,
  product: subscriptionProductSchema,
  subscription: recurrenceSchema,
  callbackUrl: httpUrlSchema.optional(),
});

export const cryptoSubscriptionRequestSchema = z.strictObject({
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

function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), nonEmptyString]) as unknown as z.ZodType<
    OpenString<T[number]>,
    OpenString<T[number]>
  >;
}

export const pixKeyTypeSchema = openEnum(PIX_KEY_TYPES);
export const ownerDocumentTypeSchema = openEnum(OWNER_DOCUMENT_TYPES);

export const transferRequestSchema = z.strictObject({
  identifier: nonEmptyString,
  amount: positiveAmount,
  discountFeeOfReceiver: z.boolean().optional(),
  callbackUrl: httpUrlSchema,
  pix: z.strictObject({
    type: pixKeyTypeSchema,
    key: nonEmptyString,
  }),
  owner: z.strictObject({
    ip: ipv4Schema,
    // The interface asks for the name "without accents".
    name: nonEmptyString.regex(/^[\x20-\x7E]+$/, "Use the name without accents"),
    document: z.strictObject({
      type: ownerDocumentTypeSchema,
      number: nonEmptyString,
    }),
  }),
});

/** Values the interface uses for checkout payment methods (documentation; the field is open). */
export const CHECKOUT_PAYMENT_METHODS = ["BOLETO", "PIX", "CREDIT_CARD"] as const;

export const checkoutRequestSchema = z.strictObject({
  product: z.strictObject({
    externalId: nonEmptyString,
    name: nonEmptyString,
    photos: z.array(httpUrlSchema).optional(),
    offer: z.strictObject({
      name: nonEmptyString,
      price: positiveAmount,
      offerType: nonEmptyString,
      currency: nonEmptyString,
      lang: nonEmptyString,
    }),
  }),
  settings: z
    .strictObject({
      paymentMethods: z.array(nonEmptyString).optional(),
      acceptedDocs: z.array(nonEmptyString).optional(),
      thankYouPage: httpUrlSchema.optional(),
      askForAddress: z.boolean().optional(),
      colors: z.record(z.string(), hexColorSchema).optional(),
    })
    .optional(),
  customer: z
    .strictObject({
      name: z.string().optional(),
      email: z.string().optional(),
      phone: z.string().optional(),
      document: z.string().optional(),
      address: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
});

export const refundRequestSchema = z.strictObject({
  transactionId: nonEmptyString,
  reason: nonEmptyString,
  description: z.string().optional(),
});

/**
 * Query of the transaction search. The interface does not name the transaction-ID parameter;
 * this project uses `id`. At least one of the two must be given.
 */
export const transactionQuerySchema = z
  .strictObject({
    id: nonEmptyString.optional(),
    clientIdentifier: nonEmptyString.optional(),
  })
  .refine((q) => q.id !== undefined || q.clientIdentifier !== undefined, {
    message: "Give id or clientIdentifier",
  });

// ---------------------------------------------------------------------------
// 2.2 – 2.7 Responses (loose: unknown fields kept)
// ---------------------------------------------------------------------------

/** Real gateways of the family send numbers as strings now and then ("10.50"): answers read both. */
function answerNumber() {
  return z.preprocess((value) => (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)) ? Number(value) : value), z.number());
}

const statusSchema = z.string();
const timestampSchema = z.string();

export const chargeResponseBaseSchema = z.looseObject({
  transactionId: z.string(),
  status: statusSchema,
  fee: answerNumber(),
  order: z.looseObject({
    id: z.string(),
    url: z.string(),
    receiptUrl: z.string().optional(),
  }),
});

export const pixChargeResponseSchema = chargeResponseBaseSchema.extend({
  pix: z.looseObject({
    code: z.string(),
    image: z.string(),
    // Deprecated and always "": tolerated when a gateway drops it.
    base64: z.string().optional(),
  }),
});

export const cardChargeResponseSchema = chargeResponseBaseSchema;

export const boletoChargeResponseSchema = chargeResponseBaseSchema.extend({
  boleto: z.looseObject({
    barcode: z.string(),
    digitableLine: z.string(),
    pdfUrl: z.string(),
  }),
});

export const cryptoChargeResponseSchema = chargeResponseBaseSchema.extend({
  crypto: z.looseObject({
    address: z.string(),
    amount: answerNumber(),
    currency: z.string(),
    network: z.string(),
    expiresAt: timestampSchema,
  }),
});

/** 2.3: no `fee`. */
export const pixDepositResponseSchema = z.looseObject({
  transactionId: z.string(),
  status: statusSchema,
  order: z.looseObject({
    id: z.string(),
    url: z.string().optional(),
  }),
  pix: z.looseObject({
    code: z.string(),
    image: z.string().optional(),
    expiresAt: timestampSchema.optional(),
    base64: z.string().optional(),
  }),
});

/** The subscription responses are not shown: any JSON object, kept as is. */
export const subscriptionResponseSchema = z.looseObject({});

export const withdrawSchema = z.looseObject({
  id: z.string(),
  amount: answerNumber(),
  feeAmount: answerNumber(),
  currency: z.string(),
  status: statusSchema,
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});

export const payoutAccountSchema = z.looseObject({
  id: z.string(),
  status: statusSchema,
  pix: z.string(),
  pixType: z.string(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  deletedAt: timestampSchema.nullable(),
});

export const transferResponseSchema = z.looseObject({
  webhookToken: z.string(),
  withdraw: withdrawSchema,
  payoutAccount: payoutAccountSchema,
  receiptUrl: z.string().optional(),
});

export const checkoutResponseSchema = z.looseObject({
  success: z.boolean(),
  checkoutUrl: z.string(),
});

export const refundRecordSchema = z.looseObject({
  id: z.string(),
  transactionId: z.string(),
  producerId: z.string(),
  status: statusSchema,
  amount: answerNumber(),
  reason: z.string(),
  description: z.string().optional(),
});

export const transactionPixInformationSchema = z.looseObject({
  qrCode: z.string().optional(),
  image: z.string().optional(),
  base64: z.string().optional(),
});

export const pixMetadataSchema = z.looseObject({
  payerBankName: z.string().optional(),
  payerDocument: z.string().optional(),
  payerName: z.string().optional(),
  receiverBankName: z.string().optional(),
  receiverDocument: z.string().optional(),
  receiverName: z.string().optional(),
  receiverPixKey: z.string().optional(),
});

/** 2.4, nullable/optional exactly as the interface's table says. */
export const transactionRecordSchema = z.looseObject({
  id: z.string(),
  clientIdentifier: z.string(),
  currency: z.string(),
  amount: answerNumber(),
  chargeAmount: answerNumber(),
  exchangeRate: answerNumber().optional(),
  producerExtraAmount: answerNumber().optional(),
  status: statusSchema,
  statusDescription: z.string().nullable().optional(),
  purchaseType: z.string().optional(),
  paymentMethod: z.string(),
  details: z.looseObject({}).nullable().optional(),
  errorDescription: z.string().nullable().optional(),
  webhookUrl: z.string().nullable().optional(),
  availableAt: timestampSchema.nullable().optional(),
  createdAt: timestampSchema.optional(),
  refundedAt: timestampSchema.nullable().optional(),
  payedAt: timestampSchema.nullable().optional(),
  boletoInformation: z.looseObject({}).nullable().optional(),
  pixInformation: transactionPixInformationSchema.nullable().optional(),
  pixMetadata: pixMetadataSchema.optional(),
});

export const producerAddressSchema = z.looseObject({
  zipCode: z.string().optional(),
  country: z.string().optional(),
  state: z.string().optional(),
  city: z.string().optional(),
  neighborhood: z.string().optional(),
  street: z.string().optional(),
  number: z.string().optional(),
  complement: z.string().optional(),
});

/** 2.6: `document` and `address` are omitted before KYC; `legalRepresentative` only for CNPJ. */
export const producerRecordSchema = z.looseObject({
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  document: z.string().optional(),
  address: producerAddressSchema.optional(),
  legalRepresentative: z
    .looseObject({
      name: z.string().optional(),
      phone: z.string().optional(),
      document: z.string().optional(),
      address: producerAddressSchema.optional(),
    })
    .optional(),
});

export const gatewayErrorBodySchema = z.looseObject({
  statusCode: answerNumber(),
  errorCode: z.string(),
  message: z.string(),
});

// ---------------------------------------------------------------------------
// 6. Payment webhook
// ---------------------------------------------------------------------------

/** The five event names of the payment webhook. Receivers must keep unknown ones too. */
export const WEBHOOK_EVENTS = [
  "TRANSACTION_CREATED",
  "TRANSACTION_PAID",
  "TRANSACTION_CANCELED",
  "TRANSACTION_REFUNDED",
  "TRANSACTION_CHARGED_BACK",
] as const;
export type KnownWebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export function isKnownWebhookEvent(event: string): event is KnownWebhookEvent {
  return (WEBHOOK_EVENTS as readonly string[]).includes(event);
}

export const webhookClientSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
  cpf: z.string().nullable().optional(),
  cnpj: z.string().nullable().optional(),
  address: z
    .looseObject({
      country: z.string().nullable().optional(),
      zipCode: z.string().nullable().optional(),
      state: z.string().nullable().optional(),
      city: z.string().nullable().optional(),
      neighborhood: z.string().nullable().optional(),
      street: z.string().nullable().optional(),
      number: z.string().nullable().optional(),
      complement: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
});

/**
 * Optional members accept `null` as well: a notification must never be rejected because a
 * gateway writes `"payedAt": null` for an unpaid transaction.
 */
export const webhookTransactionSchema = z.looseObject({
  id: z.string(),
  identifier: z.string().nullable().optional(),
  status: statusSchema,
  paymentMethod: z.string(),
  originalCurrency: z.string().nullable().optional(),
  originalAmount: answerNumber().nullable().optional(),
  amount: answerNumber(),
  commissionAmount: answerNumber().nullable().optional(),
  currency: z.string(),
  exchangeRate: answerNumber().nullable().optional(),
  installments: answerNumber().nullable().optional(),
  createdAt: timestampSchema,
  payedAt: timestampSchema.nullable().optional(),
  pixInformation: z
    .looseObject({
      qrCode: z.string().nullable().optional(),
      endToEndId: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
  boletoInformation: z.looseObject({}).nullable().optional(),
});

export const webhookOrderItemSchema = z.looseObject({
  id: z.string().optional(),
  price: answerNumber().optional(),
  product: z
    .looseObject({
      id: z.string().optional(),
      name: z.string().optional(),
      externalId: z.string().nullable().optional(),
    })
    .optional(),
});

export const webhookTrackPropsSchema = z.looseObject({
  isUpsell: z.boolean().optional(),
  ip: z.string().nullable().optional(),
  user_agent: z.string().nullable().optional(),
});

export const paymentWebhookSchema = z.looseObject({
  /** One of WEBHOOK_EVENTS, or an event this code does not know yet (kept, never rejected). */
  event: z.string().min(1),
  token: z.string(),
  offerCode: z.string().nullable().optional(),
  checkoutUrl: z.string(),
  client: webhookClientSchema,
  transaction: webhookTransactionSchema,
  subscription: z.looseObject({}).nullable().optional(),
  orderItems: z.array(webhookOrderItemSchema).optional(),
  trackProps: webhookTrackPropsSchema.optional(),
});

// ---------------------------------------------------------------------------
// 3. Status values that appear (documentation only: NEVER validate against these)
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// Endpoints table
// ---------------------------------------------------------------------------

export const API_PREFIX = "/api/v1/gateway";

export type EndpointDefinition = {
  method: "GET" | "POST";
  /** Path relative to the base URL, including the `/api/v1/gateway` prefix. */
  path: string;
  summary: string;
  request?: z.ZodType;
  query?: z.ZodType;
  response: z.ZodType;
};

export const ENDPOINTS = {
  createPixCharge: {
    method: "POST",
    path: `${API_PREFIX}/pix/receive`,
    summary: "Create Pix charge",
    request: pixChargeRequestSchema,
    response: pixChargeResponseSchema,
  },
  createCardCharge: {
    method: "POST",
    path: `${API_PREFIX}/card/receive`,
    summary: "Create card charge",
    request: cardChargeRequestSchema,
    response: cardChargeResponseSchema,
  },
  createBoletoCharge: {
    method: "POST",
    path: `${API_PREFIX}/boleto/receive`,
    summary: "Create boleto charge",
    request: boletoChargeRequestSchema,
    response: boletoChargeResponseSchema,
  },
  createCryptoCharge: {
    method: "POST",
    path: `${API_PREFIX}/crypto/receive`,
    summary: "Create crypto charge",
    request: cryptoChargeRequestSchema,
    response: cryptoChargeResponseSchema,
  },
  createPixDeposit: {
    method: "POST",
    path: `${API_PREFIX}/pix/deposit`,
    summary: "Create Pix deposit",
    request: pixDepositRequestSchema,
    response: pixDepositResponseSchema,
  },
  createPixSubscription: {
    method: "POST",
    path: `${API_PREFIX}/pix/subscription`,
    summary: "Create Pix subscription",
    request: pixSubscriptionRequestSchema,
    response: subscriptionResponseSchema,
  },
  createCardSubscription: {
    method: "POST",
    path: `${API_PREFIX}/card/subscription`,
    summary: "Create card subscription",
    request: cardSubscriptionRequestSchema,
    response: subscriptionResponseSchema,
  },
  createCryptoSubscription: {
    method: "POST",
    path: `${API_PREFIX}/crypto/subscription`,
    summary: "Create crypto subscription",
    request: cryptoSubscriptionRequestSchema,
    response: subscriptionResponseSchema,
  },
  createTransfer: {
    method: "POST",
    path: `${API_PREFIX}/transfers`,
    summary: "Create Pix transfer (withdrawal)",
    request: transferRequestSchema,
    response: transferResponseSchema,
  },
  createCheckout: {
    method: "POST",
    path: `${API_PREFIX}/checkout`,
    summary: "Create hosted checkout",
    request: checkoutRequestSchema,
    response: checkoutResponseSchema,
  },
  requestRefund: {
    method: "POST",
    path: `${API_PREFIX}/producer/refunds`,
    summary: "Request refund",
    request: refundRequestSchema,
    response: refundRecordSchema,
  },
  getTransaction: {
    method: "GET",
    path: `${API_PREFIX}/transactions`,
    summary: "Search transactions",
    query: transactionQuerySchema,
    response: transactionRecordSchema,
  },
  getProducer: {
    method: "GET",
    path: `${API_PREFIX}/producer`,
    summary: "Get producer data",
    response: producerRecordSchema,
  },
} as const satisfies Record<string, EndpointDefinition>;

export type EndpointName = keyof typeof ENDPOINTS;

// ---------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------

export type Address = z.input<typeof addressSchema>;
export type Client = z.input<typeof clientSchema>;
export type CardClient = z.input<typeof cardClientSchema>;
export type Product = z.input<typeof productSchema>;
export type CardProduct = z.input<typeof cardProductSchema>;
export type Split = z.input<typeof splitSchema>;
export type Card = z.input<typeof cardSchema>;
export type PeriodicityType = z.infer<typeof periodicityTypeSchema>;
export type Recurrence = z.input<typeof recurrenceSchema>;
export type SubscriptionProduct = z.input<typeof subscriptionProductSchema>;
export type Metadata = z.infer<typeof metadataSchema>;
export type PixKeyType = z.infer<typeof pixKeyTypeSchema>;
export type OwnerDocumentType = z.infer<typeof ownerDocumentTypeSchema>;

export type PixChargeRequest = z.input<typeof pixChargeRequestSchema>;
export type CardChargeRequest = z.input<typeof cardChargeRequestSchema>;
export type BoletoChargeRequest = z.input<typeof boletoChargeRequestSchema>;
export type CryptoChargeRequest = z.input<typeof cryptoChargeRequestSchema>;
export type PixDepositRequest = z.input<typeof pixDepositRequestSchema>;
export type PixSubscriptionRequest = z.input<typeof pixSubscriptionRequestSchema>;
export type CardSubscriptionRequest = z.input<typeof cardSubscriptionRequestSchema>;
export type CryptoSubscriptionRequest = z.input<typeof cryptoSubscriptionRequestSchema>;
export type TransferRequest = z.input<typeof transferRequestSchema>;
export type CheckoutRequest = z.input<typeof checkoutRequestSchema>;
export type RefundRequest = z.input<typeof refundRequestSchema>;
export type TransactionQuery = { id: string } | { clientIdentifier: string };

export type ChargeResponseBase = z.output<typeof chargeResponseBaseSchema>;
export type PixChargeResponse = z.output<typeof pixChargeResponseSchema>;
export type CardChargeResponse = z.output<typeof cardChargeResponseSchema>;
export type BoletoChargeResponse = z.output<typeof boletoChargeResponseSchema>;
export type CryptoChargeResponse = z.output<typeof cryptoChargeResponseSchema>;
export type PixDepositResponse = z.output<typeof pixDepositResponseSchema>;
export type SubscriptionResponse = z.output<typeof subscriptionResponseSchema>;
export type Withdraw = z.output<typeof withdrawSchema>;
export type PayoutAccount = z.output<typeof payoutAccountSchema>;
export type TransferResponse = z.output<typeof transferResponseSchema>;
export type CheckoutResponse = z.output<typeof checkoutResponseSchema>;
export type RefundRecord = z.output<typeof refundRecordSchema>;
export type TransactionRecord = z.output<typeof transactionRecordSchema>;
export type ProducerAddress = z.output<typeof producerAddressSchema>;
export type ProducerRecord = z.output<typeof producerRecordSchema>;
export type PaymentWebhook = z.output<typeof paymentWebhookSchema>;
export type WebhookTransaction = z.output<typeof webhookTransactionSchema>;
export type GatewayErrorBody = z.output<typeof gatewayErrorBodySchema>;
