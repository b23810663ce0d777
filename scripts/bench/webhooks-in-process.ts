/**
 * Webhook ingestion benchmark: the console's real receiver (`handleWebhookRequest`, the same
 * function `app/api/webhooks/[accountId]/route.ts` calls) mounted in a bare node:http server in a
 * child process, loaded over HTTP from this process at a fixed concurrency, once on PGlite (temp
 * data dir) and once on Postgres (a temp database created and dropped on BENCH_PG_URL).
 *
 *   npm run bench:webhooks -- [deliveries] [concurrency]
 *   env BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/test), BENCH_TARGETS=pglite,postgres
 *
 * Deliveries are distinct notifications (TRANSACTION_CREATED then TRANSACTION_PAID per transaction:
 * two updates of its ledger row) plus ~10 % repeats of earlier ones. Each names a charge the console
 * created, seeded into the ledger before the load (lib/ledger/synthetic/charges.ts): a notification
 * about a transaction the ledger does not have makes no row until the gateway's lookup confirms it,
 * so the deliveries update existing rows, as in production. At the end the stored events must equal
 * the distinct notifications sent and their delivery counters the deliveries sent.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import process from "node:process";
import readline from "node:readline";
import { Readable } from "node:stream";
import { seedLedgerSql, type SeededCharge } from "@/lib/ledger/synthetic/charges";

const TOKEN = "wht_bench_token_0001";

// ---------------------------------------------------------------------------
// Child: the receiver behind node:http
// ---------------------------------------------------------------------------

async function serve(): Promise<void> {
  const { createAccount } = await import("@/lib/accounts/queries");
  const { handleWebhookRequest } = await import("@/lib/notifications/http");
  const { getDb, closeDb } = await import("@/lib/db/client");
  const { sql } = await import("drizzle-orm");
  const account = await createAccount(
    {
      name: "Bench",
      baseUrl: "https://gw.example",
      publicKey: "pk_bench",
      secretKey: "sk_bench_secret",
      webhookToken: TOKEN,
      mode: "test",
    },
    null,
  );

  const server = http.createServer(async (req, res) => {
    try {
      if (req.method === "GET" && req.url === "/__bench/cpu") {
        const usage = process.cpuUsage();
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ cpuMs: (usage.user + usage.system) / 1000 }));
        return;
      }
      if (req.method === "POST" && req.url === "/__bench/seed") {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const charges = JSON.parse(Buffer.concat(chunks).toString("utf8")) as SeededCharge[];
        const db = await getDb();
        for (let i = 0; i < charges.length; i += 5_000) await db.execute(seedLedgerSql(account.id, charges.slice(i, i + 5_000)));
        res.writeHead(204).end();
        return;
      }
      if (req.method === "GET" && req.url === "/__bench/count") {
        const db = await getDb();
        const result = await db.execute<Record<string, number>>(sql`
          select (select count(*)::int from gateway_notifications where account_id = ${account.id}) as events,
                 (select coalesce(sum(deliveries), 0)::int from gateway_notifications where account_id = ${account.id}) as deliveries,
                 (select count(*)::int from ledger_transactions where account_id = ${account.id} and last_webhook_at is not null) as ledger,
                 (select count(*)::int from ledger_transactions where account_id = ${account.id} and status = 'COMPLETED') as paid
        `);
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(result.rows[0]));
        return;
      }
      const match = /^\/api\/webhooks\/([^/?]+)/.exec(req.url ?? "");
      if (req.method !== "POST" || !match) {
        res.writeHead(404).end();
        return;
      }
      // As Next.js does: a web Request over the incoming stream, the peer address in X-Forwarded-For.
      const headers = new Headers();
      for (const [key, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(key, value);
      headers.set("x-forwarded-for", req.socket.remoteAddress ?? "");
      const request = new Request(`http://bench${req.url}`, {
        method: "POST",
        headers,
        body: Readable.toWeb(req),
        duplex: "half",
      } as RequestInit);
      const response = await handleWebhookRequest(request, decodeURIComponent(match[1]));
      res.writeHead(response.status, { "content-type": "application/json" }).end(await response.text());
    } catch (error) {
      console.error(error);
      res.writeHead(500).end();
    }
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as { port: number };
    console.log(JSON.stringify({ ready: true, port, accountId: account.id }));
  });
  const stop = async () => {
    server.close();
    const { stopFeedListener } = await import("@/lib/feed/bus");
    await stopFeedListener();
    await closeDb();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
}

// ---------------------------------------------------------------------------
// Parent: load generator and report
// ---------------------------------------------------------------------------

type Target = { name: "pglite" | "postgres"; env: Record<string, string>; cleanup: () => Promise<void> };

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function notification(event: string, txId: string, index: number, run: string) {
  const created = new Date(Date.UTC(2026, 10, 1) + index * 1000).toISOString();
  const paid = event === "TRANSACTION_PAID";
  return {
    event,
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
      id: txId,
      identifier: `bench-${run}${index}`,
      status: paid ? "COMPLETED" : "OK",
      paymentMethod: index % 3 === 0 ? "CREDIT_CARD" : "PIX",
      amount: 10 + (index % 1000) / 100,
      commissionAmount: 9.5,
      currency: "BRL",
      createdAt: created,
      payedAt: paid ? new Date(Date.parse(created) + 30_000).toISOString() : null,
    },
    orderItems: [],
    trackProps: { isUpsell: false, ip: null, user_agent: null },
  };
}

/** Distinct notifications in a realistic order, with ~10 % repeats of recent ones interleaved; `charges`: the transactions they name. */
function buildDeliveries(total: number, run: string): { bodies: string[]; distinct: number; keys: string[]; charges: SeededCharge[] } {
  const repeats = Math.floor(total / 10);
  const distinct = total - repeats;
  const transactions = Math.ceil(distinct / 2);
  const bodies: string[] = [];
  const keys: string[] = [];
  const distinctBodies: string[] = [];
  const charges: SeededCharge[] = [];
  for (let i = 0; i < transactions && distinctBodies.length < distinct; i++) {
    const txId = `tx_bench_${randomUUID()}`;
    const created = notification("TRANSACTION_CREATED", txId, i, run);
    charges.push({
      gatewayTransactionId: txId,
      identifier: created.transaction.identifier,
      amountCents: Math.round(created.transaction.amount * 100),
      paymentMethod: created.transaction.paymentMethod as SeededCharge["paymentMethod"],
      createdAt: created.transaction.createdAt,
    });
    distinctBodies.push(JSON.stringify(created));
    if (distinctBodies.length < distinct) distinctBodies.push(JSON.stringify(notification("TRANSACTION_PAID", txId, i, run)));
  }
  let repeatLeft = repeats;
  for (let i = 0; i < distinctBodies.length; i++) {
    bodies.push(distinctBodies[i]);
    keys.push(`d${i}`);
    // Every tenth: repeat a recent delivery (some will be in flight at the same moment).
    if (repeatLeft > 0 && i % 9 === 8) {
      const j = Math.max(0, i - Math.floor(Math.random() * 8));
      bodies.push(distinctBodies[j]);
      keys.push(`d${j}`);
      repeatLeft--;
    }
  }
  while (repeatLeft-- > 0) {
    bodies.push(distinctBodies[distinctBodies.length - 1]);
    keys.push(`d${distinctBodies.length - 1}`);
  }
  return { bodies, distinct: distinctBodies.length, keys, charges };
}

