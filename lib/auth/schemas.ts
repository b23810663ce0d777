import { z } from "zod";
import { ROLES } from "@/lib/db/schema-enums";

export const MIN_PASSWORD = 12;

/** A random password without look-alike characters; Web Crypto, so the browser and the server share it. */
export function generatePassword(length = 20): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789";
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}

export const signInSchema = z.object({
  email: z.string().trim().min(1, "errors.required").email("errors.emailInvalid"),
  password: z.string().min(1, "errors.required"),
});

const newPassword = z.string().min(MIN_PASSWORD, "errors.passwordTooShort").max(256);

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, "errors.required"),
    newPassword,
    confirmPassword: z.string().min(1, "errors.required"),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ["confirmPassword"], message: "errors.passwordMismatch" });

export const createUserSchema = z.object({
  email: z.string().trim().min(1, "errors.required").email("errors.emailInvalid"),
  name: z.string().trim().min(1, "errors.required").max(120),
  role: z.enum(ROLES),
  password: newPassword,
  accountIds: z.array(z.string().min(1)).default([]),
});
