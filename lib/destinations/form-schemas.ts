import { z } from "zod";
import { EVENT_TYPES } from "./vocabulary";

/** The destination form; the server also checks the URL against the account's mode and what its name resolves to. */
export const destinationFormSchema = z
  .object({
    url: z
      .string()
      .trim()
      .min(1, { error: "errors.required" })
      .max(2000)
      .refine((value) => /^https?:\/\/[^\s]+$/i.test(value) && URL.canParse(value), { error: "destinations.errors.urlInvalid" }),
    description: z.string().trim().max(200).optional(),
    allTypes: z.boolean(),
    eventTypes: z.array(z.enum(EVENT_TYPES)).max(EVENT_TYPES.length),
  })
  .superRefine((values, ctx) => {
    if (!values.allTypes && values.eventTypes.length === 0)
      ctx.addIssue({ code: "custom", path: ["eventTypes"], message: "destinations.errors.typesRequired" });
  });

export type DestinationFormValues = z.input<typeof destinationFormSchema>;
export type DestinationInput = z.output<typeof destinationFormSchema>;

export const destinationIdSchema = z.object({ destinationId: z.string().trim().min(1).max(100) });

export const updateDestinationSchema = destinationIdSchema.extend({ destination: destinationFormSchema });

/** How long the old secret keeps signing beside the new one (0: replaced at once). */
export const ROTATION_OVERLAP_HOURS = [0, 1, 24, 72] as const;
export const rotateSecretSchema = destinationIdSchema.extend({ overlapHours: z.number().int().min(0).max(72) });

export const resendEventSchema = destinationIdSchema.extend({ eventId: z.string().trim().min(1).max(100) });

/** "Resend everything since": a moment within the last 30 days, not in the future. */
export const replaySinceSchema = destinationIdSchema.extend({
  since: z.iso.datetime({ offset: true, error: "destinations.errors.sinceInvalid" }).refine(
    (value) => {
      const at = Date.parse(value);
      return at <= Date.now() && at >= Date.now() - 30 * 24 * 3_600_000;
    },
    { error: "destinations.errors.sinceRange" },
  ),
});
