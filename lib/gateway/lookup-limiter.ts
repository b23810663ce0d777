/**
 * The gateway's transaction lookup "is not for frequent polling": every lookup this process makes
 * (the reconciler's confirmations and the pages' "Atualizar pelo gateway") takes a permit here.
 *
 * - A ceiling, `GATEWAY_LOOKUP_RPS` lookups per second: permits are spaced evenly, 5 % wider than
 *   1/RPS, so no 1-second window holds more than RPS lookups even when the network or the event
 *   loop shifts a request by a few tens of milliseconds.
 * - Order: waiting lookups are served by ticket, lowest first. A ticket is taken at the first
 *   attempt, and a retry keeps it, so a payment answered 429 goes back to the head of the line.
 * - AIMD on the lookups in flight: a 429 halves the window (once per round: the 429s of lookups
 *   sent before the first one was heard count as one), each answer grows it by 1/window, up to
 *   `GATEWAY_LOOKUP_CONCURRENCY`.
 * - A 429 pauses every lookup of the process with that gateway key until its Retry-After (1 s
 *   when it has none).
 *
 * Per process and gateway key: N processes making lookups each hold their own ceiling
 * (docs/background-work.md).
 */
import { processState } from "@/lib/runtime/state";

export type LookupLimiterOptions = {
  /** Lookups per second; null: no ceiling. */
  rps: number | null;
  /** Most lookups in flight (the AIMD window's top). */
  maxConcurrency: number;
  /** The window's floor. */
  minConcurrency?: number;
  /** The pause after a 429 that names no Retry-After. */
  defaultRetryAfterMs?: number;
  /** Spacing margin over 1/RPS (0.05: 5 % wider). */
  margin?: number;
  now?: () => number;
};

export type LookupOutcome = "ok" | "rate_limited" | "other";

export type LookupPermit = {
  readonly ticket: number;
  readonly grantedAt: number;
  /** Once per permit: the answer (or its absence) of the lookup made with it. */
  release(outcome: LookupOutcome, retryAfterMs?: number): void;
};

type Waiter = {
  ticket: number;
  maxPauseMs: number;
  resolve: (permit: LookupPermit) => void;
  reject: (error: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
};

export type LookupLimiterStats = {
  rps: number | null;
  window: number;
  inFlight: number;
  waiting: number;
  granted: number;
  rateLimited: number;
  pausedUntil: number;
};

export class LookupAbortedError extends Error {
  constructor() {
    super("Lookup cancelled while waiting for its turn");
    this.name = "LookupAbortedError";
  }
}

/** The gateway asked this process to wait (a 429's Retry-After) longer than the caller waits: nothing was sent. */
export class LookupPausedError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`Gateway lookups paused for ${retryAfterMs} ms (Retry-After)`);
    this.name = "LookupPausedError";
  }
}

export class LookupLimiter {
  readonly rps: number | null;
  readonly maxConcurrency: number;
  private readonly minConcurrency: number;
  private readonly defaultRetryAfterMs: number;
  private readonly intervalMs: number;
  private readonly now: () => number;

  private windowSize: number;
  private inFlight = 0;
  private nextTicket = 1;
  private queue: Waiter[] = [];
  private lastGrantAt = Number.NEGATIVE_INFINITY;
  private pausedUntil = 0;
  private lastDecreaseAt = Number.NEGATIVE_INFINITY;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = 0;
  private granted = 0;
  private rateLimited = 0;

  constructor(options: LookupLimiterOptions) {
    if (options.rps !== null && !(options.rps > 0)) throw new TypeError("LookupLimiter: rps must be positive or null");
    this.rps = options.rps;
    this.maxConcurrency = Math.max(1, Math.floor(options.maxConcurrency));
    this.minConcurrency = Math.min(this.maxConcurrency, Math.max(1, options.minConcurrency ?? 1));
    this.defaultRetryAfterMs = options.defaultRetryAfterMs ?? 1_000;
    this.intervalMs = options.rps === null ? 0 : (1_000 / options.rps) * (1 + (options.margin ?? 0.05));
    this.now = options.now ?? (() => performance.timeOrigin + performance.now());
    this.windowSize = this.maxConcurrency;
  }

  /** The lookups allowed in flight now (AIMD). */
  get window(): number {
    return Math.max(this.minConcurrency, Math.floor(this.windowSize));
  }

  stats(): LookupLimiterStats {
    return {
      rps: this.rps,
      window: this.window,
      inFlight: this.inFlight,
      waiting: this.queue.length,
      granted: this.granted,
      rateLimited: this.rateLimited,
      pausedUntil: this.pausedUntil,
    };
  }

  /** A new ticket: its place in line. A retry passes the ticket of its first attempt instead. */
  takeTicket(): number {
    return this.nextTicket++;
  }

