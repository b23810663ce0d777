import { z } from "zod";
import { ROLES } from "@/lib/db/schema-enums";
import { MIN_PASSWORD } from "./password-rules";

export const signInSchema = z.object({
  email: z.string().trim().min(1, "errors.required").email("errors.emailInvalid"),
  password: z.string().min(1, "errors.required"),
  /** Asked only after the password, for users with two-step verification. */
  code: z.string().trim().max(32).optional(),
});

/** A 6-digit code from the app, or a recovery code ("xxxxx-xxxxx"). */
export const secondFactorCode = z
  .string()
  .trim()
  .min(1, "errors.required")
  .max(32)
  .regex(/^(\d{3} ?\d{3}|[a-zA-Z0-9]{5}-?[a-zA-Z0-9]{5})$/, "errors.wrongCode");

export const enrolCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{3} ?\d{3}$/, "errors.wrongCode"),
});
export const secondFactorCodeSchema = z.object({ code: secondFactorCode });
export const disableSecondFactorSchema = z.object({ password: z.string().min(1, "errors.required").max(1024), code: secondFactorCode });
export const requiredRolesSchema = z.object({ roles: z.array(z.enum(ROLES)).max(ROLES.length) });

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
