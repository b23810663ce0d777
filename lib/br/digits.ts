/** Removes every character that is not an ASCII digit. */
export function onlyDigits(value: string): string {
  return value.replace(/\D+/g, "");
}

export type Rng = () => number;

export function randomDigit(rng: Rng = Math.random): number {
  return Math.min(9, Math.floor(rng() * 10));
}

/** True when every character is the same: such documents pass the check-digit sums. */
export function isAllSameChar(value: string): boolean {
  return value.length > 0 && value.split("").every((c) => c === value[0]);
}
