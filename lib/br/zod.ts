import { z } from "zod";
import { cardBrand, cardNumberLengthOk, isExpiryNotPast, luhnValid, normalizeCardExpiry, cvvLengthFor } from "./card";
import { isValidCep } from "./cep";
import { isValidCnpj, normalizeCnpj } from "./cnpj";
import { isValidCpf } from "./cpf";
import { onlyDigits } from "./digits";
import { documentKind, normalizeDocument } from "./document";
import { isIPv4 } from "./ip";
import { hasAtMostTwoDecimals, parseMoneyInput, roundMoney } from "./money";
import { toE164Phone } from "./phone";
import { PIX_KEY_TYPES, validatePixKey, type PixKeyType } from "./pix-key";
import { UFS } from "./uf";

/* Error messages are i18n keys of the `br` message area; the form layer translates them. */

const required = () => z.string({ error: "br.errors.required" }).trim().min(1, { error: "br.errors.required", abort: true });

/** CPF, masked or not → 11 digits. */
export const zCpf = required()
  .refine(isValidCpf, { error: "br.errors.cpfInvalid" })
  .transform((v) => onlyDigits(v));

/** CNPJ (numeric or alphanumeric), masked or not → 14 upper-case characters. */
export const zCnpj = required()
  .refine(isValidCnpj, { error: "br.errors.cnpjInvalid" })
  .transform((v) => normalizeCnpj(v));

/** CPF or CNPJ → digits (CPF) or upper-case alphanumerics (CNPJ). */
export const zDocument = required()
  .refine((v) => documentKind(v) !== null, { error: "br.errors.documentInvalid" })
  .transform((v) => normalizeDocument(v));

/** Brazilian phone → E.164 (`+5511999999999`). */
export const zPhone = required()
  .refine((v) => toE164Phone(v) !== null, { error: "br.errors.phoneInvalid" })
  .transform((v) => toE164Phone(v) as string);

/** CEP → 8 digits. */
export const zCep = required()
  .refine(isValidCep, { error: "br.errors.cepInvalid" })
  .transform((v) => onlyDigits(v));

export const zUf = required()
  .toUpperCase()
  .pipe(z.enum(UFS, { error: "br.errors.ufInvalid" }));

export const zEmail = required()
  .toLowerCase()
  .max(254, { error: "br.errors.emailTooLong", abort: true })
  .pipe(z.email({ error: "br.errors.emailInvalid" }));

/** Positive amount in reais with at most 2 decimals; accepts pt-BR strings such as `1.234,56`. */
export const zMoney = z.preprocess(
  (value) => {
    if (typeof value !== "string") return value;
    if (value.trim() === "") return undefined;
    return parseMoneyInput(value) ?? value;
  },
  z
    .number({ error: (issue) => (issue.input === undefined ? "br.errors.required" : "br.errors.amountInvalid") })
    .refine(Number.isFinite, { error: "br.errors.amountInvalid", abort: true })
    .refine((n) => n > 0, { error: "br.errors.amountPositive", abort: true })
    .refine(hasAtMostTwoDecimals, { error: "br.errors.amountDecimals", abort: true })
    .refine((n) => n <= 99_999_999.99, { error: "br.errors.amountTooLarge" })
    .transform(roundMoney),
);

export const zIPv4 = required().refine(isIPv4, { error: "br.errors.ipv4Invalid" });

/** Card number (spaces/dashes allowed) → digits; Luhn, known brand and the brand's length. */
export const zCardNumber = required()
  .transform((v) => v.replace(/[\s-]/g, ""))
  .refine((v) => /^\d{12,19}$/.test(v) && luhnValid(v), { error: "br.errors.cardNumberInvalid", abort: true })
  .refine((v) => cardBrand(v) !== null, { error: "br.errors.cardBrandUnsupported", abort: true })
  .refine((v) => cardNumberLengthOk(v, cardBrand(v)), { error: "br.errors.cardNumberInvalid" });

/** `YYYY-MM` (also `MM/YY`, `MM/YYYY`) → `YYYY-MM`, not before the current month. */
export const zCardExpiry = required()
  .refine((v) => normalizeCardExpiry(v) !== null, { error: "br.errors.cardExpiryInvalid", abort: true })
  .transform((v) => normalizeCardExpiry(v) as string)
  .refine((v) => isExpiryNotPast(v), { error: "br.errors.cardExpired" });

/** CVV of 3 digits, or 4 for Amex when the brand is known. */
export function zCvv(brand: Parameters<typeof cvvLengthFor>[0] = null) {
  const length = cvvLengthFor(brand);
  return required().regex(new RegExp(`^\\d{${brand ? length : "3,4"}}$`), { error: "br.errors.cvvInvalid" });
}

export const zPixKeyType = z.enum(PIX_KEY_TYPES, { error: "br.errors.pixKeyTypeInvalid" });

/** A Pix key of a known type → its canonical form (unmasked document, E.164 phone, lower-case email/EVP). */
export function zPixKey(type: PixKeyType) {
  return z.string({ error: "br.errors.pixKeyRequired" }).transform((value, ctx) => {
    const result = validatePixKey(type, value);
    if (!result.ok) {
      ctx.addIssue({ code: "custom", message: result.error });
      return z.NEVER;
    }
    return result.key;
  });
}

/** `{ type, key }` with the key validated against the chosen type; errors land on `key`. */
export const zPixKeyEntry = z
  .object({ type: zPixKeyType, key: z.string({ error: "br.errors.pixKeyRequired" }) })
  .transform((entry, ctx) => {
    const result = validatePixKey(entry.type, entry.key);
    if (!result.ok) {
      ctx.addIssue({ code: "custom", message: result.error, path: ["key"] });
      return z.NEVER;
    }
    return { type: entry.type, key: result.key };
  });
