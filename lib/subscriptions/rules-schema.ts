import { z } from "zod";

/** Browser-safe: the account's rules of the derived states, as the form types them and the server action re-checks them. */

export const MAX_GRACE_DAYS = 60;
export const MAX_LOST_AFTER_PERIODS = 24;

const whole = (error: "subscriptions.errors.graceDays" | "subscriptions.errors.lostAfterPeriods", min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,3}$/, { error })
    .transform(Number)
    .pipe(z.number().int().min(min, { error }).max(max, { error }));

export const stateRulesFormSchema = z.object({
  graceDays: whole("subscriptions.errors.graceDays", 0, MAX_GRACE_DAYS),
  lostAfterPeriods: whole("subscriptions.errors.lostAfterPeriods", 1, MAX_LOST_AFTER_PERIODS),
});
export type StateRulesValues = z.input<typeof stateRulesFormSchema>;

export const stateRulesSchema = z.object({
  graceDays: z.number().int().min(0).max(MAX_GRACE_DAYS),
  lostAfterPeriods: z.number().int().min(1).max(MAX_LOST_AFTER_PERIODS),
});
