import { formatCnpj, isValidCnpj, normalizeCnpj } from "./cnpj";
import { formatCpf, isValidCpf } from "./cpf";

export type DocumentKind = "cpf" | "cnpj";

/** Strips the mask: digits for a CPF, upper-case alphanumerics for a CNPJ. */
export function normalizeDocument(value: string): string {
  return normalizeCnpj(value.trim());
}

/** Which document a *valid* value is; null when it is neither a valid CPF nor CNPJ. */
export function documentKind(value: string): DocumentKind | null {
  if (typeof value !== "string") return null;
  if (isValidCpf(value)) return "cpf";
  if (isValidCnpj(value)) return "cnpj";
  return null;
}

export function isValidDocument(value: string): boolean {
  return documentKind(value) !== null;
}

/** Masks a valid CPF/CNPJ; returns other input trimmed, unchanged. */
export function formatDocument(value: string): string {
  const kind = documentKind(value);
  if (kind === "cpf") return formatCpf(value);
  if (kind === "cnpj") return formatCnpj(value);
  return value.trim();
}
