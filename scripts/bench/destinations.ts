/**
 * Event destinations through the served app on Postgres: the production build as `npm start`
 * serves it (`next start`, RECONCILER=worker, and the background worker beside it), a gateway
 * stand-in that confirms every lookup at once, and two local receivers that verify every delivery
 * with the `standardwebhooks` library. The worker is started and its ready line awaited first. Phases:
 *
 *   0. warm-up: BENCH_WARMUP confirmed facts as in 1., printed on their own: what the first events
 *      after a start meet, before the code is optimised and the connections and plans are made.
 *   1. fan-out: BENCH_EVENTS confirmed facts at BENCH_RATE a second, committed as the reconciler
 *      commits a confirmation (a ledger row turns paid from the gateway's lookup, one transaction
 *      each, its outbox row written by the trigger in that transaction); the served app publishes
 *      each charge.paid and sends it to both receivers. Printed: deliveries/s, the time from each
 *      confirmation (the outbox row's commit-time clock) to its arrival (p50/p95/p99), lost and
 *      duplicated deliveries.
 *   2. the whole chain: BENCH_CHAIN_EVENTS TRANSACTION_PAID notifications at BENCH_CHAIN_RATE a
 *      second to the console's receiver, each about a Pix charge the console created (seeded into
 *      the ledger first: a notification about a transaction the ledger does not have makes no row
 *      until the gateway's lookup confirms it); the worker applies them, confirms each with the
 *      gateway's lookup and delivers its event. Printed: the time from each notification's 2xx to
 *      its charge.paid at the receivers, and how many arrived.
 *
 *   npm run bench:destinations   env BENCH_EVENTS (10000), BENCH_RATE (500), BENCH_WARMUP (1000), BENCH_QUIET_MS (0: a pause
 *                                between the warm-up and the fan-out, as after a quiet moment), BENCH_CHAIN_EVENTS (2000),
 *                                BENCH_CHAIN_RATE (100), BENCH_PG_URL, BENCH_SKIP_BUILD=1, BENCH_CPU_PROF=<dir>
 */
import { spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import http, { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import process from "node:process";
import pg from "pg";
import { Webhook } from "standardwebhooks";
import { seedLedger } from "@/lib/ledger/synthetic/charges";
import {
  cpuNow,
  cpuSpent,
  databaseUrl as databaseOn,
  nextBin,
  paced,
  pct,
  root,
  serveConsole,
  serveWorker,
  sql,
  waitFor,
  workerReady,
} from "./served";
import { CONFIRM_BY_IDENTIFIERS, CONSOLE_PIX_CHARGES } from "@/lib/ledger/synthetic/charges";

const events = Number(process.env.BENCH_EVENTS ?? 10_000);
const rate = Number(process.env.BENCH_RATE ?? 500);
const serverUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const TOKEN = "wht_bench_destinations_01";
const children: ChildProcess[] = [];

const databaseUrl = (name: string) => databaseOn(serverUrl, name);

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The gateway's lookup, as the family answers it: every transaction asked about is paid. */
function gatewayStandIn(): Server {
  return createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://gateway");
    const id = url.searchParams.get("id") ?? "";
    const index = id.split("_").pop();
    response.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id,
        clientIdentifier: `bench-${index}`,
        currency: "BRL",
        amount: 97,
        chargeAmount: 97,
        status: "COMPLETED",
        paymentMethod: "PIX",
        createdAt: "2026-11-20T12:00:00.000Z",
        payedAt: "2026-11-20T12:00:30.000Z",
      }),
    );
  });
}

type Receiver = { server: Server; arrivals: Map<string, number>; duplicates: number; unverified: number; secret: string };

/** A producer's system: verifies each delivery with the standardwebhooks library, notes when it arrived. */
function receiver(): Receiver {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const at = Date.now();
      const body = Buffer.concat(chunks).toString("utf8");
      try {
        new Webhook(state.secret).verify(body, request.headers as Record<string, string>);
      } catch {
        state.unverified++;
      }
      const id = String(request.headers["webhook-id"]);
      if (state.arrivals.has(id)) state.duplicates++;
      else state.arrivals.set(id, at);
      response.writeHead(204).end();
    });
  });
  const state: Receiver = { server, arrivals: new Map(), duplicates: 0, unverified: 0, secret: "" };
  return state;
}

function paid(index: number): string {
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
      id: `tx_bench_${index}`,
      identifier: `bench-${index}`,
      status: "COMPLETED",
      paymentMethod: "PIX",
      amount: 97,
      currency: "BRL",
      createdAt: "2026-11-20T12:00:00.000Z",
      payedAt: "2026-11-20T12:00:30.000Z",
    },
    orderItems: [],
    trackProps: { isUpsell: false, utm_source: "bench" },
  });
}

type Row = { label: string; latencies: number[]; arrivals: number; expected: number; duplicates: number; unverified: number; span: number };

