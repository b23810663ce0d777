/**
 * The Postgres job libraries against the console's own claim-and-wake (docs/background-work.md):
 * graphile-worker, pg-boss, and the console's pattern (a row, `pg_notify` in the same statement, a
 * LISTEN connection that wakes the claimer, `for update skip locked` in batches). Measured here:
 *
 *   1. latency from enqueue (another connection, as the receiver is another process) to the
 *      handler's start, one job at a time;
 *   2. throughput: a backlog enqueued in bulk, then claimed, run (a no-op) and completed;
 *   3. a cold one-shot pass as a serverless `after()` or a cron tick would run it: connect, take
 *      the one job queued, complete it, disconnect;
 *   4. the same on PGlite, reached through @electric-sql/pglite-socket.
 *
 * The libraries are not the console's dependencies: install them in a directory of their own and
 * name its node_modules (graphile-worker 0.17 and pg-boss 10 are the last to run on Node 20):
 *
 *   mkdir /tmp/job-libs && cd /tmp/job-libs && npm init -y && npm install --legacy-peer-deps \
 *     graphile-worker@0.17.3 pg-boss@10 @electric-sql/pglite@0.5.16 @electric-sql/pglite-socket@0.2.17
 *   BENCH_LIBS_DIR=/tmp/job-libs/node_modules npx tsx scripts/bench/job-libraries.ts
 *
 * env BENCH_PG_URL (postgres://postgres@127.0.0.1:5432/test), BENCH_LATENCY_JOBS (100),
 * BENCH_BACKLOG (5000), BENCH_SOCKET_PORT (4205: the PGlite socket server's port), BENCH_ONLY (one subject:
 * console, graphile or pg-boss).
 */
import { createRequire } from "node:module";
import path from "node:path";
import process from "node:process";
import { cpus, loadavg } from "node:os";
import pg from "pg";
import { createDatabase, percentile, sleep } from "../chaos/harness";

const libsDir = process.env.BENCH_LIBS_DIR;
if (!libsDir) throw new Error("BENCH_LIBS_DIR: the node_modules holding graphile-worker, pg-boss and @electric-sql/pglite-socket");
const serverUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const LATENCY_JOBS = Number(process.env.BENCH_LATENCY_JOBS ?? 100);
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 5_000);
const SOCKET_PORT = Number(process.env.BENCH_SOCKET_PORT ?? 4205);
const CONCURRENCY = 8;
/** One subject only: "console", "graphile" or "pg-boss". */
const ONLY = process.env.BENCH_ONLY;
const requireLib = createRequire(path.join(path.resolve(libsDir), "noop.js"));

// The libraries' surfaces used here, typed by hand: they are not installed in the project.
type GraphileTask = (payload: unknown) => Promise<void>;
type GraphileRunner = { stop(): Promise<void>; promise: Promise<void> };
type GraphileUtils = {
  addJob(task: string, payload: unknown): Promise<unknown>;
  addJobs(specs: { identifier: string; payload: unknown }[]): Promise<unknown>;
  migrate(): Promise<void>;
  release(): Promise<void>;
};
type Graphile = {
  run(options: Record<string, unknown>): Promise<GraphileRunner>;
  runOnce(options: Record<string, unknown>): Promise<void>;
  makeWorkerUtils(options: Record<string, unknown>): Promise<GraphileUtils>;
};
type BossJob = { id: string; data: unknown };
type Boss = {
  start(): Promise<unknown>;
  stop(options?: Record<string, unknown>): Promise<void>;
  createQueue(name: string): Promise<void>;
  send(name: string, data: unknown): Promise<string | null>;
  insert(jobs: { name: string; data: unknown }[]): Promise<void>;
  fetch(name: string, options?: Record<string, unknown>): Promise<BossJob[]>;
  complete(name: string, ids: string[]): Promise<unknown>;
  work(name: string, options: Record<string, unknown>, handler: (jobs: BossJob[]) => Promise<void>): Promise<string>;
  on(event: "error", listener: (error: unknown) => void): void;
};
type BossClass = new (options: Record<string, unknown>) => Boss;

