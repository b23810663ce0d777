import { z } from "zod";
import {
  answerNumber,
  boletoSplitSchema,
  cardClientSchema,
  cardProductSchema,
  cardSchema,
  clientSchema,
  httpUrlSchema,
  ipv4Schema,
  isoDateSchema,
  metadataSchema,
  nonEmptyString,
  nonNegativeAmount,
  positiveAmount,
  productSchema,
  splitSchema,
  statusSchema,
  timestampSchema,
} from "./common";

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

export type PixChargeRequest = z.input<typeof pixChargeRequestSchema>;
export type CardChargeRequest = z.input<typeof cardChargeRequestSchema>;
export type BoletoChargeRequest = z.input<typeof boletoChargeRequestSchema>;
export type CryptoChargeRequest = z.input<typeof cryptoChargeRequestSchema>;
export type PixDepositRequest = z.input<typeof pixDepositRequestSchema>;
export type ChargeResponseBase = z.output<typeof chargeResponseBaseSchema>;
export type PixChargeResponse = z.output<typeof pixChargeResponseSchema>;
export type CardChargeResponse = z.output<typeof cardChargeResponseSchema>;
export type BoletoChargeResponse = z.output<typeof boletoChargeResponseSchema>;
export type CryptoChargeResponse = z.output<typeof cryptoChargeResponseSchema>;
export type PixDepositResponse = z.output<typeof pixDepositResponseSchema>;
