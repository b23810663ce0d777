import { isValidDocument } from "../../lib/br/document";
import { hasAtMostTwoDecimals } from "../../lib/br/money";
import { badRequest } from "../lib/errors";
import { toCents } from "../lib/money";

/** Sandbox amount ceiling (the interface states none). */
export const MAX_AMOUNT_BRL = 1_000_000;

export function amountCents(amount: number, field = "amount"): number {
  if (!hasAtMostTwoDecimals(amount)) throw badRequest(`${field}: use at most two decimal places`);
  if (amount > MAX_AMOUNT_BRL) throw badRequest(`${field}: the sandbox accepts at most ${MAX_AMOUNT_BRL}`);
  return toCents(amount);
}

export function checkClientDocument(client: { document: string }, field = "client.document"): void {
  if (!isValidDocument(client.document)) throw badRequest(`${field}: not a valid CPF or CNPJ`);
}

export function checkSplits(splits: Array<{ amount?: unknown }> | undefined, totalCents: number): void {
  if (!splits?.length) return;
  const sum = splits.reduce<number>((acc, s) => acc + (typeof s.amount === "number" ? toCents(s.amount) : 0), 0);
  if (sum > totalCents) throw badRequest("splits: the split amounts add up to more than the amount");
}
