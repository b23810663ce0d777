import "server-only";

import type { z } from "zod";
import { GatewayError, kindForStatus, parseRetryAfter, type GatewayIssue } from "./errors";
import { redact } from "@/lib/log/redact";
import { consoleLogger, redactingLogger, type GatewayLogger } from "./log";
import { LookupPausedError, type LookupLimiter, type LookupPermit } from "./lookup-limiter";
import { ENDPOINTS, transactionQuerySchema, type ProducerRecord, type TransactionQuery, type TransactionRecord } from "./schemas";

type PostEndpointName = {
  [K in keyof typeof ENDPOINTS]: (typeof ENDPOINTS)[K] extends { method: "POST" } ? K : never;
}[keyof typeof ENDPOINTS];

export type RetryOptions = {
  /** Total attempts for GET lookups, first one included. POSTs always make exactly one. */
  maxAttempts: number;
  /** First backoff step; doubles each retry. */
  baseDelayMs: number;
  /** Cap of one exponential backoff step. */
  maxDelayMs: number;
  /** Longest Retry-After honoured; a longer one ends the retries (the error carries retryAfterMs). */
  maxRetryAfterMs: number;
  /** Random source in [0, 1) for jitter (injectable for tests). */
  random: () => number;
};

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  maxRetryAfterMs: 10_000,
  random: Math.random,
};

export type GatewayClientOptions = {
  /** Gateway base URL; endpoint paths (`/api/v1/gateway/...`) are appended to it. */
  baseUrl: string;
  publicKey: string;
  secretKey: string;
  /** Per-attempt timeout; default 15 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  logger?: GatewayLogger;
  retry?: Partial<RetryOptions>;
  /**
   * Transaction lookups take a permit from it before each attempt (a ceiling per second, order,
   * AIMD on the lookups in flight, a pause after a 429): lib/gateway/lookup-limiter.ts.
   */
  lookupLimiter?: LookupLimiter;
};

export type CallOptions = {
  /** Overrides the client's timeout for this call (per attempt). */
  timeoutMs?: number;
  /** Caller cancellation; an aborted POST is treated like a dropped connection. */
  signal?: AbortSignal;
};

// Errors raised before any byte can have reached the gateway.
const NOT_SENT_ERROR_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
  "ERR_INVALID_URL",
]);

function errorCodeOf(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current === "object" && current !== null) {
      const code = (current as { code?: unknown }).code;
      if (typeof code === "string") return code;
      current = (current as { cause?: unknown }).cause;
    } else break;
  }
  return undefined;
}

function issuesOf(error: z.ZodError): GatewayIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.message,
  }));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

type ParsedErrorBody = { readable: boolean; errorCode?: string; gatewayMessage?: string };

function readErrorBody(text: string): ParsedErrorBody {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { readable: false };
  }
  if (typeof body !== "object" || body === null) return { readable: false };
  const { errorCode, message } = body as { errorCode?: unknown; message?: unknown };
  return {
    readable: true,
    errorCode: typeof errorCode === "string" ? errorCode : undefined,
    gatewayMessage:
      typeof message === "string"
        ? message
        : Array.isArray(message) && message.every((m) => typeof m === "string")
          ? message.join("; ")
          : undefined,
  };
}

/** Refusals that cannot be read otherwise, even without a readable body: the request was not processed. */
const REFUSED_WHATEVER_THE_BODY = new Set([401, 403, 429]);
/** 4xx that may mean "it already exists" or "I gave up waiting": the operation may well have been created. */
const FOUR_XX_MAYBE_CREATED = new Set([408, 409, 425]);

/**
 * Whether a non-2xx answer to a POST proves that nothing was created. Only a clear 4xx does: a
 * 5xx, a redirect or an unreadable body (a proxy's HTML page) may follow a creation, so the
 * outcome stays unknown and is settled by looking the identifier up.
 */
export function isClearRefusal(status: number, readableBody: boolean): boolean {
  if (status < 400 || status > 499 || FOUR_XX_MAYBE_CREATED.has(status)) return false;
  return readableBody || REFUSED_WHATEVER_THE_BODY.has(status);
}

