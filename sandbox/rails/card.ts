import { cardBin, cardBrand, cardLast4, isExpiryNotPast, luhnValid } from "../../lib/br/card";
import type { StoredCard } from "../db/schema";

/** Test cards with a fixed outcome; any other Luhn-valid number approves. */
export const TEST_CARDS = {
  "4111111111111111": { outcome: "approve" },
  "4242424242424242": { outcome: "approve" },
  "4000000000009995": { outcome: "insufficient_funds" },
  "4000000000000002": { outcome: "declined" },
} as const;

export type CardOutcome = "approve" | "insufficient_funds" | "declined" | "expired";

export const DECLINE_MESSAGES: Record<Exclude<CardOutcome, "approve">, string> = {
  insufficient_funds: "Cartão recusado: saldo insuficiente",
  declined: "Cartão recusado",
  expired: "Cartão expirado",
};

/**
 * Decides the outcome of a card authorisation and returns what may be kept of the card.
 * The number and CVV never leave this function.
 */
export function authorizeCard(
  card: { number: string; owner: string; expiresAt: string },
  now = new Date(),
): { ok: false; message: string } | { ok: true; outcome: CardOutcome; stored: StoredCard } {
  const number = card.number;
  if (!luhnValid(number)) return { ok: false, message: "card.number: número de cartão inválido (dígito verificador)" };
  const stored: StoredCard = {
    brand: cardBrand(number) ?? "unknown",
    last4: cardLast4(number),
    bin: cardBin(number),
    owner: card.owner,
  };
  const fixed = (TEST_CARDS as Record<string, { outcome: CardOutcome }>)[number];
  let outcome: CardOutcome = fixed ? fixed.outcome : "approve";
  if (outcome === "approve" && !isExpiryNotPast(card.expiresAt, now)) outcome = "expired";
  return { ok: true, outcome, stored };
}
