import { isValidCnpj, normalizeCnpj } from "./cnpj";
import { isValidCpf } from "./cpf";
import { onlyDigits } from "./digits";
import { toE164Phone } from "./phone";

export const PIX_KEY_TYPES = ["cpf", "cnpj", "email", "phone", "random"] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];

export type PixKeyResult = { ok: true; key: string } | { ok: false; error: PixKeyError };
export type PixKeyError =
  | "br.errors.pixKeyRequired"
  | "br.errors.cpfInvalid"
  | "br.errors.cnpjInvalid"
  | "br.errors.emailInvalid"
  | "br.errors.emailTooLong"
  | "br.errors.phoneInvalid"
  | "br.errors.pixRandomKeyInvalid";

export const PIX_EMAIL_MAX_LENGTH = 77;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isPixKeyType(value: unknown): value is PixKeyType {
  return typeof value === "string" && (PIX_KEY_TYPES as readonly string[]).includes(value);
}

/** Canonical form of a key as the DICT stores it; validation is separate (see validatePixKey). */
export function normalizePixKey(type: PixKeyType | (string & {}), raw: string): string {
  const trimmed = raw.trim();
  switch (type) {
    case "cpf":
      return onlyDigits(trimmed);
    case "cnpj":
      return normalizeCnpj(trimmed);
    case "email":
      return trimmed.toLowerCase();
    case "phone":
      return toE164Phone(trimmed) ?? trimmed;
    case "random":
      return trimmed.toLowerCase();
    default:
      return trimmed;
  }
}

export function validatePixKey(type: PixKeyType | (string & {}), raw: string): PixKeyResult {
  if (typeof raw !== "string" || raw.trim() === "") return { ok: false, error: "br.errors.pixKeyRequired" };
  const trimmed = raw.trim();
  switch (type) {
    case "cpf":
      return isValidCpf(trimmed) ? { ok: true, key: onlyDigits(trimmed) } : { ok: false, error: "br.errors.cpfInvalid" };
    case "cnpj":
      return isValidCnpj(trimmed) ? { ok: true, key: normalizeCnpj(trimmed) } : { ok: false, error: "br.errors.cnpjInvalid" };
    case "email": {
      const email = trimmed.toLowerCase();
      if (!EMAIL_PATTERN.test(email)) return { ok: false, error: "br.errors.emailInvalid" };
      if (email.length > PIX_EMAIL_MAX_LENGTH) return { ok: false, error: "br.errors.emailTooLong" };
      return { ok: true, key: email };
    }
    case "phone": {
      const e164 = toE164Phone(trimmed);
      return e164 ? { ok: true, key: e164 } : { ok: false, error: "br.errors.phoneInvalid" };
    }
    case "random": {
      const uuid = trimmed.toLowerCase();
      return UUID_PATTERN.test(uuid) ? { ok: true, key: uuid } : { ok: false, error: "br.errors.pixRandomKeyInvalid" };
    }
    default:
      return { ok: true, key: trimmed };
  }
}

/** Best guess of a key's type from its shape (for paste-anything inputs); null when unclear. */
export function guessPixKeyType(raw: string): PixKeyType | null {
  const value = raw.trim();
  if (UUID_PATTERN.test(value.toLowerCase())) return "random";
  if (value.includes("@")) return "email";
  if (value.startsWith("+")) return "phone";
  if (isValidCpf(value)) return "cpf";
  if (isValidCnpj(value)) return "cnpj";
  if (toE164Phone(value)) return "phone";
  return null;
}
