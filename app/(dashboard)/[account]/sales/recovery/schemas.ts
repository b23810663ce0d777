import { z } from "zod";
import { salesSettingsSchema, type SalesSettingsInput } from "@/lib/sales/schemas";

/** Browser-safe: the settings form and its server action share this schema. */

export const DELAY_UNITS = ["seconds", "minutes", "hours", "days"] as const;
export type DelayUnit = (typeof DELAY_UNITS)[number];

export const UNIT_MS: Record<DelayUnit, number> = { seconds: 1_000, minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

/** A delay in its largest whole unit (15 minutes, not 900 seconds). */
export function splitDelay(ms: number): { count: number; unit: DelayUnit } {
  for (const unit of ["days", "hours", "minutes"] as const) {
    if (ms >= UNIT_MS[unit] && ms % UNIT_MS[unit] === 0) return { count: ms / UNIT_MS[unit], unit };
  }
  return { count: Math.max(1, Math.round(ms / UNIT_MS.seconds)), unit: "seconds" };
}

const count = z
  .string()
  .trim()
  .regex(/^\d{1,8}$/, { error: "sales.errors.delay" });
const unit = z.enum(DELAY_UNITS, { error: "sales.errors.delay" });

export type RecoverySettingsValues = z.input<typeof recoverySettingsFormSchema>;

/**
 * The settings as typed (a number and a unit per delay), turned into the account's settings: each
 * delay is checked with `salesSettingsSchema`'s own rule and its error lands on the field typed.
 */
export const recoverySettingsFormSchema = z
  .object({
    pixDelay: count,
    pixUnit: unit,
    boletoDelay: count,
    boletoUnit: unit,
    messageTemplate: salesSettingsSchema.shape.messageTemplate,
    renewalTemplate: salesSettingsSchema.shape.renewalTemplate,
  })
  .superRefine((values, ctx) => {
    for (const [field, unitField] of [
      ["pixDelay", "pixUnit"],
      ["boletoDelay", "boletoUnit"],
    ] as const) {
      const ms = Number(values[field]) * UNIT_MS[values[unitField]];
      if (!salesSettingsSchema.shape.pixDelayMs.safeParse(ms).success) {
        ctx.addIssue({ code: "custom", path: [field], message: "sales.errors.delay" });
      }
    }
  })
  .transform((values): SalesSettingsInput => ({
    pixDelayMs: Number(values.pixDelay) * UNIT_MS[values.pixUnit],
    boletoDelayMs: Number(values.boletoDelay) * UNIT_MS[values.boletoUnit],
    messageTemplate: values.messageTemplate,
    renewalTemplate: values.renewalTemplate,
  }));
