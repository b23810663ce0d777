import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { encodeBase32UpperCaseNoPadding } from "@oslojs/encoding";
import { createTOTPKeyURI, generateHOTP } from "@oslojs/otp";

/** RFC 6238 defaults that every authenticator app understands. */
export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
const ISSUER = "Console de Pagamentos";
/** One step either side: a phone clock a little off still works. */
const DRIFT_STEPS = 1;

export function newTotpKey(): Uint8Array {
  return new Uint8Array(randomBytes(20));
}

export function totpKeyUri(accountName: string, key: Uint8Array): string {
  return createTOTPKeyURI(ISSUER, accountName, key, TOTP_PERIOD_S, TOTP_DIGITS);
}

/** The key as people type it into an app: base32 in groups of four. */
export function totpKeyText(key: Uint8Array): string {
  return encodeBase32UpperCaseNoPadding(key)
    .match(/.{1,4}/g)!
    .join(" ");
}

export function totpStep(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_S);
}

export function totpCodeAt(key: Uint8Array, step: number): string {
  return generateHOTP(key, BigInt(step), TOTP_DIGITS);
}

/**
 * The time step `code` belongs to, or null. Steps at or before `lastUsedStep` are refused, so a
 * code seen over someone's shoulder cannot be used a second time.
 */
export function matchTotp(key: Uint8Array, code: string, now: Date, lastUsedStep: number | null): number | null {
  const digits = code.replace(/\s+/g, "");
  if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(digits)) return null;
  const current = totpStep(now);
  let matched: number | null = null;
  for (let step = current - DRIFT_STEPS; step <= current + DRIFT_STEPS; step++) {
    const expected = Buffer.from(totpCodeAt(key, step));
    if (timingSafeEqual(expected, Buffer.from(digits)) && (lastUsedStep === null || step > lastUsedStep)) matched ??= step;
  }
  return matched;
}

const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** Ten codes of ten characters (about 49 bits each), shown once as "xxxxx-xxxxx". */
export function newRecoveryCodes(count = 10): string[] {
  return Array.from({ length: count }, () => {
    const bytes = randomBytes(10);
    const chars = Array.from(bytes, (b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

export function normaliseRecoveryCode(input: string): string {
  return input.toLowerCase().replace(/[^a-z0-9]/g, "");
}

export function looksLikeRecoveryCode(input: string): boolean {
  return normaliseRecoveryCode(input).length === 10 && /[a-z]/.test(normaliseRecoveryCode(input));
}

/** Recovery codes are random, so a plain digest is enough to keep them unreadable at rest. */
export function hashRecoveryCode(input: string): string {
  return createHash("sha256")
    .update(`recovery:${normaliseRecoveryCode(input)}`)
    .digest("hex");
}