function report(rows: Row[], what: string): void {
  console.log(`\n| receiver | received / expected | deliveries/s | ${what} p50 | p95 | p99 | lost | duplicated | unverified |`);
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const r of rows) {
    const sorted = [...r.latencies].sort((a, b) => a - b);
    console.log(
      `| ${r.label} | ${r.arrivals} / ${r.expected} | ${Math.round(r.arrivals / Math.max(r.span, 0.001))} | ${pct(sorted, 0.5)} ms | ${pct(sorted, 0.95)} ms | ${pct(sorted, 0.99)} ms | ${r.expected - r.arrivals} | ${r.duplicates} | ${r.unverified} |`,
    );
  }
}

/** Waits until every one of `expected` events (as published so far) reached every receiver, or the time is up. */
async function settle(receivers: Receiver[], published: () => Promise<string[]>, expected: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ids = await published();
    if (ids.length >= expected && receivers.every((r) => ids.every((id) => r.arrivals.has(id)))) break;
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  // A moment more: a duplicate would show now.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
}

async function main(): Promise<void> {
  if (!process.env.BENCH_SKIP_BUILD || !existsSync(path.join(root, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID"))) {
    console.log("building the console…");
    if (spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] }).status !== 0)
      throw new Error("next build failed");
  }
  const warmup = Number(process.env.BENCH_WARMUP ?? 1_000);
  const quietMs = Number(process.env.BENCH_QUIET_MS ?? 0);
  const chainEvents = Number(process.env.BENCH_CHAIN_EVENTS ?? 2_000);
  const chainRate = Number(process.env.BENCH_CHAIN_RATE ?? 100);
  const db = `bench_destinations_${randomBytes(4).toString("hex")}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-destinations-"));
  const port = 3392;
  const gateway = gatewayStandIn();
  const receivers = [receiver(), receiver()];
  console.log(`Event destinations through the served app (npm start on Postgres ${new URL(serverUrl).host}), 2 receivers`);
  console.log(`machine: ${cpus().length} cores, load average before ${loadavg()[0].toFixed(2)}`);
  await sql(serverUrl, `create database ${db}`);
  try {
    const env = {
      PORT: String(port),
      DATABASE_URL: databaseUrl(db),
      DATA_DIR: dataDir,
      APP_URL: `http://localhost:${port}`,
      NEXTAUTH_URL: `http://localhost:${port}`,
      APP_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
      GATEWAY_BASE_URL: await listen(gateway),
      GATEWAY_PUBLIC_KEY: "pk_bench",
      GATEWAY_SECRET_KEY: "sk_bench_secret",
      GATEWAY_WEBHOOK_TOKEN: TOKEN,
      GATEWAY_ACCOUNT_NAME: "Bench",
      GATEWAY_MODE: "test",
      SEED_ADMIN_EMAIL: "bench@example.com",
      SEED_ADMIN_PASSWORD: randomUUID(),
    };
    const web = serveConsole(port, { ...env, RECONCILER: "worker" }, children);
    await waitFor(`http://127.0.0.1:${port}/sign-in`, web);
    const worker = serveWorker(env, children);
    await workerReady(worker);
    const parties = { "web server": web, worker };
    const [{ id: accountId }] = await sql<{ id: string }>(env.DATABASE_URL, "select id from gateway_accounts where source = 'env' limit 1");

    // The two destinations, made as the destinations page makes them (lib/destinations/queries.ts).
    Object.assign(process.env, { DATABASE_URL: env.DATABASE_URL, APP_ENCRYPTION_KEY: env.APP_ENCRYPTION_KEY, DATA_DIR: dataDir });
    const { createDestination } = await import("@/lib/destinations/queries");
    const { closeDb, poolOptions } = await import("@/lib/db/client");
    for (const [i, r] of receivers.entries()) {
      const url = `${await listen(r.server)}/hook`;
      r.secret = (
        await createDestination(
          accountId,
          { url, description: `receiver ${i + 1}`, allTypes: false, eventTypes: ["charge.paid"] },
          { id: "bench", email: "bench@example.com" },
          null,
        )
      ).secret;
    }
    await closeDb();

    // ── 0. warm-up and 1. fan-out ────────────────────────────────────────────────────────────
    // The reconciler's connections, kept as the console keeps its own.
    const pool = new pg.Pool({ connectionString: env.DATABASE_URL, ...poolOptions(), max: 8 });
    const batch = 5;
    /** `count` charges the console created, then confirmed at `rate` a second (the rows go in first, not timed). */
    const confirmFacts = async (prefix: string, count: number): Promise<number> => {
      await pool.query(CONSOLE_PIX_CHARGES, [accountId, prefix, count]);
      return paced(count / batch, rate / batch, async (tick) => {
        const identifiers = Array.from({ length: batch }, (_, k) => `${prefix}${tick * batch + k}`);
        await pool.query(CONFIRM_BY_IDENTIFIERS, [accountId, identifiers]);
      });
    };
    const factIds = async (prefix: string) =>
      (
        await pool.query<{ id: string; at: string }>(
          `select id, (extract(epoch from occurred_at) * 1000)::float8::text as at from event_outbox where type = 'charge.paid' and snapshot->>'identifier' like $1`,
          [`${prefix}%`],
        )
      ).rows;
    const rowsFor = (ids: Map<string, number>, expected: number): Row[] =>
      receivers.map((r, i) => {
        const mine = [...r.arrivals].filter(([id]) => ids.has(id));
        const times = mine.map(([, at]) => at).sort((a, b) => a - b);
        return {
          label: String(i + 1),
          latencies: mine.map(([id, at]) => at - ids.get(id)!),
          arrivals: mine.length,
          expected,
          duplicates: r.duplicates,
          unverified: r.unverified,
          span: ((times.at(-1) ?? 0) - (times[0] ?? 0)) / 1000,
        };
      });
    /** Confirms `count` facts and waits for their events at both receivers: the table of what arrived. */
    const fanOut = async (prefix: string, count: number): Promise<void> => {
      const seconds = await confirmFacts(prefix, count);
      console.log(`   committed in ${seconds.toFixed(1)} s (${Math.round(count / seconds)}/s)`);
      await settle(receivers, async () => (await factIds(prefix)).map((f) => f.id), count, 180_000);
      report(rowsFor(new Map((await factIds(prefix)).map((f) => [f.id, Number(f.at)])), count), "confirmation → arrival");
    };

    // A console that has run for a while, as producers' systems meet it: the first few hundred
    // events after a start wait for code still being optimised and for connections and plans still
    // being made (measured here, and left out of the fan-out's figures).
    if (warmup > 0) {
      console.log(`\n0. warm-up, just after the start: ${warmup} confirmed facts at ${rate}/s, the same way as below`);
      await fanOut("warm-", warmup);
    }
    if (quietMs > 0) {
      console.log(`\n   a quiet moment of ${quietMs / 1000} s before the fan-out`);
      await new Promise((resolve) => setTimeout(resolve, quietMs));
    }
    console.log(
      `\n1. fan-out: ${events} confirmed facts at ${rate}/s, committed as the reconciler commits a confirmation (one transaction each, ${batch} rows)`,
    );
    const fanCpu = cpuNow(parties, "bench (receivers, load)");
    await fanOut("fan-", events);
    console.log(
      `   CPU ms per event (2 deliveries each), until the last arrival: ${cpuSpent(fanCpu, cpuNow(parties, "bench (receivers, load)"), events)}`,
    );

    // ── 2. the whole chain ───────────────────────────────────────────────────────────────────
    const wholeChain = async () => {
      // The charges the notifications are about, as the console recorded them when it created them (not timed).
      await seedLedger(
        pool,
        accountId,
        Array.from({ length: chainEvents }, (_, index) => ({
          gatewayTransactionId: `tx_bench_${index}`,
          identifier: `bench-${index}`,
          amountCents: 9700,
          createdAt: "2026-11-20T12:00:00.000Z",
        })),
      );
      console.log(
        `\n2. the whole chain: ${chainEvents} TRANSACTION_PAID notifications at ${chainRate}/s → applied → confirmed by the gateway's lookup → delivered`,
      );
      const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
      const acked = new Map<string, number>();
      let non2xx = 0;
      const chainCpu = cpuNow(parties, "bench (receivers, load)");
      const chainSeconds = await paced(
        chainEvents,
        chainRate,
        (index) =>
          new Promise<void>((resolve) => {
            const body = paid(index);
            const request = http.request(
              `http://127.0.0.1:${port}/api/webhooks/${accountId}`,
              { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
              (response) => {
                response.resume();
                response.on("end", () => {
                  if (response.statusCode === 200) acked.set(`bench-${index}`, Date.now());
                  else non2xx++;
                  resolve();
                });
              },
            );
            request.on("error", () => {
              non2xx++;
              resolve();
            });
            request.end(body);
          }),
      );
      console.log(`   ${acked.size} acknowledged in ${chainSeconds.toFixed(1)} s, non-2xx or errors ${non2xx}`);
      const chainIds = async () =>
        (
          await pool.query<{ id: string; identifier: string }>(
            `select id, snapshot->>'identifier' as identifier from event_outbox where type = 'charge.paid' and snapshot->>'identifier' like 'bench-%'`,
          )
        ).rows;
      await settle(receivers, async () => (await chainIds()).map((c) => c.id), chainEvents, 300_000);
      const chain = await chainIds();
      const chainAt = new Map(chain.filter((c) => acked.has(c.identifier)).map((c) => [c.id, acked.get(c.identifier)!]));
      report(rowsFor(chainAt, chainEvents), "notification 2xx → arrival");
      console.log(
        `   CPU ms per notification, until the last arrival: ${cpuSpent(chainCpu, cpuNow(parties, "bench (receivers, load)"), chainEvents)}`,
      );
      agent.destroy();
    };
    if (chainEvents > 0) await wholeChain();
    const [attempts] = (
      await pool.query<{ attempts: number; failed: number }>(
        "select count(*)::int as attempts, count(*) filter (where http_status is null or http_status >= 300)::int as failed from destination_attempts",
      )
    ).rows;
    console.log(
      `\nattempts logged: ${attempts!.attempts} (${attempts!.failed} without a 2xx); load average after ${loadavg()[0].toFixed(2)}`,
    );
    await pool.end();
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    gateway.close();
    for (const r of receivers) r.server.close();
    await sql(serverUrl, `drop database if exists ${db} with (force)`).catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
