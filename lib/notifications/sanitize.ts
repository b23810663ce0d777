import type { WebhookSanitized } from "@/lib/db/tables/notifications";
import { isSecretKey, REDACTED } from "@/lib/gateway/notifications";

/**
 * What a delivery with a valid token may hold that Postgres cannot store as jsonb, made storable:
 * NUL (`\u0000`) and lone UTF-16 surrogates (`\ud800`) in strings and keys, and nesting deeper
 * than MAX_PAYLOAD_DEPTH (every recursive reader, ours, zod's, JSON.stringify, would overflow the
 * stack long before the 256 KB body limit: `[` is one byte a level).
 *
 * Such a delivery is still stored and acknowledged, never answered 5xx (the gateway would retry it
 * for days): `payload` holds a sanitised copy, `sanitized` says what was changed, and `raw_body`
 * keeps the text as received, tokens redacted.
 */

export const MAX_PAYLOAD_DEPTH = 64;
/** What stands in for a subtree nested deeper than MAX_PAYLOAD_DEPTH. */
export const DEPTH_MARKER = `[nested deeper than ${MAX_PAYLOAD_DEPTH} levels: see the raw body]`;
/**
 * NUL and lone surrogates become U+FFFD, the character UTF-8 decoding already puts in place of
 * bytes it cannot read; the raw body keeps what was really sent.
 */
export const REPLACEMENT = "\ufffd";

export type SanitizeReason = "characters" | "depth";

const QUOTE = 34;
const BACKSLASH = 92;

const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/** Whether the four characters at `at` are the hex digits of 0000 or of a surrogate (d800–dfff). */
function suspiciousEscape(text: string, at: number): boolean {
  const a = text.charCodeAt(at);
  const b = text.charCodeAt(at + 1);
  if (a === 48) return b === 48 && text.charCodeAt(at + 2) === 48 && text.charCodeAt(at + 3) === 48;
  // d or D, then 8–9, a–f or A–F
  return (
    (a === 100 || a === 68) && ((b >= 56 && b <= 57) || (b >= 97 && b <= 102) || (b >= 65 && b <= 70)) && isHex(text.charCodeAt(at + 2))
  );
}

/** Whether the quote at `at` is escaped (an odd run of backslashes before it). */
function escapedQuote(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
  return backslashes % 2 === 1;
}

/**
 * A quick look at the raw text (the receiver's hot path: native searches, no copy): false when
 * the parsed value certainly holds no NUL, no lone surrogate and no nesting deeper than the cap.
 * True may be a false alarm (a well-paired surrogate escape, as encoders that escape all non-ASCII
 * write every emoji; an escaped backslash before "u0000"): the sanitiser then changes nothing.
 */
export function mayNeedSanitizing(text: string): boolean {
  // Raw, only a direct caller's string can hold them: the HTTP layer refuses control characters,
  // and text decoded from UTF-8 has no lone surrogate.
  if (text.includes("\u0000") || !text.isWellFormed()) return true;
  for (let at = text.indexOf("\\u"); at !== -1; at = text.indexOf("\\u", at + 2)) {
    if (suspiciousEscape(text, at + 2)) return true;
  }
  // Depth: brackets outside strings; a string is skipped in one search for its closing quote.
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && escapedQuote(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) return false;
      i = end;
    } else if (c === 123 || c === 91) {
      if (++depth > MAX_PAYLOAD_DEPTH) return true;
    } else if (c === 125 || c === 93) {
      depth--;
    }
  }
  return false;
}

function cleanString(text: string, reasons: Set<SanitizeReason>): string {
  if (text.isWellFormed() && !text.includes("\u0000")) return text;
  reasons.add("characters");
  return text.toWellFormed().replaceAll("\u0000", REPLACEMENT);
}

type Container = unknown[] | Record<string, unknown>;
type Frame = { source: Container; target: Container; keys: string[] | null; index: number; depth: number };

function setMember(target: Container, key: string | number, value: unknown): void {
  if (Array.isArray(target)) target.push(value);
  // JSON.parse makes "__proto__" an own member; a plain assignment would set the prototype instead.
  else if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key as string] = value;
}

/**
 * A copy of a parsed JSON value that jsonb accepts, with what was changed. Iterative: a body
 * nested 100,000 deep (JSON.parse handles it) must not overflow the stack here. Two keys that
 * differ only by a replaced character become one (the later wins; the raw body keeps both).
 */
export function sanitizeJson(value: unknown): { value: unknown; reasons: Set<SanitizeReason> } {
  const reasons = new Set<SanitizeReason>();
  const stack: Frame[] = [];
  const enter = (item: unknown, depth: number): unknown => {
    if (typeof item === "string") return cleanString(item, reasons);
    if (typeof item !== "object" || item === null) return item;
    if (depth > MAX_PAYLOAD_DEPTH) {
      reasons.add("depth");
      return DEPTH_MARKER;
    }
    const source = item as Container;
    const target: Container = Array.isArray(source) ? [] : {};
    stack.push({ source, target, keys: Array.isArray(source) ? null : Object.keys(source), index: 0, depth });
    return target;
  };
  const root = enter(value, 1);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    const count = frame.keys ? frame.keys.length : (frame.source as unknown[]).length;
    if (frame.index >= count) {
      stack.pop();
      continue;
    }
    const i = frame.index++;
    if (frame.keys) {
      const key = frame.keys[i];
      setMember(frame.target, cleanString(key, reasons), enter((frame.source as Record<string, unknown>)[key], frame.depth + 1));
    } else {
      setMember(frame.target, i, enter((frame.source as unknown[])[i], frame.depth + 1));
    }
  }
  return { value: root, reasons };
}

export function sanitizedFlag(reasons: Set<SanitizeReason>): WebhookSanitized | null {
  if (reasons.has("characters")) return reasons.has("depth") ? "characters,depth" : "characters";
  return reasons.has("depth") ? "depth" : null;
}

// ---------------------------------------------------------------------------
// The raw text, kept for a sanitised delivery: the values of `token` and `webhookToken` members
// (at any depth, as redactPayload does) replaced by "[redacted]", everything else byte for byte.
// ---------------------------------------------------------------------------

const REDACTED_JSON = JSON.stringify(REDACTED);

/** The index just past the string that opens at `at`. */
function stringEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  return text.length;
}

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

function skipSpace(text: string, at: number): number {
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  return at;
}

/** The index just past the JSON value that starts at `at` (iterative for containers). */
function valueEnd(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) return stringEnd(text, at);
  if (first === 123 || first === 91) {
    let depth = 0;
    for (let i = at; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) i = stringEnd(text, i) - 1;
      else if (c === 123 || c === 91) depth++;
      else if ((c === 125 || c === 93) && --depth === 0) return i + 1;
    }
    return text.length;
  }
  let i = at;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 44 || c === 125 || c === 93 || isSpace(c)) break;
    i++;
  }
  return i;
}

/** For text JSON.parse accepted: a string followed by a colon is a member's key. */
export function redactRawBody(text: string): string {
  let out = "";
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    if (text.charCodeAt(i) !== QUOTE) {
      i++;
      continue;
    }
    const start = i;
    i = stringEnd(text, i);
    const colon = skipSpace(text, i);
    if (text.charCodeAt(colon) !== 58) continue;
    // "token" takes at most 6 characters a letter when escaped (\u0074…).
    if (i - start > 80 || !isSecretKey(JSON.parse(text.slice(start, i)) as string)) continue;
    const value = skipSpace(text, colon + 1);
    const end = valueEnd(text, value);
    out += text.slice(copied, value) + REDACTED_JSON;
    copied = end;
    i = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
