import { createLogger } from "@/lib/log";
import { processState } from "./state";

/**
 * The console's background jobs, each one definition (what it claims, how it runs, what wakes it,
 * how often it runs anyway), and the two ways a job runs:
 *
 * - long-running (startJobs): in a process that stays up (the background worker on Postgres, the
 *   console's own process on PGlite), woken by its signals and its interval;
 * - a bounded pass (runJobPass): what is there now, within a time budget, then return (the
 *   serverless `after()` and the cron tick).
 *
 * Which process runs which way is the drivers' business (lib/background). Every claim is made with
 * `for update skip locked`, so any number of processes may run the same job side by side.
 */

const log = createLogger("jobs");

/** Something that wakes a job in this process only: a module raises it after its commit. */
export type LocalSignal = { readonly name: string; raise(): void };

type JobBase = {
  /** Unique among the console's jobs. */
  name: string;
  /** Database NOTIFY channels (from any process) and local signals that wake the job. */
  wakeOn?: readonly (string | LocalSignal)[];
  /** How often a long-running job runs anyway: retries that came due, a signal that was lost. */
  intervalMs: () => number;
};

export type PassJobDefinition = JobBase & {
  /** Does what is there; returns how much. Ends early, after the batch in hand, once `stopping()`. */
  pass: (context: { stopping: () => boolean }) => Promise<number>;
  /** The wait before each pass of a wake, from the previous pass's count in the same run (a burst is taken together). */
  gatherMs?: (lastCount: number) => number;
  /** Whether a wake runs a pass in a process where the job is not kept running (the web process applying what it just stored). */
  onDemand?: () => boolean;
};

export type ClaimJobDefinition<Item, Result> = JobBase & {
  /** Items in flight per process. */
  concurrency: () => number;
  claim(limit: number): Promise<Item[]>;
  run(item: Item): Promise<Result>;
  /** Results are written together: a batch every few milliseconds instead of a statement per item. */
  record?(results: Result[]): Promise<void>;
  /** Upkeep before a claim, at most every `everyMs` (a pass: once): returns how many items it freed. */
  upkeep?: { everyMs: number; run: () => Promise<number> };
  /** After a claim came up short, when items ended (or were freed) since its last call. */
  drained?: () => Promise<void>;
};

export type PassJob = { kind: "pass"; definition: PassJobDefinition; wake(): void };
export type ClaimJob<Item = unknown, Result = unknown> = {
  kind: "claim";
  definition: ClaimJobDefinition<Item, Result>;
  wake(): void;
};
export type Job = PassJob | ClaimJob;

/** A database channel's subscription (lib/feed/bus.ts subscribeSignal): resolves to the unsubscribe function. */
export type Listen = (channel: string, onSignal: () => void) => Promise<() => void>;

const FLUSH_AFTER_MS = 10;
const FLUSH_AT = 128;
/** Freed slots are claimed together once a quarter of them is free, or after this long. */
const FILL_AFTER_MS = 5;

type JobState = {
  /** Kept running in this process (startJobs), with the definition it was started with. */
  started: boolean;
  stopping: boolean;
  timer: NodeJS.Timeout | null;
  unsubscribe: (() => void)[];
  idle: (() => void)[];
  // a pass job
  pass: Promise<void> | null;
  again: boolean;
  // a claim job
  inFlight: number;
  /** Items ended or freed since `drained` was last called. */
  ended: number;
  lastUpkeepAt: number;
  filling: boolean;
  refill: boolean;
  results: unknown[];
  flushing: Promise<void> | null;
  flushTimer: NodeJS.Timeout | null;
  fillTimer: NodeJS.Timeout | null;
};

const jobStates = processState("jobs", () => new Map<string, JobState>());
const localListeners = processState("jobs-local-signals", () => new Map<string, Set<() => void>>());

function stateOf(name: string): JobState {
  const states = jobStates();
  let state = states.get(name);
  if (!state) {
    state = {
      started: false,
      stopping: false,
      timer: null,
      unsubscribe: [],
      idle: [],
      pass: null,
      again: false,
      inFlight: 0,
      ended: 0,
      lastUpkeepAt: 0,
      filling: false,
      refill: false,
      results: [],
      flushing: null,
      flushTimer: null,
      fillTimer: null,
    };
    states.set(name, state);
  }
  return state;
}

