import { percentOf } from "../lib/money";

/**
 * The sandbox's fee rules (its own choice; the interface does not define fees).
 * All results are centavos.
 */
export const FEE_RULES = {
  PIX: { percent: 0.99, fixedCents: 0 },
  CREDIT_CARD: { percent: 3.99, fixedCents: 39, perExtraInstallmentPercent: 1.5 },
  BOLETO: { percent: 0, fixedCents: 349 },
  CRYPTO: { percent: 1.5, fixedCents: 0 },
  WITHDRAW: { percent: 0, fixedCents: 100 },
} as const;

export type FeeMethod = "PIX" | "CREDIT_CARD" | "BOLETO" | "CRYPTO";

export function chargeFeeCents(method: FeeMethod, amountCents: number, installments = 1): number {
  const rule = FEE_RULES[method];
  let percent: number = rule.percent;
  if (method === "CREDIT_CARD" && installments > 1) {
    percent += FEE_RULES.CREDIT_CARD.perExtraInstallmentPercent * (installments - 1);
  }
  return Math.min(amountCents, percentOf(amountCents, percent) + rule.fixedCents);
}

export function withdrawFeeCents(): number {
  return FEE_RULES.WITHDRAW.fixedCents;
}
