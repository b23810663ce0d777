import { z } from "zod";
import { REFUND_REASONS, REFUND_REASON_CODES } from "./reasons";

export const refundRequestFormSchema = z
  .object({
    transactionId: z.string().trim().min(1, { error: "errors.required" }).max(120),
    ledgerId: z.string().max(120).optional(),
    reasonCode: z.enum(REFUND_REASON_CODES, { error: "errors.required" }),
    reasonText: z.string().trim().max(300).optional(),
    description: z.string().trim().max(1000).optional(),
    /** The authenticator app's code, for users with two-step verification. */
    code: z.string().trim().max(32).optional(),
  })
  .transform((values, ctx) => {
    const reason = values.reasonCode === "other" ? (values.reasonText ?? "").trim() : REFUND_REASONS[values.reasonCode];
    if (!reason) ctx.addIssue({ code: "custom", path: ["reasonText"], message: "errors.required" });
    return {
      transactionId: values.transactionId,
      ledgerId: values.ledgerId || undefined,
      reason,
      description: values.description || undefined,
      code: values.code || undefined,
    };
  });

export type RefundRequestFormValues = z.input<typeof refundRequestFormSchema>;
export type RefundRequestInput = z.output<typeof refundRequestFormSchema>;

export const refreshRefundSchema = z.object({ refundId: z.string().min(1).max(120) });
