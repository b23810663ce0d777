/**
 * The single error type of the gateway client.
 *
 * `outcomeUnknown` is the flag the console's ledger acts on: when true, the operation may exist
 * at the gateway, so the local record becomes UNKNOWN and is reconciled by looking the
 * identifier up before anything is sent again. An answer we did not get is never "failed".
 * It is true when a POST was (or may have been) delivered and no clear refusal came back:
 *   - timeout, reset or dropped connection after the request may have left  -> true
 *   - a 5xx, a redirect, 408/409/425, or a 4xx whose body cannot be read   -> true
 *     (a gateway may fail after creating the charge; a proxy's page says nothing about it)
 *   - a complete 2xx answer that is not valid JSON / not the documented shape -> true
 *   - a clear 4xx refusal (readable error body; or 401/403/429)             -> false
 *   - the connection was refused / the host did not resolve -> false (nothing was sent)
 *   - anything on a GET (lookups create nothing) and invalid requests (never sent) -> false
 */

export const GATEWAY_ERROR_KINDS = [
  "invalid_request",
  "validation",
  "auth",
  "forbidden",
  "not_found",
  "conflict",
  "rate_limited",
  "server",
  "http",
  "timeout",
  "network",
  "malformed",
] as const;

export type GatewayErrorKind = (typeof GATEWAY_ERROR_KINDS)[number];

/** A schema problem, reduced to path + message (never the offending value, which may be a card number). */
export type GatewayIssue = { path: string; message: string };

export type GatewayErrorInit = {
  kind: GatewayErrorKind;
  message: string;
  method?: string;
  path?: string;
  status?: number;
  errorCode?: string;
  gatewayMessage?: string;
  retryAfterMs?: number;
  outcomeUnknown?: boolean;
  issues?: GatewayIssue[];
  attempts?: number;
  cause?: unknown;
};

export class GatewayError extends Error {
  readonly kind: GatewayErrorKind;
  readonly method?: string;
  readonly path?: string;
  readonly status?: number;
  readonly errorCode?: string;
  /** The gateway's own `message`, kept verbatim. */
  readonly gatewayMessage?: string;
  readonly retryAfterMs?: number;
  readonly outcomeUnknown: boolean;
  readonly issues?: GatewayIssue[];
  /** HTTP attempts made (0 for invalid_request); set by the client once retries are over. */
  attempts?: number;

  constructor(init: GatewayErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "GatewayError";
    this.kind = init.kind;
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.errorCode = init.errorCode;
    this.gatewayMessage = init.gatewayMessage;
    this.retryAfterMs = init.retryAfterMs;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    this.issues = init.issues;
    this.attempts = init.attempts;
  }

  /** Safe to log or return to a caller: holds no key, token, card data or request body. */
  toJSON() {
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      method: this.method,
      path: this.path,
      status: this.status,
      errorCode: this.errorCode,
      gatewayMessage: this.gatewayMessage,
      retryAfterMs: this.retryAfterMs,
      outcomeUnknown: this.outcomeUnknown,
      issues: this.issues,
      attempts: this.attempts,
    };
  }
}

export function isGatewayError(value: unknown): value is GatewayError {
  return value instanceof GatewayError;
}

/**
 * Status → kind. 422 is "conflict" because the interface uses it for "a refund request already
 * exists" (GATEWAY_INVALID_ARGUMENT); 409, 413 and the other unlisted statuses are "http".
 */
export function kindForStatus(status: number): GatewayErrorKind {
  if (status === 400) return "validation";
  if (status === 401) return "auth";
  if (status === 403) return "forbidden";
  if (status === 404) return "not_found";
  if (status === 422) return "conflict";
  if (status === 429) return "rate_limited";
  if (status >= 500 && status <= 599) return "server";
  return "http";
}

/** `Retry-After` as delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, now: number = Date.now()): number | undefined {
  if (header === null || header === undefined) return undefined;
  const value = header.trim();
  if (value === "") return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  if (/^\d+\.\d+$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * The family's 400 answers name fields as `path: message; path: message`. Those the form has
 * (`formPath` maps a gateway path to the form's own, or null) go next to their fields.
 */
export function fieldErrorsFromGatewayMessage(
  message: string | undefined,
  formPath: (gatewayPath: string) => string | null,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of (message ?? "").split(/;\s*/)) {
    const match = /^([A-Za-z_][\w]*(?:\.[\w]+)*):\s*(.+)$/.exec(part.trim());
    if (!match) continue;
    const field = formPath(match[1]);
    if (field) (out[field] ??= []).push(match[2]);
  }
  return out;
}
