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

export const accountDetailsSchema = z.object({
  name: z.string().trim().min(1, "errors.required").max(80),
  baseUrl: httpUrl,
  publicKey: z.string().trim().min(1, "errors.required").max(512),
  mode: z.enum(["test", "live"]),
});

export const createAccountSchema = accountDetailsSchema.extend({
  secretKey: z.string().trim().min(1, "errors.required").max(512),
  webhookToken: z.string().trim().max(512).optional().or(z.literal("")),
});

export const replaceSecretSchema = z.object({ secretKey: z.string().trim().min(1, "errors.required").max(512) });
export const replaceWebhookTokenSchema = z.object({ webhookToken: z.string().trim().max(512) });