type Endpoint = { method: "GET" | "POST"; path: string };

/** 429s a limited lookup waits out in line before the error goes to its caller (who reschedules it). */
const MAX_RATE_LIMITED_WAITS = 5;

type Attempt<T> = { ok: true; value: T; status: number } | { ok: false; error: GatewayError };

export function createGatewayClient(options: GatewayClientOptions) {
  if (!options.baseUrl) throw new TypeError("createGatewayClient: baseUrl is required");
  if (!options.publicKey || !options.secretKey) throw new TypeError("createGatewayClient: publicKey and secretKey are required");

  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    throw new TypeError("createGatewayClient: baseUrl must be an absolute http(s) URL");
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const defaultTimeoutMs = options.timeoutMs ?? 15_000;
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...options.retry };
  const logger = redactingLogger(options.logger ?? consoleLogger, {
    secrets: [options.secretKey],
  });

  const headers = (withBody: boolean): Record<string, string> => ({
    Accept: "application/json",
    "x-public-key": options.publicKey,
    "x-secret-key": options.secretKey,
    ...(withBody ? { "Content-Type": "application/json" } : {}),
  });

  async function attempt<S extends z.ZodType>(
    endpoint: Endpoint,
    url: string,
    body: string | undefined,
    responseSchema: S,
    call: CallOptions,
  ): Promise<Attempt<z.output<S>>> {
    const isPost = endpoint.method === "POST";
    const timeoutMs = call.timeoutMs ?? defaultTimeoutMs;
    const timeoutSignal = AbortSignal.timeout(timeoutMs);
    const signal = call.signal ? AbortSignal.any([timeoutSignal, call.signal]) : timeoutSignal;
    const base = { method: endpoint.method, path: endpoint.path };
    if (call.signal?.aborted) {
      return { ok: false, error: new GatewayError({ ...base, kind: "network", message: "Gateway call aborted before sending" }) };
    }

    const transportError = (error: unknown, sent: boolean): GatewayError => {
      const code = errorCodeOf(error);
      const mayHaveBeenSent = sent || !(code !== undefined && NOT_SENT_ERROR_CODES.has(code));
      if (timeoutSignal.aborted) {
        return new GatewayError({
          ...base,
          kind: "timeout",
          message: `Gateway did not answer within ${timeoutMs} ms`,
          outcomeUnknown: isPost && mayHaveBeenSent,
          cause: error,
        });
      }
      const aborted = call.signal?.aborted === true;
      return new GatewayError({
        ...base,
        kind: "network",
        message: aborted ? "Gateway call aborted" : `Gateway connection failed${code ? ` (${code})` : ""}`,
        outcomeUnknown: isPost && mayHaveBeenSent,
        cause: error,
      });
    };

    let response: Response;
    try {
      response = await fetchImpl(url, {
        method: endpoint.method,
        headers: headers(body !== undefined),
        body,
        signal,
        // Never follow a redirect: it would resend the key pair, possibly to another host.
        redirect: "manual",
      });
    } catch (error) {
      return { ok: false, error: transportError(error, false) };
    }

    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      return { ok: false, error: transportError(error, true) };
    }

    const status = response.status;
    if (status < 200 || status > 299) {
      const { errorCode, gatewayMessage: rawMessage, readable } = readErrorBody(text);
      // Kept verbatim except for echoed secrets / card numbers, so the error is always safe to log.
      const gatewayMessage = rawMessage === undefined ? undefined : redact(rawMessage, { secrets: [options.secretKey] });
      return {
        ok: false,
        error: new GatewayError({
          ...base,
          kind: kindForStatus(status),
          status,
          errorCode,
          gatewayMessage,
          retryAfterMs: parseRetryAfter(response.headers.get("retry-after")),
          message: `Gateway answered ${status}${errorCode ? ` ${errorCode}` : ""}${gatewayMessage ? `: ${gatewayMessage}` : ""}`,
          outcomeUnknown: isPost && !isClearRefusal(status, readable),
        }),
      };
    }

    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      return {
        ok: false,
        error: new GatewayError({
          ...base,
          kind: "malformed",
          status,
          message: `Gateway answered ${status} with a body that is not JSON`,
          outcomeUnknown: isPost,
          cause: error,
        }),
      };
    }
    const parsed = responseSchema.safeParse(json);
    if (!parsed.success) {
      return {
        ok: false,
        error: new GatewayError({
          ...base,
          kind: "malformed",
          status,
          message: `Gateway answered ${status} with an unexpected body`,
          issues: issuesOf(parsed.error),
          outcomeUnknown: isPost,
        }),
      };
    }
    return { ok: true, value: parsed.data, status };
  }

  function backoffDelay(error: GatewayError, retryNumber: number): number | undefined {
    if (error.kind === "rate_limited" && error.retryAfterMs !== undefined) {
      return error.retryAfterMs <= retry.maxRetryAfterMs ? error.retryAfterMs : undefined;
    }
    const step = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (retryNumber - 1));
    // "Equal jitter": at least half the step, so retries never bunch up at zero.
    return step / 2 + retry.random() * (step / 2);
  }

  // Timeouts are not retried: the caller's time budget is already spent.
  const isRetryable = (error: GatewayError) => error.kind === "rate_limited" || error.kind === "server" || error.kind === "network";

  /** One attempt through the lookup limiter: its turn first, then the call; the answer goes back to the limiter. */
  async function limitedAttempt<S extends z.ZodType>(
    limiter: LookupLimiter,
    ticket: number,
    endpoint: Endpoint,
    url: string,
    responseSchema: S,
    call: CallOptions,
  ): Promise<Attempt<z.output<S>>> {
    let permit: LookupPermit;
    const base = { method: endpoint.method, path: endpoint.path };
    try {
      permit = await limiter.acquire({ ticket, signal: call.signal, maxPauseMs: retry.maxRetryAfterMs });
    } catch (error) {
      if (error instanceof LookupPausedError) {
        // The gateway's last 429 asked for a longer wait than a call makes: not sent, come back then.
        const message = `Gateway lookups paused by a 429 for ${Math.ceil(error.retryAfterMs / 1000)} s more`;
        return { ok: false, error: new GatewayError({ ...base, kind: "rate_limited", retryAfterMs: error.retryAfterMs, message }) };
      }
      const message = "Gateway lookup cancelled while waiting for its turn";
      return { ok: false, error: new GatewayError({ ...base, kind: "network", message }) };
    }
    const result = await attempt(endpoint, url, undefined, responseSchema, call);
    if (result.ok) permit.release("ok");
    else if (result.error.kind === "rate_limited") permit.release("rate_limited", result.error.retryAfterMs);
    else permit.release("other");
    return result;
  }

  async function execute<S extends z.ZodType>(
    endpoint: Endpoint,
    url: string,
    body: string | undefined,
    responseSchema: S,
    call: CallOptions,
    limiter?: LookupLimiter,
  ): Promise<z.output<S>> {
    const started = performance.now();
    const maxAttempts = endpoint.method === "GET" ? Math.max(1, retry.maxAttempts) : 1;
    // A retry keeps the first attempt's place in the limiter's line.
    const ticket = limiter?.takeTicket() ?? 0;
    let attempts = 0;
    // Through the limiter, a short 429 is "not answered yet": it waits its turn again without
    // spending one of the attempts, a few times, so one busy second does not cost the payment its place.
    let rateLimitedWaits = 0;
    let result: Attempt<z.output<S>>;
    for (;;) {
      attempts++;
      result = limiter
        ? await limitedAttempt(limiter, ticket, endpoint, url, responseSchema, call)
        : await attempt(endpoint, url, body, responseSchema, call);
      if (result.ok || !isRetryable(result.error) || call.signal?.aborted) break;
      const waitsInLine = limiter !== undefined && result.error.kind === "rate_limited" && rateLimitedWaits < MAX_RATE_LIMITED_WAITS;
      if (waitsInLine) rateLimitedWaits++;
      if (attempts - rateLimitedWaits >= maxAttempts) break;
      const delay = backoffDelay(result.error, attempts);
      if (delay === undefined) break;
      // The limiter holds every lookup of the process until Retry-After: waiting in its line keeps the place.
      if (!(limiter && result.error.kind === "rate_limited")) await sleep(delay);
    }

    const durationMs = Math.round(performance.now() - started);
    if (result.ok) {
      logger.log("info", "gateway call", {
        method: endpoint.method,
        path: endpoint.path,
        status: result.status,
        durationMs,
        attempts,
      });
      return result.value;
    }
    const error = result.error;
    error.attempts = attempts;
    logger.log(error.kind === "server" || error.outcomeUnknown ? "error" : "warn", "gateway call failed", {
      method: endpoint.method,
      path: endpoint.path,
      status: error.status,
      durationMs,
      attempts,
      errorKind: error.kind,
      errorCode: error.errorCode,
      outcomeUnknown: error.outcomeUnknown,
    });
    throw error;
  }

  function invalidRequest(endpoint: Endpoint, error: z.ZodError): GatewayError {
    const issues = issuesOf(error);
    const error_ = new GatewayError({
      method: endpoint.method,
      path: endpoint.path,
      kind: "invalid_request",
      message: `Invalid request: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ")}`,
      issues,
      outcomeUnknown: false,
      attempts: 0,
    });
    logger.log("warn", "gateway call rejected before sending", {
      method: endpoint.method,
      path: endpoint.path,
      durationMs: 0,
      errorKind: error_.kind,
      issues,
    });
    return error_;
  }

  async function post<R extends z.ZodType>(
    endpoint: Endpoint & { request: z.ZodType; response: R },
    input: unknown,
    call: CallOptions = {},
  ): Promise<z.output<R>> {
    const parsed = endpoint.request.safeParse(input);
    if (!parsed.success) throw invalidRequest(endpoint, parsed.error);
    return execute(endpoint, baseUrl + endpoint.path, JSON.stringify(parsed.data), endpoint.response, call);
  }

  /** The typed call of one POST endpoint: its request in, its answer out, both from the endpoints table. */
  function poster<K extends PostEndpointName>(name: K) {
    type Definition = (typeof ENDPOINTS)[K];
    return (body: z.input<Definition["request"]>, call?: CallOptions) =>
      post(ENDPOINTS[name], body, call) as Promise<z.output<Definition["response"]>>;
  }

  async function getTransaction(query: TransactionQuery, call: CallOptions = {}): Promise<TransactionRecord> {
    const endpoint = ENDPOINTS.getTransaction;
    const parsed = transactionQuerySchema.safeParse(query);
    if (!parsed.success) throw invalidRequest(endpoint, parsed.error);
    const params = new URLSearchParams();
    if (parsed.data.id !== undefined) params.set("id", parsed.data.id);
    if (parsed.data.clientIdentifier !== undefined) params.set("clientIdentifier", parsed.data.clientIdentifier);
    return execute(endpoint, `${baseUrl}${endpoint.path}?${params}`, undefined, endpoint.response, call, options.lookupLimiter);
  }

  return {
    createPixCharge: poster("createPixCharge"),
    createCardCharge: poster("createCardCharge"),
    createBoletoCharge: poster("createBoletoCharge"),
    createCryptoCharge: poster("createCryptoCharge"),
    createPixDeposit: poster("createPixDeposit"),
    createPixSubscription: poster("createPixSubscription"),
    createCardSubscription: poster("createCardSubscription"),
    createCryptoSubscription: poster("createCryptoSubscription"),
    createTransfer: poster("createTransfer"),
    createCheckout: poster("createCheckout"),
    requestRefund: poster("requestRefund"),
    getTransaction,
    /** Like getTransaction, but `null` when the gateway answers 404 (reconciliation helper). */
    async findTransaction(query: TransactionQuery, call?: CallOptions): Promise<TransactionRecord | null> {
      try {
        return await getTransaction(query, call);
      } catch (error) {
        if (error instanceof GatewayError && error.kind === "not_found") return null;
        throw error;
      }
    },
    getProducer: (call: CallOptions = {}): Promise<ProducerRecord> =>
      execute(ENDPOINTS.getProducer, baseUrl + ENDPOINTS.getProducer.path, undefined, ENDPOINTS.getProducer.response, call),
  };
}

export type GatewayClient = ReturnType<typeof createGatewayClient>;