export function localSignal(name: string): LocalSignal {
  return {
    name,
    raise() {
      for (const listener of localListeners().get(name) ?? []) listener();
    },
  };
}

function onLocal(signal: LocalSignal, listener: () => void): () => void {
  const listeners = localListeners();
  let set = listeners.get(signal.name);
  if (!set) listeners.set(signal.name, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

function settleIdle(s: JobState): void {
  if (s.pass || s.inFlight > 0 || s.results.length > 0 || s.flushing || s.filling) return;
  for (const resolve of s.idle.splice(0)) resolve();
}

// ---------------------------------------------------------------------------
// Pass jobs
// ---------------------------------------------------------------------------

function wakePass(definition: PassJobDefinition): void {
  const s = stateOf(definition.name);
  if (s.stopping || (!s.started && !definition.onDemand?.())) return;
  if (s.pass) {
    s.again = true;
    return;
  }
  s.pass = (async () => {
    // Counted within one run of passes: the first wake after a quiet spell waits the least.
    let lastCount = 0;
    try {
      do {
        s.again = false;
        const wait = definition.gatherMs?.(lastCount) ?? 0;
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        lastCount = await definition.pass({ stopping: () => s.stopping });
      } while (s.again && !s.stopping);
    } catch (error) {
      // What it did not reach stays for the next wake or tick.
      log.error("pass failed", { job: definition.name, error });
    } finally {
      s.pass = null;
      settleIdle(s);
    }
  })();
}

export function defineJob(definition: PassJobDefinition): PassJob;
export function defineJob<Item, Result>(definition: ClaimJobDefinition<Item, Result>): ClaimJob<Item, Result>;
export function defineJob<Item, Result>(
  definition: PassJobDefinition | ClaimJobDefinition<Item, Result>,
): PassJob | ClaimJob<Item, Result> {
  if ("pass" in definition) return { kind: "pass", definition, wake: () => wakePass(definition) };
  return { kind: "claim", definition, wake: () => wakeClaim(definition) };
}

// ---------------------------------------------------------------------------
// Claim jobs
// ---------------------------------------------------------------------------

async function flush<Item, Result>(definition: ClaimJobDefinition<Item, Result>, s: JobState): Promise<void> {
  if (s.flushTimer) clearTimeout(s.flushTimer);
  s.flushTimer = null;
  while (s.results.length > 0) {
    const batch = s.results.splice(0, s.results.length) as Result[];
    try {
      await definition.record!(batch);
    } catch (error) {
      // The items stay claimed; when their lease runs out they are taken again.
      log.error("recording results failed", { job: definition.name, error });
    }
  }
  s.flushing = null;
  settleIdle(s);
}

function scheduleFlush<Item, Result>(definition: ClaimJobDefinition<Item, Result>, s: JobState): void {
  if (s.flushing || s.results.length === 0) return;
  if (s.results.length >= FLUSH_AT) {
    s.flushing = flush(definition, s);
    return;
  }
  s.flushTimer ??= setTimeout(() => {
    s.flushTimer = null;
    if (!s.flushing) s.flushing = flush(definition, s);
  }, FLUSH_AFTER_MS);
}

async function upkeep<Item, Result>(definition: ClaimJobDefinition<Item, Result>, s: JobState): Promise<void> {
  if (!definition.upkeep || Date.now() - s.lastUpkeepAt < definition.upkeep.everyMs) return;
  s.lastUpkeepAt = Date.now();
  s.ended += await definition.upkeep.run();
}

/** Keeps up to `concurrency` items in flight: each one that ends makes room for the next due one. */
async function fill<Item, Result>(definition: ClaimJobDefinition<Item, Result>, s: JobState): Promise<void> {
  if (!s.started || s.stopping) return;
  if (s.filling) {
    s.refill = true;
    return;
  }
  s.filling = true;
  try {
    do {
      s.refill = false;
      await upkeep(definition, s);
      const free = definition.concurrency() - s.inFlight;
      const claimed = free > 0 ? await definition.claim(free) : [];
      if (claimed.length < free && s.ended > 0 && definition.drained) {
        s.ended = 0;
        await definition.drained();
      }
      s.inFlight += claimed.length;
      for (const item of claimed) {
        void definition
          .run(item)
          .then(
            (result) => {
              if (definition.record) s.results.push(result);
            },
            // Not expected (a job's run reports its failures in its result or records them itself):
            // the slot is freed and the item stays claimed until its lease runs out.
            (error: unknown) => log.error("running an item failed", { job: definition.name, error }),
          )
          .finally(() => {
            s.inFlight -= 1;
            s.ended += 1;
            scheduleFlush(definition, s);
            scheduleFill(definition, s);
            settleIdle(s);
          });
      }
    } while (s.refill && s.started && !s.stopping);
  } catch (error) {
    log.error("claiming failed", { job: definition.name, error });
  } finally {
    s.filling = false;
    settleIdle(s);
  }
}

/** Freed slots are filled together: one claim for many, not a claim per finished item. */
function scheduleFill<Item, Result>(definition: ClaimJobDefinition<Item, Result>, s: JobState): void {
  if (s.inFlight <= (definition.concurrency() * 3) / 4) {
    if (s.fillTimer) clearTimeout(s.fillTimer);
    s.fillTimer = null;
    void fill(definition, s);
    return;
  }
  s.fillTimer ??= setTimeout(() => {
    s.fillTimer = null;
    void fill(definition, s);
  }, FILL_AFTER_MS);
}

function wakeClaim<Item, Result>(definition: ClaimJobDefinition<Item, Result>): void {
  void fill(definition, stateOf(definition.name));
}

// ---------------------------------------------------------------------------
// Running them
// ---------------------------------------------------------------------------

/**
 * Keeps the jobs running in this process: each woken by its signals and its interval, and once
 * now. A signal that cannot be listened to leaves the job to its interval.
 */
export async function startJobs(jobs: readonly Job[], listen: Listen): Promise<void> {
  for (const job of jobs) {
    const { definition } = job;
    const s = stateOf(definition.name);
    if (s.started) continue;
    s.started = true;
    s.stopping = false;
    for (const source of definition.wakeOn ?? []) {
      if (typeof source !== "string") {
        s.unsubscribe.push(onLocal(source, job.wake));
        continue;
      }
      try {
        s.unsubscribe.push(await listen(source, job.wake));
      } catch (error) {
        log.warn("listening failed; relying on the interval", { job: definition.name, channel: source, error });
      }
    }
    s.timer = setInterval(job.wake, definition.intervalMs());
    s.timer.unref();
    job.wake();
  }
}

/**
 * Stops claiming and waking; resolves once each job's work in hand has ended (a pass after its
 * batch or claim, items in flight with their results written). What is left stays queued.
 */
export async function stopJobs(jobs: readonly Job[]): Promise<void> {
  await Promise.all(
    jobs.map(async ({ definition }) => {
      const s = stateOf(definition.name);
      s.started = false;
      s.stopping = true;
      if (s.timer) clearInterval(s.timer);
      s.timer = null;
      for (const unsubscribe of s.unsubscribe.splice(0)) unsubscribe();
      await new Promise<void>((resolve) => {
        s.idle.push(resolve);
        if (!s.flushing && s.results.length > 0 && "record" in definition && definition.record) s.flushing = flush(definition, s);
        settleIdle(s);
      });
      s.stopping = false;
    }),
  );
}

/**
 * One bounded pass of a job in the calling request or process (the serverless drivers, tests):
 * a claim job takes `concurrency` items at a time, runs them and records their results, until
 * none is due or `budgetMs` is spent. Returns how much it did.
 */
export async function runJobPass(job: Job, budgetMs = 20_000): Promise<number> {
  if (job.kind === "pass") return job.definition.pass({ stopping: () => stateOf(job.definition.name).stopping });
  const definition = job.definition as ClaimJobDefinition<unknown, unknown>;
  const started = Date.now();
  const freed = definition.upkeep ? await definition.upkeep.run() : 0;
  let count = 0;
  while (Date.now() - started < budgetMs) {
    const claimed = await definition.claim(definition.concurrency());
    if (claimed.length === 0) break;
    const results = await Promise.all(claimed.map((item) => definition.run(item)));
    if (definition.record) await definition.record(results);
    count += claimed.length;
  }
  if (count + freed > 0) await definition.drained?.();
  return count;
}