  /**
   * Waits for this lookup's turn. `ticket`: keep a place taken before (a retry after a 429).
   * `maxPauseMs`: a pause (Retry-After) longer than that rejects with LookupPausedError at once,
   * so nobody waits minutes in line: the caller reschedules (a check) or says so (a page).
   */
  acquire(options: { ticket?: number; signal?: AbortSignal; maxPauseMs?: number } = {}): Promise<LookupPermit> {
    const ticket = options.ticket ?? this.takeTicket();
    if (options.signal?.aborted) return Promise.reject(new LookupAbortedError());
    return new Promise<LookupPermit>((resolve, reject) => {
      const maxPauseMs = options.maxPauseMs ?? Number.POSITIVE_INFINITY;
      const waiter: Waiter = { ticket, maxPauseMs, resolve, reject, signal: options.signal };
      if (options.signal) {
        waiter.onAbort = () => {
          const index = this.queue.indexOf(waiter);
          if (index < 0) return;
          this.queue.splice(index, 1);
          reject(new LookupAbortedError());
          this.pump();
        };
        options.signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      // Sorted insert: tickets mostly arrive in order, so search from the back.
      let at = this.queue.length;
      while (at > 0 && this.queue[at - 1].ticket > ticket) at--;
      this.queue.splice(at, 0, waiter);
      this.pump();
    });
  }

  private pump(): void {
    const pauseLeft = this.pausedUntil - this.now();
    if (pauseLeft > 0 && this.queue.some((w) => w.maxPauseMs < pauseLeft)) {
      for (const waiter of this.queue.filter((w) => w.maxPauseMs < pauseLeft)) {
        this.queue.splice(this.queue.indexOf(waiter), 1);
        if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener("abort", waiter.onAbort);
        waiter.reject(new LookupPausedError(Math.ceil(pauseLeft)));
      }
    }
    while (this.queue.length > 0) {
      if (this.inFlight >= this.window) return;
      const now = this.now();
      const notBefore = Math.max(this.pausedUntil, this.lastGrantAt + this.intervalMs);
      if (now < notBefore) {
        this.wakeAt(notBefore);
        return;
      }
      const waiter = this.queue.shift()!;
      if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener("abort", waiter.onAbort);
      this.grant(waiter, now);
    }
  }

  private grant(waiter: Waiter, now: number): void {
    this.inFlight++;
    this.granted++;
    this.lastGrantAt = now;
    let released = false;
    waiter.resolve({
      ticket: waiter.ticket,
      grantedAt: now,
      release: (outcome, retryAfterMs) => {
        if (released) return;
        released = true;
        this.inFlight--;
        this.onAnswer(now, outcome, retryAfterMs);
        this.pump();
      },
    });
  }

  private onAnswer(grantedAt: number, outcome: LookupOutcome, retryAfterMs: number | undefined): void {
    if (outcome === "ok") {
      this.windowSize = Math.min(this.maxConcurrency, this.windowSize + 1 / Math.max(1, this.windowSize));
      return;
    }
    if (outcome !== "rate_limited") return;
    this.rateLimited++;
    const now = this.now();
    this.pausedUntil = Math.max(this.pausedUntil, now + Math.max(0, retryAfterMs ?? this.defaultRetryAfterMs));
    // Lookups sent before the last decrease were sent at the old rate: their 429s are the same signal.
    if (grantedAt >= this.lastDecreaseAt) {
      this.windowSize = Math.max(this.minConcurrency, Math.floor(this.window / 2));
      this.lastDecreaseAt = now;
    }
  }

  private wakeAt(at: number): void {
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.pump();
      },
      Math.max(0, Math.ceil(at - this.now())),
    );
  }
}

/** As RECONCILE_CONCURRENCY: lookups in flight are what confirms a burst when the gateway slows (lib/submissions/checks.ts). */
const DEFAULT_CONCURRENCY = 96;

/**
 * `GATEWAY_LOOKUP_RPS`: unset, `0` or `off` → no ceiling (429s and Retry-After still rule); otherwise a
 * positive number. No default ceiling: a launch's burst at 300 payments/s must not wait on a guess of a
 * gateway's limit; set it to the limit the gateway publishes.
 */
export function lookupRpsFrom(value: string | undefined): number | null {
  const text = value?.trim().toLowerCase();
  if (text === undefined || text === "" || text === "0" || text === "off") return null;
  const rps = Number(text);
  if (!Number.isFinite(rps) || rps <= 0) throw new TypeError(`GATEWAY_LOOKUP_RPS must be a positive number, 0 or off (got "${value}")`);
  return rps;
}

function concurrencyFrom(value: string | undefined): number {
  const n = Number(value ?? DEFAULT_CONCURRENCY);
  return Number.isFinite(n) && n >= 1 ? Math.floor(n) : DEFAULT_CONCURRENCY;
}

type Shared = { limiter: LookupLimiter; settings: string };
const shared = processState<{ byGateway: Map<string, Shared> }>("gateway-lookup-limiter", () => ({ byGateway: new Map() }));

/** Tests: the next processLookupLimiter() builds fresh ones (no pause, full window). */
export function resetProcessLookupLimiter(): void {
  shared().byGateway.clear();
}

/**
 * The process's limiter for one gateway key (its base URL and public key; one for every module
 * copy), built from the environment: a 429 or a ceiling is the gateway's word about that key, so
 * it holds back that key's lookups and not another account's. A changed `GATEWAY_LOOKUP_RPS` or
 * `GATEWAY_LOOKUP_CONCURRENCY` builds new ones (tests, benches).
 */
export function processLookupLimiter(gatewayKey = ""): LookupLimiter {
  const settings = `${process.env.GATEWAY_LOOKUP_RPS ?? ""}|${process.env.GATEWAY_LOOKUP_CONCURRENCY ?? ""}`;
  const limiters = shared().byGateway;
  const current = limiters.get(gatewayKey);
  if (current && current.settings === settings) return current.limiter;
  const limiter = new LookupLimiter({
    rps: lookupRpsFrom(process.env.GATEWAY_LOOKUP_RPS),
    maxConcurrency: concurrencyFrom(process.env.GATEWAY_LOOKUP_CONCURRENCY),
  });
  limiters.set(gatewayKey, { limiter, settings });
  return limiter;
}
