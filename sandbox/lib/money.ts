import { fromCents, toCents } from "../../lib/br/money";

export { fromCents, toCents };

/** Percentage fee in centavos, rounded half up. */
export function percentOf(cents: number, percent: number): number {
  return Math.round((cents * percent) / 100);
}
