import "server-only";
import { subscribeSignal } from "@/lib/feed/bus";
import { createLogger } from "@/lib/log";
import { destinationConfig } from "./config";
import { claimAttempts, loadTargets, recordResults, sendAttempt, type AttemptResult } from "./deliver";
import { DUE_CHANNEL, OUTBOX_CHANNEL, publishAllPending } from "./publish";

const log = createLogger("destinations");

/** Results are written together: a batch every few milliseconds instead of a statement per attempt. */
const FLUSH_AFTER_MS = 10;
const FLUSH_AT = 128;
/** Freed slots are claimed together once a quarter of them is free, or after this long. */
const FILL_AFTER_MS = 5;

type Pump = {
  running: boolean;
  fillTimer: NodeJS.Timeout | null;
  inFlight: number;
  results: AttemptResult[];
  filling: boolean;
  refill: boolean;
  publishing: boolean;
  republish: boolean;
  flushing: Promise<void> | null;
  flushTimer: NodeJS.Timeout | null;
  timer: NodeJS.Timeout | null;
  unsubscribe: (() => void)[];
  idle: (() => void)[];
};

const pumpKey = Symbol.for("merchant-console.destinations-pump");

function pump(): Pump {
  const g = globalThis as typeof globalThis & { [pumpKey]?: Pump };
  return (g[pumpKey] ??= {
    running: false,
    fillTimer: null,
    inFlight: 0,
    results: [],
    filling: false,
    refill: false,
    publishing: false,
    republish: false,
    flushing: null,
    flushTimer: null,
    timer: null,
    unsubscribe: [],
    idle: [],
  });
}

function settleIdle(p: Pump): void {
  if (p.inFlight > 0 || p.results.length > 0 || p.flushing || p.filling) return;
  for (const resolve of p.idle.splice(0)) resolve();
}

async function flush(p: Pump): Promise<void> {
  if (p.flushTimer) clearTimeout(p.flushTimer);
  p.flushTimer = null;
  while (p.results.length > 0) {
    const batch = p.results.splice(0, p.results.length);
    try {
      await recordResults(batch);
    } catch (error) {
      // The attempts stay leased; when the lease runs out they are sent again under the same id.
      log.error("recording delivery results failed", { error });
    }
  }
  p.flushing = null;
  settleIdle(p);
}

function scheduleFlush(p: Pump): void {
  if (p.flushing) return;
  if (p.results.length >= FLUSH_AT) {
    p.flushing = flush(p);
    return;
  }
  p.flushTimer ??= setTimeout(() => {
    p.flushTimer = null;
    if (!p.flushing) p.flushing = flush(p);
  }, FLUSH_AFTER_MS);
}

/** Keeps up to `concurrency` attempts in flight: each one that ends makes room for the next due one. */
async function fill(p: Pump): Promise<void> {
  if (!p.running) return;
  if (p.filling) {
    p.refill = true;
    return;
  }
  p.filling = true;
  try {
    const { concurrency } = destinationConfig();
    do {
      p.refill = false;
      const free = concurrency - p.inFlight;
      if (free <= 0) break;
      const claimed = await claimAttempts({ limit: free });
      if (claimed.length === 0) break;
      const targets = await loadTargets(claimed);
      p.inFlight += claimed.length;
      for (const attempt of claimed) {
        void sendAttempt(attempt, targets.get(attempt.destinationId))
          .then(
            (result) => p.results.push(result),
            // Not expected (a send reports its failures as results): the slot is freed and the
            // attempt stays leased, so it is sent again under the same id when the lease runs out.
            (error: unknown) => log.error("sending a delivery failed", { error }),
          )
          .finally(() => {
            p.inFlight -= 1;
            scheduleFlush(p);
            scheduleFill(p);
          });
      }
      if (claimed.length < free) break;
    } while (p.refill);
  } catch (error) {
    log.error("claiming deliveries failed", { error });
  } finally {
    p.filling = false;
    settleIdle(p);
  }
}

/** Freed slots are filled together: one claim for many, not a claim per finished attempt. */
function scheduleFill(p: Pump): void {
  const { concurrency } = destinationConfig();
  if (p.inFlight <= (concurrency * 3) / 4) {
    if (p.fillTimer) clearTimeout(p.fillTimer);
    p.fillTimer = null;
    void fill(p);
    return;
  }
  p.fillTimer ??= setTimeout(() => {
    p.fillTimer = null;
    void fill(p);
  }, FILL_AFTER_MS);
}

async function publish(p: Pump): Promise<void> {
  if (p.publishing) {
    p.republish = true;
    return;
  }
  p.publishing = true;
  try {
    do {
      p.republish = false;
      await publishAllPending();
    } while (p.republish);
  } catch (error) {
    log.error("publishing events failed", { error });
  } finally {
    p.publishing = false;
  }
  void fill(p);
}

/**
 * The long-running sender (the background worker, or the console's own process on PGlite): woken
 * by the outbox triggers' signal (publish) and by new deliveries (send), and every interval for
 * retries that came due and anything a lost signal left behind.
 */
export async function startDestinationWork(): Promise<void> {
  const p = pump();
  if (p.running) return;
  p.running = true;
  try {
    p.unsubscribe.push(await subscribeSignal(OUTBOX_CHANNEL, () => void publish(p)));
    p.unsubscribe.push(await subscribeSignal(DUE_CHANNEL, () => void fill(p)));
  } catch (error) {
    log.warn("listening for events failed; relying on the interval", { error });
  }
  p.timer = setInterval(() => void publish(p), destinationConfig().intervalMs);
  p.timer.unref();
  void publish(p);
}

/** Stops claiming; resolves once the attempts in flight have ended and their results are written. */
export async function stopDestinationWork(): Promise<void> {
  const p = pump();
  p.running = false;
  if (p.timer) clearInterval(p.timer);
  p.timer = null;
  for (const unsubscribe of p.unsubscribe.splice(0)) unsubscribe();
  await new Promise<void>((resolve) => {
    p.idle.push(resolve);
    if (!p.flushing && p.results.length > 0) p.flushing = flush(p);
    settleIdle(p);
  });
}

/** Wakes the long-running sender in this process, if there is one (a test event, a resend). */
export function kickDestinations(): void {
  const p = pump();
  if (p.running) void publish(p);
}

/**
 * One bounded pass, for the serverless mode (the cron route, and `after()` a webhook's answer):
 * publishes what the outbox holds and sends what is due until nothing is or `budgetMs` is spent.
 */
export async function runDestinationsOnce(budgetMs = 20_000): Promise<{ published: number; attempted: number }> {
  const published = await publishAllPending();
  const deadline = Date.now() + budgetMs;
  const { concurrency } = destinationConfig();
  let attempted = 0;
  while (Date.now() < deadline) {
    const claimed = await claimAttempts({ limit: concurrency });
    if (claimed.length === 0) break;
    const targets = await loadTargets(claimed);
    const results = await Promise.all(claimed.map((attempt) => sendAttempt(attempt, targets.get(attempt.destinationId))));
    await recordResults(results);
    attempted += results.length;
  }
  return { published, attempted };
}
