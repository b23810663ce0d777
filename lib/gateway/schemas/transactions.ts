import { z } from "zod";
import { answerNumber, nonEmptyString, statusSchema, timestampSchema } from "./common";

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

export type TransactionQuery = { id: string } | { clientIdentifier: string };
export type TransactionRecord = z.output<typeof transactionRecordSchema>;