const imported: Record<string, number> = {};
function load<T>(name: string): T {
  const started = performance.now();
  const loaded = requireLib(name) as T;
  imported[name] ??= performance.now() - started;
  return loaded;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** A job system under test: start a worker whose handler calls `ran`, enqueue one or many, run a cold pass. */
type Subject = {
  name: string;
  start(ran: (payload: { at?: number }) => void): Promise<void>;
  enqueue(payload: { at: number }): Promise<void>;
  enqueueMany(count: number): Promise<void>;
  stop(): Promise<void>;
  /** Connect, take the one queued job, complete it, disconnect. */
  coldPass(): Promise<number>;
};

/** The console's pattern: one table, a notify in the enqueueing statement, a LISTEN connection, batched skip-locked claims. */
function consolePattern(url: string): Subject {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const producer = new pg.Pool({ connectionString: url, max: 2 });
  let listener: pg.Client | null = null;
  let running = false;
  let again = false;
  let handler: (payload: { at?: number }) => void = () => {};
  const claim = async (client: pg.Pool | pg.Client) =>
    (
      await client.query<{ id: string; payload: { at?: number } }>(
        `update bench_jobs set state = 'running' where id in (
           select id from bench_jobs where state = 'queued' order by id limit 256 for update skip locked)
         returning id, payload`,
      )
    ).rows;
  const drain = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        for (let jobs = await claim(pool); jobs.length > 0; jobs = await claim(pool)) {
          let next = 0;
          await Promise.all(
            Array.from({ length: Math.min(CONCURRENCY, jobs.length) }, async () => {
              while (next < jobs.length) handler(jobs[next++].payload);
            }),
          );
          await pool.query(`update bench_jobs set state = 'done' where id = any($1::bigint[])`, [jobs.map((job) => job.id)]);
        }
      } while (again);
    } finally {
      running = false;
    }
  };
  return {
    name: "console (LISTEN/NOTIFY + skip locked)",
    async start(ran) {
      handler = ran;
      await pool.query(
        `create table if not exists bench_jobs (id bigserial primary key, state text not null default 'queued', payload jsonb not null);
         create index if not exists bench_jobs_queued on bench_jobs (id) where state = 'queued'`,
      );
      listener = new pg.Client({ connectionString: url });
      await listener.connect();
      listener.on("notification", () => void drain());
      await listener.query("listen bench_jobs");
      void drain();
    },
    async enqueue(payload) {
      await producer.query(
        `with j as (insert into bench_jobs (payload) values ($1) returning id) select pg_notify('bench_jobs', '') from j`,
        [JSON.stringify(payload)],
      );
    },
    async enqueueMany(count) {
      await producer.query(
        `with j as (insert into bench_jobs (payload) select '{}'::jsonb from generate_series(1, $1) returning id)
         select pg_notify('bench_jobs', '') from (select 1 from j limit 1) one`,
        [count],
      );
    },
    async stop() {
      await listener?.end();
      await pool.end();
      await producer.end();
    },
    async coldPass() {
      await producer.query(`insert into bench_jobs (payload) values ('{}')`);
      const started = performance.now();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const jobs = await claim(client);
      await client.query(`update bench_jobs set state = 'done' where id = any($1::bigint[])`, [jobs.map((job) => job.id)]);
      await client.end();
      return performance.now() - started;
    },
  };
}

