import { z } from "zod";
import { answerNumber, nonEmptyString, statusSchema } from "./common";

export const refundRequestSchema = z.strictObject({
  transactionId: nonEmptyString,
  reason: nonEmptyString,
  description: z.string().optional(),
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

export type RefundRequest = z.input<typeof refundRequestSchema>;
export type RefundRecord = z.output<typeof refundRecordSchema>;
