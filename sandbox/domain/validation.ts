import { isValidDocument } from "../../lib/br/document";
import { hasAtMostTwoDecimals } from "../../lib/br/money";
import { badRequest } from "../lib/errors";
import { toCents } from "../lib/money";

/** Sandbox amount ceiling (the interface states none). */
export const MAX_AMOUNT_BRL = 1_000_000;

export function amountCents(amount: number, field = "amount"): number {
  if (!hasAtMostTwoDecimals(amount)) throw badRequest(`${field}: use no máximo duas casas decimais`);
  if (amount > MAX_AMOUNT_BRL) throw badRequest(`${field}: o sandbox aceita no máximo ${MAX_AMOUNT_BRL}`);
  return toCents(amount);
}

const BRAZIL = new Set(["BR", "BRA", "BRASIL", "BRAZIL"]);

/** A Brazilian buyer's document is a CPF or CNPJ; a foreign buyer (who names another country) has their own. */
export function checkClientDocument(client: { document: string; country?: string; address?: unknown }, field = "client.document"): void {
  const addressCountry =
    client.address && typeof client.address === "object" ? (client.address as { country?: unknown }).country : undefined;
  const country = String(client.country ?? addressCountry ?? "BR")
    .trim()
    .toUpperCase();
  if (!BRAZIL.has(country)) return;
  if (!isValidDocument(client.document)) throw badRequest(`${field}: CPF ou CNPJ inválido`);
}

/** The splits' total in centavos, refused when above the amount. */
export function checkSplits(splits: Array<{ amount?: unknown }> | undefined, totalCents: number): number {
  if (!splits?.length) return 0;
  const sum = splits.reduce<number>((acc, s) => acc + (typeof s.amount === "number" ? toCents(s.amount) : 0), 0);
  if (sum > totalCents) throw badRequest("splits: a soma das divisões passa do valor");
  return sum;
}