function startChild(target: Target): Promise<{ child: ChildProcess; port: number; accountId: string }> {
  return new Promise((resolve, reject) => {
    const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
    const child = spawn(process.execPath, [...profile, "--conditions=react-server", "--import", "tsx", process.argv[1], "--serve"], {
      env: { ...process.env, ...target.env, NODE_ENV: "production", APP_ENCRYPTION_KEY: randomBytes(32).toString("hex") },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const lines = readline.createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      try {
        const message = JSON.parse(line) as { ready?: boolean; port: number; accountId: string };
        if (message.ready) resolve({ child, port: message.port, accountId: message.accountId });
      } catch {
        console.log(`  [server] ${line}`);
      }
    });
    child.on("exit", (code) => reject(new Error(`receiver exited with code ${code}`)));
  });
}

async function run(target: Target, total: number, concurrency: number) {
  console.log(`\n== ${target.name}: ${total} deliveries at concurrency ${concurrency}`);
  const { child, port, accountId } = await startChild(target);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const url = `http://127.0.0.1:${port}/api/webhooks/${accountId}`;
  const post = (body: string) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(
        url,
        { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", reject);
      req.end(body);
    });

  // Feed latency (Postgres): from sending a delivery to its NOTIFY reaching another connection.
  const sentAt = new Map<string, number>();
  const feedLatencies: number[] = [];
  let listener: import("pg").Client | null = null;
  if (target.name === "postgres") {
    const pg = await import("pg");
    listener = new pg.default.Client({ connectionString: target.env.DATABASE_URL });
    await listener.connect();
    await listener.query("listen console_feed");
    listener.on("notification", (message) => {
      const event = JSON.parse(message.payload ?? "{}") as { gatewayTransactionId?: string; event?: string; deliveries?: number };
      const started = sentAt.get(`${event.gatewayTransactionId}|${event.event}`);
      if (started !== undefined && event.deliveries === 1) feedLatencies.push(performance.now() - started);
    });
  }

  // The charges the console created, in its ledger before their notifications arrive (not timed).
  const seed = async (charges: SeededCharge[]) => {
    const response = await fetch(`http://127.0.0.1:${port}/__bench/seed`, { method: "POST", body: JSON.stringify(charges) });
    if (response.status !== 204) throw new Error(`seeding the ledger answered ${response.status}`);
  };

  try {
    const warm = buildDeliveries(500, "warm-");
    await seed(warm.charges);
    for (let i = 0; i < warm.bodies.length; i += concurrency) await Promise.all(warm.bodies.slice(i, i + concurrency).map(post));

    const { bodies, distinct, charges } = buildDeliveries(total, "");
    await seed(charges);
    const latencies: number[] = new Array(bodies.length);
    const statuses = new Map<number, number>();
    let next = 0;
    const cpuBefore = ((await (await fetch(`http://127.0.0.1:${port}/__bench/cpu`)).json()) as { cpuMs: number }).cpuMs;
    const started = performance.now();
    async function worker() {
      while (next < bodies.length) {
        const i = next++;
        const body = bodies[i];
        const t0 = performance.now();
        if (listener) {
          const parsed = JSON.parse(body) as { event: string; transaction: { id: string } };
          const key = `${parsed.transaction.id}|${parsed.event}`;
          if (!sentAt.has(key)) sentAt.set(key, t0);
        }
        const status = await post(body);
        latencies[i] = performance.now() - t0;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }
    await Promise.all(Array.from({ length: concurrency }, worker));
    const elapsed = (performance.now() - started) / 1000;
    const cpuAfter = ((await (await fetch(`http://127.0.0.1:${port}/__bench/cpu`)).json()) as { cpuMs: number }).cpuMs;
    const [load1] = (await import("node:os")).loadavg();
    await new Promise((r) => setTimeout(r, 300));

    const counts = (await (await fetch(`http://127.0.0.1:${port}/__bench/count`)).json()) as Record<string, number>;
    const warmDistinct = warm.distinct;
    const storedEvents = counts.events - warmDistinct;
    const storedDeliveries = counts.deliveries - warm.bodies.length;
    const sorted = latencies.slice().sort((a, b) => a - b);
    const feedSorted = feedLatencies.slice().sort((a, b) => a - b);
    const result = {
      target: target.name,
      deliveries: bodies.length,
      distinct,
      statuses: Object.fromEntries(statuses),
      seconds: Number(elapsed.toFixed(2)),
      perSecond: Math.round(bodies.length / elapsed),
      p50ms: Number(percentile(sorted, 50).toFixed(1)),
      p99ms: Number(percentile(sorted, 99).toFixed(1)),
      maxms: Number(sorted[sorted.length - 1].toFixed(1)),
      storedEvents,
      storedDeliveries,
      ledgerRows: counts.ledger - warm.charges.length,
      lost: distinct - storedEvents,
      duplicated: storedEvents - distinct,
      deliveriesCounted: storedDeliveries === bodies.length,
      receiverCpuMsPerDelivery: Number(((cpuAfter - cpuBefore) / bodies.length).toFixed(3)),
      loadAverage1m: Number(load1.toFixed(1)),
      ...(feedSorted.length
        ? { feedNotifyP50ms: Number(percentile(feedSorted, 50).toFixed(1)), feedNotifyP95ms: Number(percentile(feedSorted, 95).toFixed(1)) }
        : {}),
    };
    console.log(
      `  ${result.perSecond} webhooks/s sustained over ${result.seconds}s; ack latency p50 ${result.p50ms} ms, p99 ${result.p99ms} ms, max ${result.maxms} ms`,
    );
    console.log(
      `  receiver process CPU ${result.receiverCpuMsPerDelivery} ms per delivery; machine load average (1 min) ${result.loadAverage1m} on ${(await import("node:os")).cpus().length} cores`,
    );
    console.log(
      `  answers ${JSON.stringify(result.statuses)}; stored ${storedEvents} events for ${distinct} distinct sent (lost ${result.lost}, duplicated ${Math.max(0, result.duplicated)}); delivery counters ${storedDeliveries}/${bodies.length}; ledger rows ${result.ledgerRows}`,
    );
    if (result.feedNotifyP95ms !== undefined)
      console.log(`  delivery → feed NOTIFY received: p50 ${result.feedNotifyP50ms} ms, p95 ${result.feedNotifyP95ms} ms`);
    return result;
  } finally {
    agent.destroy();
    await listener?.end().catch(() => {});
    child.removeAllListeners("exit");
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
    });
    await target.cleanup();
  }
}

