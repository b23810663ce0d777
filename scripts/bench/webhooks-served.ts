/**
 * Webhook receiver benchmark through the served apps, in one run on one Postgres server:
 *
 *   1. baseline: a minimal Next.js route handler (scripts/bench/baseline-app: token check,
 *      sha256 dedupe key, one INSERT … ON CONFLICT DO NOTHING) under `next start`;
 *   2. console: the production build served as `npm start` serves it on Postgres (`next start`
 *      with scripts/run/client-address-hook.mjs preloaded, and the background worker beside it),
 *      `POST /api/webhooks/<account>`: answered by the receiver's fast path before Next.js routes
 *      it (lib/notifications/fast-path.ts), or by the route handler with WEBHOOK_FAST_PATH=off.
 * Both web servers run with the Node.js flags `npm start` gives the console (web-server-flags.mjs).
 *
 * Both run side by side; after a warm-up they take turns (BENCH_ROUNDS rounds), each round the
 * same number of distinct TRANSACTION_PAID deliveries from autocannon over HTTP, and the round
 * with the median ratio is printed with every round's ratio. Each delivery names a Pix charge the
 * console created, seeded into its ledger before the round (lib/ledger/synthetic/charges.ts): a
 * notification about a transaction the ledger does not have makes no row until the gateway's
 * lookup confirms it, so the deliveries update existing rows, as in production. Printed:
 * deliveries/s, p50/p99, non-2xx, stored vs sent, the ratio, CPU per delivery of each process (and,
 * each round, the WAL and shared-buffer hits and reads per delivery of either database), and
 * how long the console's asynchronous applier took to bring every stored event into the ledger
 * (and how many of the round's rows it reached).
 *
 * Then a paced run (BENCH_FEED_RATE deliveries/s for BENCH_FEED_SECONDS) measures how long after
 * each 2xx its applied event shows as a row on the activity page in Chromium, arrives on a
 * signed-in live feed stream (`GET /api/feed/stream`, the server-sent events the browser's feed
 * reads), and on the feed channel the stream listens to.
 *
 *   npm run bench:webhooks            env BENCH_DELIVERIES (20000 a round), BENCH_ROUNDS (3), BENCH_CONNECTIONS (32),
 *                                     BENCH_FEED_RATE (1000), BENCH_FEED_SECONDS (10),
 *                                     BENCH_PG_URL, BENCH_PORT (3390, and the next one for the baseline), BENCH_SKIP_BUILD=1 (with NEXT_DIST_DIR: that build), BENCH_CPU_PROF=<dir>,
 *                                     BENCH_WORKER=in-process|none, BENCH_BROWSER=0 (no Chromium phase),
 *                                     BENCH_WAL_DETAIL=1 (each round's WAL by relation and record type, pg_walinspect),
 *                                     WEBHOOK_FAST_PATH=off (the console's route handler instead of its fast path)
 */
import { spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "@playwright/test";
import autocannon from "autocannon";
import pg from "pg";
import { backgroundWorkerArgs } from "../run/background-worker-command.mjs";
import { CHROMIUM_ARGS, findChromium } from "../dev/chromium.mjs";
import { WEB_SERVER_NODE_FLAGS } from "../run/web-server-flags.mjs";
import { cookieHeader, openFeedStream, signIn } from "../dev/served-session";
import { seedLedger, type SeededCharge } from "@/lib/ledger/synthetic/charges";
import { cpuNow, cpuSpent, serveNode, stop, waitFor, type Children } from "./served";

declare global {
  interface Window {
    /** When the feed page first showed each event (set by the bench in its browser page only). */
    __seen?: Record<string, number>;
  }
}

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const baselineDir = path.join(root, "scripts/bench/baseline-app");
const nextBin = path.join(root, "node_modules/next/dist/bin/next");
const TOKEN = "wht_bench_served_0001";
const deliveries = Number(process.env.BENCH_DELIVERIES ?? 20_000);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const roundCount = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const warmup = Math.min(2_000, Math.ceil(deliveries / 10));
const feedRate = Number(process.env.BENCH_FEED_RATE ?? 1_000);
const feedSeconds = Number(process.env.BENCH_FEED_SECONDS ?? 10);
const FEED_CHANNEL = "console_feed";
const serverUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const children: Children = [];
const serve = (args: string[], cwd: string, env: Record<string, string>, label: string) =>
  serveNode(args, { cwd, env, label, children, stdout: "ignore" });
const cpuSnapshot = (servers: Parameters<typeof cpuNow>[0]) => cpuNow(servers, "load generator");
const cpuPerDelivery = cpuSpent;

function databaseUrl(name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function query<T>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

function build(dir: string, label: string, distDir = ".next"): void {
  if (process.env.BENCH_SKIP_BUILD && existsSync(path.join(dir, distDir, "BUILD_ID"))) return;
  console.log(`building ${label}…`);
  const result = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) throw new Error(`next build failed for ${label}`);
}

const createdAtOf = (index: number) => new Date(Date.UTC(2026, 10, 1) + index * 1000).toISOString();

/** The Pix charges the console created for a run's deliveries (one per index), as paidNotification names them. */
function chargesOf(run: string, count: number): SeededCharge[] {
  return Array.from({ length: count }, (_, index) => {
    const amountCents = 1000 + (index % 1000);
    return {
      gatewayTransactionId: `tx_${run}_${index}`,
      identifier: `bench-${run}-${index}`,
      amountCents,
      // What the gateway keeps of paidNotification's amount (its commissionAmount is 9.50).
      feeCents: amountCents - 950,
      createdAt: createdAtOf(index),
    };
  });
}

/**
 * Seeds the console's ledger with a run's charges; a few more than sent, as autocannon may start one
 * request per connection beyond. With `settle`, then waits until the worker has read the outbox rows
 * those inserts wrote (each charge's creation, which starts no event): they stand for charges
 * created before the burst, and left pending the worker read them during the console's round, work
 * of the seed and not of the deliveries (in a statement log of one worker, about a third of its
 * Postgres time).
 */
async function seedRun(url: string, accountId: string, run: string, count: number, { settle = false } = {}): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await seedLedger(client, accountId, chargesOf(run, count + connections));
    const started = Date.now();
    while (settle) {
      const { rows } = await client.query<{ pending: number }>("select count(*)::int as pending from event_outbox where state = 'pending'");
      if (rows[0].pending === 0) break;
      if (Date.now() - started > 120_000)
        throw new Error(`the worker left ${rows[0].pending} outbox rows of the seed pending for 2 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await client.end();
  }
}

function paidNotification(index: number, run: string): string {
  const createdAt = createdAtOf(index);
  return JSON.stringify({
    event: "TRANSACTION_PAID",
    token: TOKEN,
    offerCode: null,
    checkoutUrl: "",
    client: {
      id: `c${index}`,
      name: "Maria Souza",
      email: "maria@example.com",
      phone: "(11) 98888-7777",
      cpf: "529.982.247-25",
      cnpj: null,
    },
    transaction: {
      id: `tx_${run}_${index}`,
      identifier: `bench-${run}-${index}`,
      status: "COMPLETED",
      paymentMethod: "PIX",
      amount: 10 + (index % 1000) / 100,
      commissionAmount: 9.5,
      currency: "BRL",
      createdAt,
      payedAt: new Date(Date.parse(createdAt) + 30_000).toISOString(),
    },
    orderItems: [],
    trackProps: { isUpsell: false },
  });
}

type Percentiles = { heard: number; p50: number; p95: number; p99: number; max: number };
type FeedLatency = { rate: number; sent: number; acked: number; channel: Percentiles; stream: Percentiles; browser: Percentiles | null };

/**
 * The activity page in Chromium, signed in, live: notes (on the page, by the same wall clock as
 * this process) when each event's row first appears. Null when no Chromium is installed.
 */
async function openActivityPage(
  base: string,
  admin: { email: string; password: string },
): Promise<{ seen: () => Promise<Record<string, number>>; close: () => Promise<void> } | null> {
  const executablePath = findChromium();
  if (!executablePath || process.env.BENCH_BROWSER === "0") return null;
  const browser: Browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  let page: import("@playwright/test").Page;
  try {
    const context = await browser.newContext({ baseURL: base, locale: "pt-BR", timezoneId: "America/Sao_Paulo" });
    // Signed in through next-auth's credentials endpoint, as the sign-in form does.
    const { csrfToken } = (await (await context.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
    await context.request.post("/api/auth/callback/credentials", { form: { csrfToken, ...admin, json: "true" }, maxRedirects: 0 });
    page = await context.newPage();
    await page.goto(`${base}/activity`);
    await page.locator('[data-testid="feed-mode"][data-mode="live"]').waitFor({ timeout: 30_000 });
    await page.evaluate(() => {
      const seen: Record<string, number> = {};
      window.__seen = seen;
      new MutationObserver(() => {
        const now = Date.now();
        for (const row of document.querySelectorAll<HTMLElement>('[data-testid="feed-row"]')) {
          const id = row.dataset.eventId;
          if (id && !(id in seen)) seen[id] = now;
        }
      }).observe(document.body, { childList: true, subtree: true });
    });
  } catch (error) {
    await browser.close();
    throw error;
  }
  return {
    seen: () => page.evaluate(() => window.__seen ?? {}),
    close: () => browser.close(),
  };
}

function percentiles(ackedAt: Map<string, number>, heardAt: Map<string, number>): Percentiles {
  // A signal can arrive before autocannon reports the 2xx it belongs to: that counts as 0 ms.
  const latencies = [...ackedAt]
    .filter(([id]) => heardAt.has(id))
    .map(([id, at]) => Math.max(0, heardAt.get(id)! - at))
    .sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN);
  return { heard: latencies.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: at(1) };
}

/**
 * Paced deliveries; for each, the time from its 2xx to its "applied" signal on the feed channel
 * (what every console process hears), to the same event on a signed-in feed stream (what the
 * browser receives), and to its row on the activity page in Chromium (what a person sees; the
 * browser shares the machine's two cores with everything else here).
 */
async function feedLatency(
  url: string,
  base: string,
  dbUrl: string,
  admin: { email: string; password: string },
  run: string,
): Promise<FeedLatency> {
  const ackedAt = new Map<string, number>();
  const ackedWallClock = new Map<string, number>();
  const channelAt = new Map<string, number>();
  const streamAt = new Map<string, number>();
  const listener = new pg.Client({ connectionString: dbUrl });
  // The database is dropped at the end, whatever happened: that must not crash the benchmark.
  listener.on("error", () => {});
  let closeStream = () => {};
  let activityPage: Awaited<ReturnType<typeof openActivityPage>> = null;
  try {
    await listener.connect();
    listener.on("notification", (message) => {
      const now = performance.now();
      try {
        const signal = JSON.parse(message.payload ?? "{}") as { id?: string; applied?: boolean };
        if (signal.applied && signal.id && !channelAt.has(signal.id)) channelAt.set(signal.id, now);
      } catch {
        // not a feed signal
      }
    });
    await listener.query(`listen ${FEED_CHANNEL}`);
    const jar = await signIn(base, admin.email, admin.password);
    closeStream = await openFeedStream(base, cookieHeader(jar), (id, applied) => {
      if (!applied) return;
      if (!streamAt.has(id)) streamAt.set(id, performance.now());
    });
    activityPage = await openActivityPage(base, admin);
    let next = 0;
    await autocannon({
      url,
      connections,
      amount: feedRate * feedSeconds,
      overallRate: feedRate,
      method: "POST",
      headers: { "content-type": "application/json" },
      requests: [
        {
          setupRequest: (request) => ({ ...request, body: paidNotification(next++, run) }),
          onResponse: (status: number, body: string) => {
            if (status !== 200) return;
            const { id } = JSON.parse(body) as { id?: string };
            if (!id) return;
            ackedAt.set(id, performance.now());
            ackedWallClock.set(id, Date.now());
          },
        },
      ],
    });
    const deadline = Date.now() + 30_000;
    while ((channelAt.size < ackedAt.size || streamAt.size < ackedAt.size) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    let browser: Percentiles | null = null;
    if (activityPage) {
      let seen: Record<string, number> = {};
      const browserDeadline = Date.now() + 15_000;
      do {
        await new Promise((resolve) => setTimeout(resolve, 250));
        seen = await activityPage.seen();
      } while (Object.keys(seen).length < ackedAt.size && Date.now() < browserDeadline);
      browser = percentiles(ackedWallClock, new Map(Object.entries(seen)));
    }
    return {
      rate: feedRate,
      sent: feedRate * feedSeconds,
      acked: ackedAt.size,
      channel: percentiles(ackedAt, channelAt),
      stream: percentiles(ackedAt, streamAt),
      browser,
    };
  } finally {
    closeStream();
    await activityPage?.close();
    await listener.end().catch(() => {});
  }
}

/** WAL written so far (the whole server) and this database's shared-buffer hits and reads (a read is a miss). */
type PostgresWork = { wal: number; lsn: string; hit: number; read: number };

async function postgresWork(url: string): Promise<PostgresWork> {
  const [row] = await query<Record<keyof PostgresWork, string>>(
    url,
    `select pg_current_wal_lsn() - '0/0' as wal, pg_current_wal_lsn()::text as lsn,
       sum(heap_blks_hit + coalesce(idx_blks_hit, 0) + coalesce(toast_blks_hit, 0) + coalesce(tidx_blks_hit, 0)) as hit,
       sum(heap_blks_read + coalesce(idx_blks_read, 0) + coalesce(toast_blks_read, 0) + coalesce(tidx_blks_read, 0)) as read
     from pg_statio_user_tables`,
  );
  return { wal: Number(row.wal), lsn: row.lsn, hit: Number(row.hit), read: Number(row.read) };
}

/** BENCH_WAL_DETAIL=1: the WAL of a window by relation and record type (pg_walinspect), per delivery. */
async function walDetail(url: string, from: PostgresWork, to: PostgresWork, count: number): Promise<string> {
  await query(url, "create extension if not exists pg_walinspect");
  const rows = await query<{ what: string; types: string; n: string; bytes: string; fpi: string }>(
    url,
    `select what, string_agg(record_type || ' ' || round(n::numeric / ${count}, 2) || ' × ' || round(bytes::numeric / n) || ' B', ', ' order by bytes desc) as types,
       sum(n) as n, sum(bytes) as bytes, sum(fpi) as fpi
     from (select coalesce(c.relname, b.node::text, r.resource_manager) as what, r.resource_manager || '/' || r.record_type as record_type,
             count(*) as n, sum(r.record_length) as bytes, sum(r.fpi_length) as fpi
           from pg_get_wal_records_info('${from.lsn}', least('${to.lsn}'::pg_lsn, pg_current_wal_flush_lsn())) r
           left join lateral (select (regexp_match(r.block_ref, 'rel \\d+/\\d+/(\\d+)'))[1]::oid as node) b on true
           left join pg_class c on c.relfilenode = b.node
           group by 1, 2) t
     group by what order by sum(bytes) desc`,
  );
  const hot = await query<{ relname: string; upd: string; hot: string }>(
    url,
    `select relname, n_tup_upd as upd, n_tup_hot_upd as hot from pg_stat_user_tables where relname in ('ledger_transactions', 'gateway_notifications') order by relname`,
  );
  const inPlace = hot.map((t) => `${t.relname} ${t.hot} of ${t.upd} since the start`).join(", ");
  return (
    `    updates in place (HOT): ${inPlace}\n` +
    rows
      .map(
        (r) =>
          `    ${r.what.padEnd(36)} ${(Number(r.bytes) / count).toFixed(0).padStart(6)} B (fpi ${(Number(r.fpi) / count).toFixed(0)}) ${(Number(r.n) / count).toFixed(2)} rec: ${r.types}`,
      )
      .join("\n")
  );
}

function postgresWorkPerDelivery(before: PostgresWork, after: PostgresWork, count: number): string {
  const per = (key: "wal" | "hit" | "read") => (after[key] - before[key]) / count;
  return `WAL ${(per("wal") / 1024).toFixed(1)} KB, buffers ${per("hit").toFixed(0)} hit / ${per("read").toFixed(2)} read`;
}

type Round = {
  baseline: Load;
  baselineStored: number;
  baselineCpu: string;
  console: Load;
  consoleStored: number;
  consoleCpu: string;
  drainMs: number;
  ledger: number;
  pending: number;
};

type Load = { perSecond: number; p50: number; p99: number; non2xx: number; errors: number; sent: number; seconds: number };

async function load(url: string, count: number, run: string): Promise<Load> {
  let next = 0;
  // Timed here, from the first request to the last answer: autocannon's own duration ends on
  // its one-second tick, which moved a 13 s run's rate by up to 8 %.
  let started = 0;
  let lastAnswer = 0;
  let answered = 0;
  const result = await autocannon({
    url,
    connections,
    amount: count,
    method: "POST",
    headers: { "content-type": "application/json" },
    requests: [
      {
        setupRequest: (request) => {
          if (next === 0) started = performance.now();
          return { ...request, body: paidNotification(next++, run) };
        },
        onResponse: () => {
          answered++;
          lastAnswer = performance.now();
        },
      },
    ],
  });
  const seconds = (lastAnswer - started) / 1000;
  return {
    perSecond: Math.round(answered / seconds),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    sent: result.requests.sent,
    seconds,
  };
}

async function main(): Promise<void> {
  const suffix = randomBytes(4).toString("hex");
  const consoleDb = `bench_console_${suffix}`;
  const baselineDb = `bench_baseline_${suffix}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-served-"));
  const consolePort = Number(process.env.BENCH_PORT ?? 3390);
  const baselinePort = consolePort + 1;
  console.log(
    `Webhook receiver through the served apps: ${roundCount} rounds of ${deliveries} distinct TRANSACTION_PAID deliveries each, ${connections} connections, Postgres ${new URL(serverUrl).host}`,
  );
  console.log(`machine: ${cpus().length} cores, load average before ${loadavg()[0].toFixed(2)}`);
  console.log(
    `the console answers deliveries ${process.env.WEBHOOK_FAST_PATH === "off" ? "through Next.js's route handler (WEBHOOK_FAST_PATH=off)" : "on its fast path, before Next.js (lib/notifications/fast-path.ts)"}`,
  );

  // The console's build directory honours NEXT_DIST_DIR (next.config.mjs); the baseline's is always .next.
  build(root, "the console", process.env.NEXT_DIST_DIR || ".next");
  build(baselineDir, "the baseline route handler");
  await adminQuery(`create database ${consoleDb}`);
  await adminQuery(`create database ${baselineDb}`);
  try {
    await query(
      databaseUrl(baselineDb),
      "create table bench_baseline_events (dedupe_key text primary key, payload jsonb not null, received_at timestamptz not null default now())",
    );
    // Both web servers run with the Node.js flags `npm start` gives the console's.
    const baseline = serve(
      [...WEB_SERVER_NODE_FLAGS, nextBin, "start", "-p", String(baselinePort)],
      baselineDir,
      { BENCH_BASELINE_DATABASE_URL: databaseUrl(baselineDb), BENCH_TOKEN: TOKEN },
      "baseline",
    );
    const baselineUrl = `http://127.0.0.1:${baselinePort}/api/hook`;
    await waitFor(baselineUrl, baseline);

    // As `npm start` serves it: `next start` with the client-address hook preloaded.
    const consoleEnv = {
      PORT: String(consolePort),
      DATABASE_URL: databaseUrl(consoleDb),
      DATA_DIR: dataDir,
      APP_URL: `http://localhost:${consolePort}`,
      NEXTAUTH_URL: `http://localhost:${consolePort}`,
      APP_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
      GATEWAY_BASE_URL: "http://127.0.0.1:9",
      GATEWAY_PUBLIC_KEY: "pk_bench",
      GATEWAY_SECRET_KEY: "sk_bench_secret",
      GATEWAY_WEBHOOK_TOKEN: TOKEN,
      GATEWAY_ACCOUNT_NAME: "Bench",
      GATEWAY_MODE: "test",
      SEED_ADMIN_EMAIL: "bench@example.com",
      SEED_ADMIN_PASSWORD: randomUUID(),
    };
    // As `npm start` runs it on Postgres: the background work in a process of its own
    // (BENCH_WORKER=in-process keeps it in the web process, as before).
    const separateWorker = process.env.BENCH_WORKER !== "in-process";
    const consoleServer = serve(
      [
        ...WEB_SERVER_NODE_FLAGS,
        "--import",
        pathToFileURL(path.join(root, "scripts/run/client-address-hook.mjs")).href,
        nextBin,
        "start",
        "-p",
        String(consolePort),
      ],
      root,
      separateWorker ? { ...consoleEnv, RECONCILER: "worker" } : consoleEnv,
      "console",
    );
    await waitFor(`http://127.0.0.1:${consolePort}/sign-in`, consoleServer);
    // BENCH_WORKER=none: the receiver alone, nothing applied (to see what the store costs by itself).
    const worker =
      separateWorker && process.env.BENCH_WORKER !== "none" ? serve(backgroundWorkerArgs(root), root, consoleEnv, "worker") : undefined;
    const [{ id: accountId }] = await query<{ id: string }>(
      databaseUrl(consoleDb),
      "select id from gateway_accounts where source = 'env' limit 1",
    );
    const consoleUrl = `http://127.0.0.1:${consolePort}/api/webhooks/${accountId}`;
    const applies = worker !== undefined || !separateWorker;
    const consoleParties = { server: consoleServer, worker };
    await seedRun(databaseUrl(consoleDb), accountId, `warm-${suffix}`, warmup);
    await load(baselineUrl, warmup, `warm-${suffix}`);
    await load(consoleUrl, warmup, `warm-${suffix}`);

    // Rounds in turn, so that neither app always meets the machine first. While the baseline runs,
    // the console's worker is paused: its confirmations (to a gateway that is not there) would
    // otherwise keep running beside the baseline.
    const rounds: Round[] = [];
    for (let round = 1; round <= roundCount; round++) {
      await seedRun(databaseUrl(consoleDb), accountId, `cons${round}-${suffix}`, deliveries, { settle: worker !== undefined });
      worker?.kill("SIGSTOP");
      const baselineWorkBefore = await postgresWork(databaseUrl(baselineDb));
      const baselineCpuBefore = cpuSnapshot({ server: baseline });
      const baselineLoad = await load(baselineUrl, deliveries, `base${round}-${suffix}`);
      const baselineCpu = cpuPerDelivery(baselineCpuBefore, cpuSnapshot({ server: baseline }), deliveries);
      const baselineWork = postgresWorkPerDelivery(baselineWorkBefore, await postgresWork(databaseUrl(baselineDb)), deliveries);
      const [{ n: baselineStored }] = await query<{ n: number }>(
        databaseUrl(baselineDb),
        `select count(*)::int as n from bench_baseline_events where payload->'transaction'->>'id' like 'tx_base${round}-%'`,
      );
      worker?.kill("SIGCONT");

      const consoleWorkBefore = await postgresWork(databaseUrl(consoleDb));
      const consoleCpuBefore = cpuSnapshot(consoleParties);
      const consoleLoad = await load(consoleUrl, deliveries, `cons${round}-${suffix}`);
      const consoleCpu = cpuPerDelivery(consoleCpuBefore, cpuSnapshot(consoleParties), deliveries);
      const consoleWork = postgresWorkPerDelivery(consoleWorkBefore, await postgresWork(databaseUrl(consoleDb)), deliveries);
      const ackedAt = Date.now();
      const stored = async () =>
        (
          await query<{ events: number; pending: number; ledger: number }>(
            databaseUrl(consoleDb),
            `select count(*)::int as events, count(*) filter (where apply_state = 'pending')::int as pending,
               (select count(*)::int from ledger_transactions where gateway_transaction_id like 'tx_cons${round}-%' and last_webhook_at is not null) as ledger
             from gateway_notifications where gateway_transaction_id like 'tx_cons${round}-%'`,
          )
        )[0];
      let counts = await stored();
      while (counts.pending > 0 && applies && Date.now() - ackedAt < 120_000) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        counts = await stored();
      }
      if (process.env.BENCH_WAL_DETAIL === "1")
        console.log(
          `  console WAL by relation, per delivery (to the drain):\n${await walDetail(databaseUrl(consoleDb), consoleWorkBefore, await postgresWork(databaseUrl(consoleDb)), deliveries)}`,
        );
      rounds.push({
        baseline: baselineLoad,
        baselineStored,
        baselineCpu,
        console: consoleLoad,
        consoleStored: counts.events,
        consoleCpu,
        drainMs: Date.now() - ackedAt,
        ledger: counts.ledger,
        pending: counts.pending,
      });
      console.log(
        `round ${round}: baseline ${baselineLoad.perSecond}/s, console ${consoleLoad.perSecond}/s, ${(consoleLoad.perSecond / baselineLoad.perSecond).toFixed(2)}×\n` +
          `  per delivery, baseline: CPU ms ${baselineCpu}; ${baselineWork}\n` +
          `  per delivery, console: CPU ms ${consoleCpu}; ${consoleWork}`,
      );
    }
    await stop(baseline);
    // BENCH_FEED_SECONDS=0: the receiver's rounds only.
    if (feedSeconds > 0)
      await seedRun(databaseUrl(consoleDb), accountId, `feed-${suffix}`, feedRate * feedSeconds, { settle: worker !== undefined });
    const feed =
      feedSeconds > 0
        ? await feedLatency(
            consoleUrl,
            `http://localhost:${consolePort}`,
            databaseUrl(consoleDb),
            { email: consoleEnv.SEED_ADMIN_EMAIL, password: consoleEnv.SEED_ADMIN_PASSWORD },
            `feed-${suffix}`,
          )
        : null;
    await stop(consoleServer);

    // The round with the median ratio stands for the run; every round's ratio is printed too.
    const ratio = (r: Round) => r.console.perSecond / r.baseline.perSecond;
    const median = [...rounds].sort((a, b) => ratio(a) - ratio(b))[Math.floor(rounds.length / 2)];
    const row = (name: string, l: Load, storedCount: number) =>
      `| ${name} | ${l.perSecond.toLocaleString("en-US")} | ${l.p50} ms | ${l.p99} ms | ${l.non2xx + l.errors} | ${storedCount} / ${deliveries} |`;
    console.log(`\nthe median round of ${rounds.length} (${deliveries} deliveries each):`);
    console.log("\n| receiver (served, Postgres) | deliveries/s | p50 | p99 | non-2xx or errors | stored / sent |");
    console.log("|---|---|---|---|---|---|");
    console.log(row("minimal Next route handler, `next start`", median.baseline, median.baselineStored));
    console.log(row("the console's receiver, `npm start`", median.console, median.consoleStored));
    console.log(`\nratio console / baseline: ${ratio(median).toFixed(2)}× (rounds: ${rounds.map((r) => ratio(r).toFixed(2)).join(", ")})`);
    console.log(`CPU ms per delivery during the load: baseline: ${median.baselineCpu}; console: ${median.consoleCpu}`);
    const lost = rounds.reduce((sum, r) => sum + Math.max(0, deliveries - r.consoleStored), 0);
    const duplicated = rounds.reduce((sum, r) => sum + Math.max(0, r.consoleStored - deliveries), 0);
    console.log(
      `applier: every stored event in the ledger ${rounds.map((r) => `${r.drainMs} ms`).join(", ")} after each round's last acknowledgement (${rounds.map((r) => r.ledger).join(", ")} ledger rows, ${rounds.reduce((sum, r) => sum + r.pending, 0)} still pending)`,
    );
    console.log(
      `over all rounds: lost ${lost}, duplicated ${duplicated}; worst console p99 ${Math.max(...rounds.map((r) => r.console.p99))} ms; load average after ${loadavg()[0].toFixed(2)}`,
    );
    const line = (p: Percentiles) => `p50 ${p.p50} ms, p95 ${p.p95} ms, p99 ${p.p99} ms, max ${p.max} ms (${p.heard} heard)`;
    if (!feed) return;
    console.log(
      `feed: at ${feed.rate}/s for ${feedSeconds} s, ${feed.acked}/${feed.sent} acknowledged; from each 2xx to its applied event`,
    );
    if (feed.browser)
      console.log(`  as a row on the activity page in Chromium (what a person sees; the list keeps the newest 100): ${line(feed.browser)}`);
    console.log(`  on a signed-in feed stream (GET /api/feed/stream, what the browser receives): ${line(feed.stream)}`);
    console.log(`  on the feed channel (pg LISTEN, what every console process hears): ${line(feed.channel)}`);
  } finally {
    for (const child of children) await stop(child);
    await adminQuery(`drop database if exists ${consoleDb} with (force)`).catch(() => {});
    await adminQuery(`drop database if exists ${baselineDb} with (force)`).catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  }
}

for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => children.forEach((c) => c.kill("SIGKILL")));
main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
