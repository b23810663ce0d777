import { z } from "zod";
import { WEBHOOK_EVENTS } from "@/lib/gateway/schemas/webhooks";

/** The five payment events the sandbox can be asked to (re)send. */
export const SANDBOX_EVENTS = WEBHOOK_EVENTS;

export const emitSandboxEventSchema = z.object({
  transactionId: z.string().trim().min(1, "activity.inbox.sandbox.required").max(200),
  event: z.enum(SANDBOX_EVENTS),
});