async function pgliteTarget(): Promise<Target> {
  const dir = mkdtempSync(path.join(tmpdir(), "webhooks-bench-"));
  return {
    name: "pglite",
    env: { PGLITE_DIR: path.join(dir, "db"), DATABASE_URL: "" },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresTarget(serverUrl: string): Promise<Target> {
  const pg = await import("pg");
  const name = `bench_webhooks_${randomBytes(5).toString("hex")}`;
  const admin = new pg.default.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name: "postgres",
    env: { DATABASE_URL: url.toString(), DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE ?? "16" },
    cleanup: async () => {
      const c = new pg.default.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function main() {
  const total = Number(process.argv[2] ?? process.env.BENCH_COUNT ?? 20_000);
  const concurrency = Number(process.argv[3] ?? process.env.BENCH_CONCURRENCY ?? 32);
  const targets = (process.env.BENCH_TARGETS ?? "pglite,postgres").split(",");
  const pgUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  console.log(`Webhook ingestion: receiver in a node:http server (child process), ${total} deliveries, concurrency ${concurrency}`);
  const results = [];
  for (const name of targets) {
    const target = name === "postgres" ? await postgresTarget(pgUrl) : await pgliteTarget();
    results.push(await run(target, total, concurrency));
  }
  console.log("\n" + JSON.stringify(results, null, 2));
  const failed = results.some((r) => r.lost !== 0 || r.duplicated !== 0 || !r.deliveriesCounted || r.statuses[200] !== r.deliveries);
  process.exit(failed ? 1 : 0);
}

if (process.argv.includes("--serve")) void serve();
else await main();
