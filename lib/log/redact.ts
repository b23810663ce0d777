/**
 * `redact`, which every log line goes through: secrets, key headers, card numbers and CVVs
 * masked in any value.
 *
 * No `server-only`: the webhook route, the sandbox and scripts use it too; nothing here holds a key.
 */

const REDACTED = "[REDACTED]";

/** Keys whose values are secrets wherever they appear (compared case-insensitively). */
const SECRET_KEYS = new Set(
  [
    "x-secret-key",
    "secretKey",
    "secret",
    "token",
    "webhookToken",
    "password",
    "authorization",
    "cookie",
    "set-cookie",
    "apiKey",
    "privateKey",
    "accessToken",
    "refreshToken",
  ].map((k) => k.toLowerCase()),
);
/** Keys shown as their last 4 characters only. */
const PARTIAL_KEYS = new Set(["x-public-key", "publicKey"].map((k) => k.toLowerCase()));
/** Keys removed entirely. */
const DROPPED_KEYS = new Set(["cvv", "cvc", "cvv2", "securityCode"].map((k) => k.toLowerCase()));
/** Keys that hold a card number anywhere. */
const CARD_NUMBER_KEYS = new Set(["cardNumber", "pan"].map((k) => k.toLowerCase()));

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** BIN + last 4 at most; the BIN only when at least 4 digits stay hidden. */
export function maskCardNumber(raw: string): string {
  const digits = raw.replace(/\D/g, "");
  if (digits.length < 8) return "*".repeat(digits.length);
  const last4 = digits.slice(-4);
  const showBin = digits.length >= 14;
  const head = showBin ? digits.slice(0, 6) : "";
  return head + "*".repeat(digits.length - head.length - 4) + last4;
}

function lastFour(value: string): string {
  return value.length <= 4 ? "*".repeat(value.length) : `****${value.slice(-4)}`;
}

// Runs of 13–19 digits, optionally grouped by single spaces or dashes, not touching other digits.
const DIGIT_RUN = /(?<![\d])\d(?:[ -]?\d){12,18}(?![ -]?\d)/g;

function maskCardNumbersInText(text: string): string {
  return text.replace(DIGIT_RUN, (run) => {
    const digits = run.replace(/[ -]/g, "");
    if (digits.length < 13 || digits.length > 19 || !luhnValid(digits)) return run;
    return maskCardNumber(digits);
  });
}

export type RedactOptions = {
  /** Literal values (e.g. the configured secret key) to scrub from every string. */
  secrets?: readonly string[];
};

// `cvv: 123`, `"cvv":"123"`, `cvc=1234` inside free text (e.g. a request echoed in an error message).
const CVV_IN_TEXT = /((?:cvv2?|cvc|securityCode)\\?["']?\s*[:=]\s*\\?["']?)\d{3,4}/gi;

function scrubString(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  out = out.replace(CVV_IN_TEXT, "$1***");
  return maskCardNumbersInText(out);
}

/**
 * Deep-clones `value` with secrets masked: key headers, token/secret/password fields, card
 * numbers (BIN + last 4), CVVs (removed), configured secret strings, and any Luhn-valid 13–19
 * digit run inside strings. Cycles become "[Circular]".
 */
export function redact<T>(value: T, options: RedactOptions = {}): T {
  const secrets = (options.secrets ?? []).filter((s) => typeof s === "string" && s.length > 0);
  const seen = new WeakSet<object>();

  const walk = (input: unknown, parentKey: string | undefined): unknown => {
    if (typeof input === "string") return scrubString(input, secrets);
    if (typeof input === "number") {
      if (Number.isSafeInteger(input) && input > 0) {
        const text = String(input);
        if (text.length >= 13 && luhnValid(text)) return maskCardNumber(text);
      }
      return input;
    }
    if (typeof input === "bigint") return scrubString(input.toString(), secrets);
    if (input === null || typeof input !== "object") return input;
    if (seen.has(input)) return "[Circular]";
    seen.add(input);

    if (input instanceof Error) {
      const out: Record<string, unknown> = { name: input.name, message: walk(input.message, undefined) };
      for (const [k, v] of Object.entries(input)) out[k] = walkEntry(k, v, parentKey);
      if ("cause" in input && input.cause !== undefined) out.cause = walk(input.cause, undefined);
      return out;
    }
    if (typeof Headers !== "undefined" && input instanceof Headers) {
      const out: Record<string, unknown> = {};
      input.forEach((v, k) => {
        out[k] = walkEntry(k, v, undefined);
      });
      return out;
    }
    if (input instanceof Date) return new Date(input.getTime());
    if (Array.isArray(input)) return input.map((item) => walk(item, parentKey));
    if (input instanceof Map) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of input) out[String(k)] = walkEntry(String(k), v, parentKey);
      return out;
    }

    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(input as Record<string, unknown>)) {
      if (DROPPED_KEYS.has(k.toLowerCase())) continue;
      out[k] = walkEntry(k, v, parentKey);
    }
    return out;
  };

  const walkEntry = (key: string, value: unknown, parentKey: string | undefined): unknown => {
    const lower = key.toLowerCase();
    if (SECRET_KEYS.has(lower)) return value === undefined || value === null ? value : REDACTED;
    if (PARTIAL_KEYS.has(lower)) return typeof value === "string" ? lastFour(value) : REDACTED;
    if (CARD_NUMBER_KEYS.has(lower) || (lower === "number" && parentKey === "card")) {
      return typeof value === "string" || typeof value === "number" ? maskCardNumber(String(value)) : REDACTED;
    }
    return walk(value, lower);
  };

  return walk(value, undefined) as T;
}