function graphileWorker(url: string): Subject {
  const graphile = load<Graphile>("graphile-worker");
  let runner: GraphileRunner | null = null;
  let utils: GraphileUtils | null = null;
  let noop = true;
  const logFactory = () => ({ error() {}, warn() {}, info() {}, debug() {} });
  const { Logger } = requireLib("graphile-worker") as { Logger: new (factory: unknown) => unknown };
  const logger = new Logger(() => logFactory().info);
  return {
    name: "graphile-worker 0.17",
    async start(ran) {
      utils = await graphile.makeWorkerUtils({ connectionString: url, logger });
      await utils.migrate();
      const task: GraphileTask = async (payload) => {
        if (!noop) ran(payload as { at?: number });
      };
      noop = false;
      runner = await graphile.run({
        connectionString: url,
        concurrency: CONCURRENCY,
        noHandleSignals: true,
        pollInterval: 2_000,
        logger,
        taskList: { bench: task },
      });
    },
    async enqueue(payload) {
      await utils!.addJob("bench", payload);
    },
    async enqueueMany(count) {
      for (let done = 0; done < count; done += 500) {
        await utils!.addJobs(Array.from({ length: Math.min(500, count - done) }, () => ({ identifier: "bench", payload: {} })));
      }
    },
    async stop() {
      await runner?.stop();
      await utils?.release();
    },
    async coldPass() {
      const enqueuer = await graphile.makeWorkerUtils({ connectionString: url, logger });
      await enqueuer.addJob("bench_once", {});
      await enqueuer.release();
      const started = performance.now();
      await graphile.runOnce({ connectionString: url, logger, taskList: { bench_once: async () => {} } });
      return performance.now() - started;
    },
  };
}

function pgBoss(url: string): Subject {
  const PgBoss = load<{ default?: BossClass } & BossClass>("pg-boss");
  const Boss: BossClass = PgBoss.default ?? PgBoss;
  const queue = "bench";
  let worker: Boss | null = null;
  let producer: Boss | null = null;
  const make = () => {
    const boss = new Boss({ connectionString: url, max: 4 });
    boss.on("error", () => {});
    return boss;
  };
  return {
    name: "pg-boss 10",
    async start(ran) {
      worker = make();
      await worker.start();
      await worker.createQueue(queue);
      // A producer of its own: the receiver is another process, so pg-boss's in-process nudge does not apply.
      producer = make();
      await producer.start();
      // 0.5 s is the shortest polling interval pg-boss accepts; it has no LISTEN.
      await worker.work(queue, { pollingIntervalSeconds: 0.5, batchSize: 100 }, async (jobs) => {
        for (const job of jobs) ran(job.data as { at?: number });
      });
    },
    async enqueue(payload) {
      await producer!.send(queue, payload);
    },
    async enqueueMany(count) {
      for (let done = 0; done < count; done += 500) {
        await producer!.insert(Array.from({ length: Math.min(500, count - done) }, () => ({ name: queue, data: {} })));
      }
    },
    async stop() {
      await worker?.stop({ graceful: false, wait: true });
      await producer?.stop({ graceful: false, wait: true });
    },
    async coldPass() {
      await producer!.createQueue("bench_once");
      await producer!.send("bench_once", {});
      const started = performance.now();
      const boss = make();
      await boss.start();
      const jobs = await boss.fetch("bench_once", { batchSize: 10 });
      await boss.complete(
        "bench_once",
        jobs.map((job) => job.id),
      );
      await boss.stop({ graceful: false, wait: true });
      return performance.now() - started;
    },
  };
}

type Result = {
  subject: string;
  latency?: { p50: number; p95: number; max: number };
  throughput?: { jobsPerSecond: number; seconds: number };
  coldPassMs?: number;
  error?: string;
};

