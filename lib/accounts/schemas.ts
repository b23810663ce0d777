import { z } from "zod";

const httpUrl = z
  .string()
  .trim()
  .min(1, "errors.required")
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  }, "errors.urlInvalid");

const accountDetailsShape = z.object({
  name: z.string().trim().min(1, "errors.required").max(80),
  baseUrl: httpUrl,
  publicKey: z.string().trim().min(1, "errors.required").max(512),
  mode: z.enum(["test", "live"]),
});

/** Live keys only travel over TLS. */
const liveNeedsHttps = (value: { baseUrl: string; mode: string }, ctx: z.RefinementCtx) => {
  if (value.mode === "live" && !/^https:\/\//i.test(value.baseUrl.trim())) {
    ctx.addIssue({ code: "custom", path: ["baseUrl"], message: "errors.httpsRequired" });
  }
};

/**
 * `secretKey` is asked again whenever the base URL or the mode changes, so that a changed
 * destination can never receive the stored key (checked on the server against the saved row).
 */
export const accountDetailsSchema = accountDetailsShape
  .extend({ secretKey: z.string().trim().max(512).optional().or(z.literal("")) })
  .superRefine(liveNeedsHttps);

export const createAccountSchema = accountDetailsShape
  .extend({
    secretKey: z.string().trim().min(1, "errors.required").max(512),
    webhookToken: z.string().trim().max(512).optional().or(z.literal("")),
  })
  .superRefine(liveNeedsHttps);

export const replaceSecretSchema = z.object({ secretKey: z.string().trim().min(1, "errors.required").max(512) });
export const replaceWebhookTokenSchema = z.object({ webhookToken: z.string().trim().max(512) });

/** The replace dialogs' one field, with the rule of the value it replaces. */
export const replaceValueSchemas = {
  secretKey: z.object({ value: replaceSecretSchema.shape.secretKey }),
  webhookToken: z.object({ value: replaceWebhookTokenSchema.shape.webhookToken }),
};
