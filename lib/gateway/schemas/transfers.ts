import { z } from "zod";
import { answerNumber, httpUrlSchema, ipv4Schema, nonEmptyString, openEnum, positiveAmount, statusSchema, timestampSchema } from "./common";

/** Pix key types listed by the interface ("supported values include": the set is open). */
export const PIX_KEY_TYPES = ["cpf", "cnpj", "email", "phone", "random"] as const;

/** Owner document types listed by the interface (open set as well). */
export const OWNER_DOCUMENT_TYPES = ["cpf", "cnpj"] as const;

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

export type PixKeyType = z.infer<typeof pixKeyTypeSchema>;
export type OwnerDocumentType = z.infer<typeof ownerDocumentTypeSchema>;
export type TransferRequest = z.input<typeof transferRequestSchema>;
export type Withdraw = z.output<typeof withdrawSchema>;
export type PayoutAccount = z.output<typeof payoutAccountSchema>;
export type TransferResponse = z.output<typeof transferResponseSchema>;
