import { z } from "zod";
import { ROLES } from "@/lib/db/schema-enums";

export const MIN_PASSWORD = 12;

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
