import { afterEach, describe, expect, it } from "vitest";
import { LookupLimiter, lookupRpsFrom, processLookupLimiter } from "../lookup-limiter";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Most grants in any window of `windowMs` (inclusive of both ends: the strictest reading). */
function maxInWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let max = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i] - sorted[j] > windowMs) j++;
    max = Math.max(max, i - j + 1);
  }
  return max;
}

describe("the lookup limiter", () => {
  afterEach(() => {
    delete process.env.GATEWAY_LOOKUP_RPS;
    delete process.env.GATEWAY_LOOKUP_CONCURRENCY;
  });

  it("never grants more than its ceiling in any 1-second window, with lookups of any length in flight", async () => {
    const limiter = new LookupLimiter({ rps: 40, maxConcurrency: 16 });
    const grants: number[] = [];
    await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const permit = await limiter.acquire();
        grants.push(permit.grantedAt);
        await sleep(i % 3 === 0 ? 30 : 2);
        permit.release("ok");
      }),
    );
    expect(grants).toHaveLength(100);
    expect(maxInWindow(grants, 1_000)).toBeLessThanOrEqual(40);
    // ...and it is a ceiling, not a crawl: 100 lookups at 40/s (5 % margin) take about 2.6 s.
    const span = Math.max(...grants) - Math.min(...grants);
    expect(span).toBeGreaterThan(2_300);
    expect(span).toBeLessThan(6_000); // timers run late on a busy machine, never early
  });

  it("serves waiting lookups oldest first, and a retry keeps the place of its first attempt", async () => {
    const limiter = new LookupLimiter({ rps: 100, maxConcurrency: 1 });
    const order: string[] = [];
    const tickets = Array.from({ length: 6 }, () => limiter.takeTicket());
    // The first lookup is answered 429 (Retry-After 50 ms); its retry must come before the other five.
    const first = (async () => {
      const permit = await limiter.acquire({ ticket: tickets[0] });
      order.push("p0");
      permit.release("rate_limited", 50);
      const retry = await limiter.acquire({ ticket: tickets[0] });
      order.push("p0-retry");
      retry.release("ok");
    })();
    // Enqueued in reverse: the limiter sorts them by ticket.
    const others = tickets
      .slice(1)
      .reverse()
      .map(async (ticket) => {
        const permit = await limiter.acquire({ ticket });
        order.push(`p${tickets.indexOf(ticket)}`);
        await sleep(1);
        permit.release("ok");
      });
    const started = Date.now();
    await Promise.all([first, ...others]);
    expect(order).toEqual(["p0", "p0-retry", "p1", "p2", "p3", "p4", "p5"]);
    // Nothing went out during the pause the 429 asked for.
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it("pauses every lookup until Retry-After after a 429", async () => {
    const limiter = new LookupLimiter({ rps: null, maxConcurrency: 4 });
    const permit = await limiter.acquire();
    const limitedAt = Date.now();
    permit.release("rate_limited", 300);
    const next = await limiter.acquire();
    expect(next.grantedAt - limitedAt).toBeGreaterThanOrEqual(290);
    next.release("ok");
  });

  it("halves the lookups in flight on a 429 (once per round) and grows back by one per window of answers", async () => {
    const limiter = new LookupLimiter({ rps: null, maxConcurrency: 16, defaultRetryAfterMs: 0 });
    expect(limiter.window).toBe(16);
    // Sixteen in flight; all sixteen come back 429: one signal, one halving.
    const permits = await Promise.all(Array.from({ length: 16 }, () => limiter.acquire()));
    for (const permit of permits) permit.release("rate_limited", 0);
    expect(limiter.window).toBe(8);
    // A 429 on a lookup sent after that halving halves again.
    const later = await limiter.acquire();
    later.release("rate_limited", 0);
    expect(limiter.window).toBe(4);

    // Now at most 4 in flight at once.
    let inFlight = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        const permit = await limiter.acquire();
        inFlight++;
        peak = Math.max(peak, inFlight);
        await sleep(5);
        inFlight--;
        permit.release("other");
      }),
    );
    expect(peak).toBe(4);
    expect(limiter.window).toBe(4); // errors other than 429 neither shrink nor grow it

    // Additive increase: about one more per window of successful answers, back to the top.
    let answers = 0;
    while (limiter.window < 16 && answers < 1_000) {
      (await limiter.acquire()).release("ok");
      answers++;
    }
    expect(limiter.window).toBe(16);
    // 4→16 takes 4+5+…+15 = 114 answers.
    expect(answers).toBeGreaterThan(100);
    expect(answers).toBeLessThan(130);
  });

  it("gives up a wait when the caller cancels, and the line moves on", async () => {
    const limiter = new LookupLimiter({ rps: null, maxConcurrency: 1 });
    const held = await limiter.acquire();
    const controller = new AbortController();
    const cancelled = limiter.acquire({ signal: controller.signal });
    const next = limiter.acquire();
    controller.abort();
    await expect(cancelled).rejects.toThrow(/cancelled/);
    held.release("ok");
    (await next).release("ok");
    expect(limiter.stats()).toMatchObject({ inFlight: 0, waiting: 0 });
  });

  it("reads GATEWAY_LOOKUP_RPS: no ceiling by default, nor with 0 or off; anything else refused", () => {
    expect(lookupRpsFrom(undefined)).toBeNull();
    expect(lookupRpsFrom("")).toBeNull();
    expect(lookupRpsFrom("300")).toBe(300);
    expect(lookupRpsFrom("2.5")).toBe(2.5);
    expect(lookupRpsFrom("0")).toBeNull();
    expect(lookupRpsFrom("off")).toBeNull();
    expect(() => lookupRpsFrom("-1")).toThrow(/GATEWAY_LOOKUP_RPS/);
    expect(() => lookupRpsFrom("fast")).toThrow(/GATEWAY_LOOKUP_RPS/);

    process.env.GATEWAY_LOOKUP_RPS = "25";
    process.env.GATEWAY_LOOKUP_CONCURRENCY = "6";
    const shared = processLookupLimiter();
    expect(shared).toBe(processLookupLimiter());
    expect(shared).toMatchObject({ rps: 25, maxConcurrency: 6 });
    process.env.GATEWAY_LOOKUP_RPS = "off";
    expect(processLookupLimiter().rps).toBeNull();
  });

  it("keeps one limiter per gateway key: a 429 on one account's key does not hold back another's", async () => {
    const a = processLookupLimiter("https://gw.example\u0000pk_a");
    const b = processLookupLimiter("https://gw.example\u0000pk_b");
    expect(a).not.toBe(b);
    expect(processLookupLimiter("https://gw.example\u0000pk_a")).toBe(a);
    const permit = await a.acquire();
    permit.release("rate_limited", 60_000);
    await expect(a.acquire({ maxPauseMs: 1_000 })).rejects.toThrow(/paused/);
    const other = await b.acquire({ maxPauseMs: 1_000 });
    other.release("ok");
  });
});
