/**
 * Tiny typed client for the sandbox control API (`/sandbox/v1`). Used by the console's e2e tests
 * and dev tools; it has no dependencies beyond `fetch`.
 */

export type SandboxTransitionType = "pay" | "fail" | "cancel" | "refund" | "chargeback";
export type SandboxPaymentEvent =
  "TRANSACTION_CREATED" | "TRANSACTION_PAID" | "TRANSACTION_CANCELED" | "TRANSACTION_REFUNDED" | "TRANSACTION_CHARGED_BACK";

export type SandboxFault = {
  status?: 429 | 500 | 502 | 503;
  latencyMs?: number;
  dropConnection?: boolean;
  afterProcessing?: boolean;
  malformedBody?: boolean;
  times: number;
  /** Only calls for this identifier misbehave (others pass untouched). */
  identifier?: string;
};

export type SandboxDeliveryAttempt = {
  attempt: number;
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
};

export type SandboxDelivery = {
  id: number;
  kind: "payment" | "transfer";
  event: string;
  url: string;
  transactionId: string | null;
  withdrawId: string | null;
  status: "PENDING" | "DELIVERED" | "FAILED";
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
  payload: Record<string, unknown>;
  attemptLog: SandboxDeliveryAttempt[];
};

export type SandboxTransactionRecord = Record<string, unknown> & { id: string; status: string };
export type SandboxRefundRecord = Record<string, unknown> & { id: string; status: string; transactionId: string };
export type SandboxClockAdvance = {
  now: string;
  offsetMs: number;
  /** Charges made by this call, each dated at its due instant `dueAt`. */
  charges: Array<{
    subscriptionId: string;
    identifier: string;
    chargeNumber: number;
    transactionId: string;
    status: string;
    dueAt: string;
  }>;
};

/** The producer's balance at its sandbox clock, in reais; releases by São Paulo day (YYYY-MM-DD), ascending. */
export type SandboxBalance = {
  currency: "BRL";
  available: number;
  pending: number;
  releases: Array<{ date: string; amount: number }>;
};

/** `ratePerSecond`: lookups answered per calendar second (the rest 429); `rateLimitedFraction`: 429 at random. */
export type SandboxLookupLimits = { ratePerSecond: number | null; rateLimitedFraction: number; retryAfterSeconds: number | null };
export type SandboxLookupStats = {
  limits: SandboxLookupLimits;
  total: number;
  rateLimited: number;
  maxPerSecond: number;
  perSecond: Array<{ second: string; lookups: number; rateLimited: number }>;
};

export type SandboxReleaseMethod = "pix" | "boleto" | "card" | "crypto" | "deposit";
export type SandboxSettings = { webhookUrl: string | null; releaseDays: Record<SandboxReleaseMethod, number> };

export class SandboxControlError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

export type SandboxControl = ReturnType<typeof createSandboxControl>;

export function createSandboxControl(opts: { baseUrl: string; publicKey: string; secretKey: string; fetch?: typeof fetch }) {
  const base = opts.baseUrl.replace(/\/+$/, "");
  const doFetch = opts.fetch ?? fetch;

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await doFetch(`${base}/sandbox/v1${path}`, {
      method,
      headers: {
        "x-public-key": opts.publicKey,
        "x-secret-key": opts.secretKey,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (!res.ok) {
      throw new SandboxControlError(res.status, json.errorCode as string | undefined, (json.message as string) ?? `HTTP ${res.status}`);
    }
    return json as T;
  }

  const id = (value: string) => encodeURIComponent(value);

  return {
    event: (transactionId: string, type: SandboxTransitionType) =>
      call<SandboxTransactionRecord>("POST", `/transactions/${id(transactionId)}/events`, { type }),
    /** `url`: to this address instead of the transaction's target (test tool). */
    notify: (transactionId: string, event: SandboxPaymentEvent, url?: string) =>
      call<{ queued: boolean; event: string; transaction: SandboxTransactionRecord }>(
        "POST",
        `/transactions/${id(transactionId)}/notify`,
        url === undefined ? { event } : { event, url },
      ),
    /** Test tool: the transaction reports this status from now on (any string the transition table need not know); no webhook. */
    setStatus: (transactionId: string, status: string) =>
      call<SandboxTransactionRecord>("POST", `/transactions/${id(transactionId)}/status`, { status }),
    approveRefund: (refundId: string) => call<SandboxRefundRecord>("POST", `/refunds/${id(refundId)}/approve`),
    rejectRefund: (refundId: string) => call<SandboxRefundRecord>("POST", `/refunds/${id(refundId)}/reject`),
    completeWithdraw: (withdrawId: string) =>
      call<{ withdraw: Record<string, unknown>; payoutAccount: Record<string, unknown> }>("POST", `/withdraws/${id(withdrawId)}/complete`),
    failWithdraw: (withdrawId: string) =>
      call<{ withdraw: Record<string, unknown>; payoutAccount: Record<string, unknown> }>("POST", `/withdraws/${id(withdrawId)}/fail`),
    /** Test tool: the producer's withdraws, optionally by identifier prefix and status. */
    withdraws: async (filter: { identifierPrefix?: string; status?: string } = {}) => {
      const qs = new URLSearchParams(Object.entries(filter).filter(([, v]) => v) as Array<[string, string]>).toString();
      return (
        await call<{ withdraws: Array<{ id: string; identifier: string; status: string; amount: number }> }>(
          "GET",
          `/withdraws${qs ? `?${qs}` : ""}`,
        )
      ).withdraws;
    },
    advanceClock: (days: number) => call<SandboxClockAdvance>("POST", "/clock/advance", { days }),
    clock: () => call<{ now: string; offsetMs: number }>("GET", "/clock"),
    deliveries: async (filter: { transactionId?: string; withdrawId?: string } = {}) => {
      const qs = new URLSearchParams(Object.entries(filter).filter(([, v]) => v) as Array<[string, string]>).toString();
      return (await call<{ deliveries: SandboxDelivery[] }>("GET", `/deliveries${qs ? `?${qs}` : ""}`)).deliveries;
    },
    fault: (fault: SandboxFault) => call<{ faults: unknown[] }>("POST", "/faults", fault),
    clearFaults: () => call<{ faults: unknown[] }>("DELETE", "/faults"),
    setWebhookUrl: (webhookUrl: string | null) => call<SandboxSettings>("PUT", "/settings", { webhookUrl }),
    /** Days from payment to availability for the methods given (the others keep theirs). */
    setReleaseDays: (releaseDays: Partial<Record<SandboxReleaseMethod, number>>) =>
      call<SandboxSettings>("PUT", "/settings", { releaseDays }),
    settings: () => call<SandboxSettings>("GET", "/settings"),
    /** Lookups answered 429 above a rate and/or at random (the limits given change, the others stay). */
    setLookupLimits: (limits: Partial<SandboxLookupLimits>) => call<SandboxLookupStats>("PUT", "/lookups", limits),
    /** Lookups received per calendar second (429s included), for the last hour. */
    lookupStats: () => call<SandboxLookupStats>("GET", "/lookups"),
    /** Clears the lookup counters (the limits stay). */
    resetLookupStats: () => call<SandboxLookupStats>("DELETE", "/lookups"),
    balance: () => call<SandboxBalance>("GET", "/balance"),
  };
}