async function measure(subject: Subject, options: { backlog: number; latencyJobs: number }): Promise<Result> {
  const result: Result = { subject: subject.name };
  let waiting: ((at: number) => void) | null = null;
  let completed = 0;
  try {
    await subject.start((payload) => {
      completed++;
      if (payload?.at !== undefined) waiting?.(payload.at);
    });
    const samples: number[] = [];
    for (let i = 0; i < options.latencyJobs; i++) {
      const ran = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("a job did not run within 10 s")), 10_000);
        waiting = (at) => {
          clearTimeout(timer);
          resolve(performance.now() - at);
        };
      });
      await subject.enqueue({ at: performance.now() });
      samples.push(await ran);
      // Jobs arrive one by one here, not back to back.
      await sleep(5 + Math.random() * 20);
    }
    waiting = null;
    result.latency = { p50: round(percentile(samples, 0.5)), p95: round(percentile(samples, 0.95)), max: round(Math.max(...samples)) };

    const before = completed;
    const started = performance.now();
    await subject.enqueueMany(options.backlog);
    const deadline = Date.now() + 300_000;
    while (completed - before < options.backlog) {
      if (Date.now() > deadline) throw new Error(`only ${completed - before} of ${options.backlog} jobs ran in 300 s`);
      await sleep(5);
    }
    const seconds = (performance.now() - started) / 1000;
    result.throughput = { jobsPerSecond: Math.round(options.backlog / seconds), seconds: round(seconds) };
    result.coldPassMs = round(await subject.coldPass());
  } catch (error) {
    // What was measured before the failure is kept.
    result.error = error instanceof Error ? error.message : String(error);
  } finally {
    await subject.stop().catch(() => {});
  }
  return result;
}

async function onPostgres(make: (url: string) => Subject): Promise<Result> {
  const database = await createDatabase(serverUrl, "bench_jobs");
  try {
    return await measure(make(database.url), { backlog: BACKLOG, latencyJobs: LATENCY_JOBS });
  } finally {
    await database.drop();
  }
}

/** PGlite in this process, served over the Postgres protocol by pglite-socket, as a pg client would reach it. */
async function onPglite(make: (url: string) => Subject, label: string): Promise<Result> {
  const { PGlite } = requireLib("@electric-sql/pglite") as { PGlite: { create(dir: string): Promise<{ close(): Promise<void> }> } };
  const { PGLiteSocketServer } = requireLib("@electric-sql/pglite-socket") as {
    PGLiteSocketServer: new (options: Record<string, unknown>) => { start(): Promise<void>; stop(): Promise<void> };
  };
  const db = await PGlite.create("memory://");
  const server = new PGLiteSocketServer({ db, port: SOCKET_PORT, host: "127.0.0.1", maxConnections: 32 });
  await server.start();
  const url = `postgres://postgres@127.0.0.1:${SOCKET_PORT}/postgres?sslmode=disable`;
  try {
    // Fewer jobs: every statement of every connection takes its turn on PGlite's one session.
    return await Promise.race([
      measure(make(url), { backlog: Math.min(BACKLOG, 1_000), latencyJobs: Math.min(LATENCY_JOBS, 20) }),
      sleep(240_000).then((): Result => ({ subject: label, error: "no result within 240 s" })),
    ]);
  } catch (error) {
    return { subject: label, error: error instanceof Error ? error.message : String(error) };
  } finally {
    await server.stop().catch(() => {});
    await db.close().catch(() => {});
  }
}

// Dropping a database ends the connections a library's pools still hold: not a failure of the run.
process.on("uncaughtException", (error: unknown) => {
  if ((error as { code?: string }).code === "57P01") return;
  console.error(error);
  process.exit(1);
});

console.log(`machine: ${cpus().length} cores, load average ${loadavg()[0].toFixed(2)}; Postgres ${new URL(serverUrl).host}`);
const subjects = [
  { make: consolePattern, label: "console" },
  { make: graphileWorker, label: "graphile-worker" },
  { make: pgBoss, label: "pg-boss 10" },
].filter(({ label }) => !ONLY || label.includes(ONLY));
for (const { make } of subjects) console.log(JSON.stringify({ on: "postgres", ...(await onPostgres(make)) }));
for (const { make, label } of subjects) {
  console.log(JSON.stringify({ on: "pglite-socket", ...(await onPglite((url) => make(url), label)), subject: label }));
}
console.log(JSON.stringify({ importMs: Object.fromEntries(Object.entries(imported).map(([name, ms]) => [name, round(ms)])) }));
process.exit(0);
