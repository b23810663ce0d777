import { z } from "zod";
import type { RecoveryMarkState } from "@/lib/db/tables/sales";

/** Browser-safe: the form and the server action share these (no database code is imported). */
export const RECOVERY_MARK_STATES = ["contacted", "lost"] as const satisfies readonly RecoveryMarkState[];

/** Delays the recovery list accepts: from one second (tests) to 30 days. */
export const MIN_RECOVERY_DELAY_MS = 1_000;
export const MAX_RECOVERY_DELAY_MS = 30 * 86_400_000;
export const MAX_TEMPLATE_LENGTH = 1_000;
export const MAX_NOTE_LENGTH = 1_000;

const delayMs = z
  .number({ error: "sales.errors.delay" })
  .int({ error: "sales.errors.delay" })
  .min(MIN_RECOVERY_DELAY_MS, { error: "sales.errors.delay" })
  .max(MAX_RECOVERY_DELAY_MS, { error: "sales.errors.delay" });

const template = z
  .string()
  .trim()
  .min(1, { error: "sales.errors.templateRequired" })
  .max(MAX_TEMPLATE_LENGTH, { error: "sales.errors.tooLong" });

/** The sales settings of an account, as the form sends them and the server action re-checks them. */
export const salesSettingsSchema = z.object({
  pixDelayMs: delayMs,
  boletoDelayMs: delayMs,
  messageTemplate: template,
  /** The message for a subscription's unpaid or failed renewal. */
  renewalTemplate: template,
});
export type SalesSettingsInput = z.infer<typeof salesSettingsSchema>;

/** Marking a charge of the recovery list. */
export const recoveryMarkSchema = z.object({
  ledgerId: z.string().min(1).max(100),
  state: z.enum(RECOVERY_MARK_STATES, { error: "sales.errors.markState" }),
  note: z.string().trim().max(MAX_NOTE_LENGTH, { error: "sales.errors.tooLong" }).optional(),
});
export type RecoveryMarkInput = z.infer<typeof recoveryMarkSchema>;

/** The ways the recovery list's message leaves the console. */
export const RECOVERY_CHANNELS = ["whatsapp", "email"] as const;
export type RecoveryChannel = (typeof RECOVERY_CHANNELS)[number];

/** Opening WhatsApp or e-mail with a charge's message: recorded as a contact. */
export const recoveryContactSchema = z.object({
  ledgerId: z.string().min(1).max(100),
  channel: z.enum(RECOVERY_CHANNELS),
});
export type RecoveryContactInput = z.infer<typeof recoveryContactSchema>;
