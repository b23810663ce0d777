/**
 * The confirmation chain under launch-day load, through the served app on Postgres: the sandbox
 * gateway (its own process and database) pays Pix charges at a steady rate; each payment's
 * TRANSACTION_PAID notification goes to a confirmer, which must ask the gateway (a lookup) before
 * it counts the payment as paid. Two confirmers take turns, each round the same number of charges:
 *
 *   - minimal: scripts/bench/chain-minimal.ts (node:http + pg: stores the notification, answers
 *     200, one lookup, marks the payment paid);
 *   - console: the production build as `npm start` serves it (`next start` and the background
 *     worker, RECONCILER=worker), with one registered event destination (a receiver here that
 *     verifies every signed charge.paid with `standardwebhooks`).
 *
 * Per side and round: confirmed/s (confirmed payments over the time from the first pay to the
 * last confirmation), pay → notified, pay → confirmed and, for the console, pay → delivered to the
 * destination (p50/p95/p99, from each pay call's answer), lost payments (paid at the gateway, not
 * confirmed when the round ends), lookups per payment (counted on their way to the sandbox), CPU
 * per payment of each process and the database's transactions per payment. Then the ratios
 * console/minimal. The charges are made before each round (not timed) and, for the console,
 * recorded in its ledger as if it had created them (lib/ledger/synthetic/charges.ts).
 *
 *   npm run bench:chain [-- N RATE ROUNDS]   env N (1500), RATE (300 pay calls/s), ROUNDS (2)
 *   npm run bench:chain -- launch            6,000 at 100/s (60 s), one round
 *   env BENCH_PG_URL (postgres://postgres@127.0.0.1:5432/test), BENCH_SKIP_BUILD=1 (with NEXT_DIST_DIR: that build),
 *       BENCH_SIDES (minimal,console), BENCH_CPU_PROF=<dir> (every process's CPU profile),
 *       BENCH_STATEMENT_LOG=1 (the console's statements per payment from the Postgres log; slows it down),
 *       BENCH_SETTLE_S (60: how long after the last pay a round waits for the rest), BENCH_PORT (3391),
 *       BENCH_WARMUP (600 payments a side first, not counted), BENCH_KEEP_DB=1 (keep the databases, to read the timeline)
 */
import { spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statSync } from "node:fs";
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
  databaseUrl,
  nextBin,
  paced,
  pct,
  root,
  serveConsole,
  serveNode,
  serveWorker,
  sql,
  stop,
  waitFor,
  workerReady,
  type Children,
} from "./served";

const launch = process.argv.includes("launch") || process.env.BENCH_MODE === "launch";
const numbers = process.argv.slice(2).filter((a) => /^\d+$/.test(a));
const N = Number(numbers[0] ?? process.env.N ?? (launch ? 6_000 : 1_500));
const RATE = Number(numbers[1] ?? process.env.RATE ?? (launch ? 100 : 300));
const ROUNDS = Math.max(1, Number(numbers[2] ?? process.env.ROUNDS ?? (launch ? 1 : 2)));
const SIDES = (process.env.BENCH_SIDES ?? "minimal,console").split(",").map((s) => s.trim()) as Side[];
const SETTLE_MS = Number(process.env.BENCH_SETTLE_S ?? 60) * 1000;
const serverUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const basePort = Number(process.env.BENCH_PORT ?? 3391);
const sandboxPort = basePort + 1000;
const KEYS = { "x-public-key": "pk_sandbox_demo", "x-secret-key": "sk_sandbox_demo" };
const WEBHOOK_TOKEN = "wht_sandbox_demo";
const POSTGRES_LOG = "/var/log/postgresql/postgresql-15-main.log";
const children: Children = [];

type Side = "minimal" | "console";

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One request with a JSON body (or none) to the sandbox: status and parsed answer. */
function call(url: string, method: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const text = body === undefined ? "" : JSON.stringify(body);
  return new Promise((resolve) => {
    const request = http.request(
      url,
      { method, agent, headers: { ...KEYS, "content-type": "application/json", "content-length": Buffer.byteLength(text) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          let json: Record<string, unknown> = {};
          try {
            json = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
          } catch {
            // not JSON
          }
          resolve({ status: response.statusCode ?? 0, json });
        });
      },
    );
    request.on("error", () => resolve({ status: 0, json: {} }));
    request.end(text);
  });
}

async function listen(server: Server, port = 0): Promise<string> {
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * In front of the sandbox for both confirmers: forwards every request and counts the lookups
 * (`GET /api/v1/gateway/transactions`), the sandbox's own count of what each confirmer asked.
 */
function lookupMeter(target: string): { server: Server; lookups: () => number; failures: Map<string, number> } {
  const upstream = new URL(target);
  const forward = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let lookups = 0;
  /** Requests the sandbox could not be reached for, twice (answered 502), by error code. */
  const failures = new Map<string, number>();
  const server = createServer((request, response) => {
    if (request.method === "GET" && request.url?.startsWith("/api/v1/gateway/transactions")) lookups++;
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      // A kept-alive connection the sandbox closed meanwhile is not the sandbox failing: asked again on a new one.
      const send = (retry: boolean) => {
        const proxied = http.request(
          {
            host: upstream.hostname,
            port: upstream.port,
            path: request.url,
            method: request.method,
            headers: request.headers,
            agent: retry ? forward : false,
          },
          (answer) => {
            response.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(response);
          },
        );
        proxied.on("error", (error: NodeJS.ErrnoException) => {
          if (retry) return send(false);
          const code = error.code ?? error.message;
          failures.set(code, (failures.get(code) ?? 0) + 1);
          response.writeHead(502).end();
        });
        proxied.end(Buffer.concat(chunks));
      };
      send(true);
    });
  });
  return { server, lookups: () => lookups, failures };
}

/** The console's destination: verifies each signed delivery, notes when each event first arrived. */
function destinationReceiver() {
  const state = { secret: "", arrivals: new Map<string, number>(), duplicates: 0, unverified: 0 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const at = Date.now();
      try {
        new Webhook(state.secret).verify(Buffer.concat(chunks).toString("utf8"), request.headers as Record<string, string>);
      } catch {
        state.unverified++;
      }
      const id = String(request.headers["webhook-id"]);
      if (state.arrivals.has(id)) state.duplicates++;
      else state.arrivals.set(id, at);
      response.writeHead(204).end();
    });
  });
  return Object.assign(state, { server });
}

/** Transactions committed so far in a database (pg_stat_database; the statistics lag by up to half a second). */
async function commits(url: string): Promise<number> {
  const [row] = await sql<{ n: string }>(url, "select xact_commit::text as n from pg_stat_database where datname = current_database()");
  return Number(row?.n ?? 0);
}

/** The Postgres log from `offset` on (where BENCH_STATEMENT_LOG reads the statements of one database). */
function logFrom(offset: number): string {
  const size = statSync(POSTGRES_LOG).size;
  const buffer = Buffer.alloc(Math.max(0, size - offset));
  const fd = openSync(POSTGRES_LOG, "r");
  try {
    readSync(fd, buffer, 0, buffer.length, offset);
  } finally {
    closeSync(fd);
  }
  return buffer.toString("utf8");
}

/** The statements the log shows for `db`, grouped by their first words: count per payment and time. */
function statementSummary(log: string, db: string, payments: number): string {
  const groups = new Map<string, { count: number; ms: number }>();
  const pattern = new RegExp(`@${db} LOG:  duration: ([\\d.]+) ms  (?:statement|execute [^:]*): (.*)`, "g");
  for (const [, ms, text] of log.matchAll(pattern)) {
    const key = text.replace(/\s+/g, " ").slice(0, 90);
    const group = groups.get(key) ?? { count: 0, ms: 0 };
    group.count++;
    group.ms += Number(ms);
    groups.set(key, group);
  }
  const rows = [...groups].sort((a, b) => b[1].count - a[1].count);
  const total = rows.reduce((sum, [, g]) => sum + g.count, 0);
  return [
    `   statements per payment ${(total / payments).toFixed(1)} (${total} logged); the most frequent:`,
    ...rows
      .slice(0, 25)
      .map(([text, g]) => `   ${(g.count / payments).toFixed(2).padStart(6)} × ${(g.ms / g.count).toFixed(3)} ms  ${text}`),
  ].join("\n");
}

type RoundResult = {
  side: Side;
  round: number;
  paid: number;
  payFailed: number;
  confirmed: number;
  perSecond: number;
  payCallMs: number[];
  notified: number[];
  toConfirmed: number[];
  toDelivered: number[] | null;
  delivered: number;
  lost: number;
  lookups: number;
  commitsPerPayment: number;
  cpu: string;
};

const ms = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${pct(sorted, 0.5)} / ${pct(sorted, 0.95)} / ${pct(sorted, 0.99)} ms`;
};

function printRound(r: RoundResult): void {
  console.log(
    `   ${r.side}: paid ${r.paid} (pay calls failed ${r.payFailed}; pay call p50/p95/p99 ${ms(r.payCallMs)}), ` +
      `confirmed ${r.confirmed} at ${r.perSecond.toFixed(0)}/s, lost ${r.lost}, lookups per payment ${(r.lookups / Math.max(1, r.paid)).toFixed(2)}`,
  );
  console.log(`     pay → notified p50/p95/p99 ${ms(r.notified)}; pay → confirmed ${ms(r.toConfirmed)}`);
  if (r.toDelivered) console.log(`     pay → destination delivery ${ms(r.toDelivered)} (${r.delivered} delivered)`);
  console.log(`     database transactions per payment ${r.commitsPerPayment.toFixed(1)}; CPU ms per payment: ${r.cpu}`);
}

async function main(): Promise<void> {
  if (!process.env.BENCH_SKIP_BUILD || !existsSync(path.join(root, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID"))) {
    console.log("building the console…");
    if (spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] }).status !== 0)
      throw new Error("next build failed");
  }
  const tag = randomBytes(4).toString("hex");
  const dbs = { sandbox: `bench_chain_sandbox_${tag}`, console: `bench_chain_console_${tag}`, minimal: `bench_chain_minimal_${tag}` };
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-chain-"));
  const destination = destinationReceiver();
  let meter: ReturnType<typeof lookupMeter> | null = null;
  console.log(
    `The confirmation chain (${launch ? "launch: " : ""}${N} Pix charges paid at ${RATE}/s a round, ${ROUNDS} round(s), sides ${SIDES.join(" and ")}), Postgres ${new URL(serverUrl).host}`,
  );
  console.log(`machine: ${cpus().length} cores, load average before ${loadavg()[0].toFixed(2)}`);
  for (const name of Object.values(dbs)) await sql(serverUrl, `create database ${name}`);
  const sandboxDb = databaseUrl(serverUrl, dbs.sandbox);
  const minimalDb = databaseUrl(serverUrl, dbs.minimal);
  const consoleDb = databaseUrl(serverUrl, dbs.console);
  let pool: pg.Pool | null = null;
  try {
    // ── the sandbox gateway and the lookup meter in front of it ────────────────────────────
    const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
    const sandbox = serveNode(["--import", "tsx", "sandbox/server.ts"], {
      env: { SANDBOX_PORT: String(sandboxPort), SANDBOX_DATABASE_URL: sandboxDb, SANDBOX_WEBHOOK_RETRY_MS: "1000" },
      label: "sandbox",
      children,
    });
    await waitFor(`${sandboxUrl}/health`, sandbox);
    meter = lookupMeter(sandboxUrl);
    const gatewayUrl = await listen(meter.server, sandboxPort + 1);
    const gatewayEnv = {
      GATEWAY_BASE_URL: gatewayUrl,
      GATEWAY_PUBLIC_KEY: KEYS["x-public-key"],
      GATEWAY_SECRET_KEY: KEYS["x-secret-key"],
      GATEWAY_WEBHOOK_TOKEN: WEBHOOK_TOKEN,
    };

    // ── the minimal confirmer ──────────────────────────────────────────────────────────────
    const minimalPort = basePort + 1;
    let minimal: ChildProcess | undefined;
    if (SIDES.includes("minimal")) {
      await sql(
        minimalDb,
        `create table chain_notifications (id bigserial primary key, received_at timestamptz not null default clock_timestamp(), payload jsonb not null);
         create table chain_payments (gateway_id text primary key, identifier text, status text not null, confirmed_at timestamptz not null)`,
      );
      minimal = serveNode(["--import", "tsx", "scripts/bench/chain-minimal.ts"], {
        env: { ...gatewayEnv, PORT: String(minimalPort), DATABASE_URL: minimalDb },
        label: "minimal",
        children,
      });
      await workerReady(minimal);
    }

    // ── the console, as npm start serves it, with one destination ──────────────────────────
    let web: ChildProcess | undefined;
    let worker: ChildProcess | undefined;
    let accountId = "";
    if (SIDES.includes("console")) {
      const env = {
        ...gatewayEnv,
        PORT: String(basePort),
        DATABASE_URL: consoleDb,
        DATA_DIR: dataDir,
        APP_URL: `http://localhost:${basePort}`,
        NEXTAUTH_URL: `http://localhost:${basePort}`,
        APP_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
        NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
        GATEWAY_ACCOUNT_NAME: "Sandbox — bench",
        GATEWAY_MODE: "test",
        SEED_ADMIN_EMAIL: "bench@example.com",
        SEED_ADMIN_PASSWORD: randomUUID(),
      };
      web = serveConsole(basePort, { ...env, RECONCILER: "worker" }, children);
      await waitFor(`http://127.0.0.1:${basePort}/sign-in`, web);
      worker = serveWorker(env, children);
      await workerReady(worker);
      [{ id: accountId }] = await sql<{ id: string }>(consoleDb, "select id from gateway_accounts where source = 'env' limit 1");
      Object.assign(process.env, { DATABASE_URL: consoleDb, APP_ENCRYPTION_KEY: env.APP_ENCRYPTION_KEY, DATA_DIR: dataDir });
      const { createDestination } = await import("@/lib/destinations/queries");
      const { closeDb } = await import("@/lib/db/client");
      destination.secret = (
        await createDestination(
          accountId,
          { url: `${await listen(destination.server)}/hook`, description: "bench:chain", allTypes: false, eventTypes: ["charge.paid"] },
          { id: "bench", email: "bench@example.com" },
          null,
        )
      ).secret;
      await closeDb();
      pool = new pg.Pool({ connectionString: consoleDb, max: 4 });
    }

    const targets: Record<Side, string> = {
      minimal: `http://127.0.0.1:${minimalPort}/hook`,
      console: `http://127.0.0.1:${basePort}/api/webhooks/${accountId}`,
    };
    const parties: Record<Side, Record<string, ChildProcess | undefined>> = {
      minimal: { sandbox, minimal },
      console: { sandbox, "web server": web, worker },
    };

    /** One round of one side: charges made (not timed), then paid at RATE/s, then waited for. */
    const runRound = async (side: Side, round: number, count = N): Promise<RoundResult> => {
      const prefix = `chain-${round}-${side}-`;
      // Made without a webhook target (so no TRANSACTION_CREATED reaches anyone), then the
      // producer's default webhook URL set to this side's receiver: only the payments notify.
      await call(`${sandboxUrl}/sandbox/v1/settings`, "PUT", { webhookUrl: null });
      const ids: string[] = new Array(count);
      let made = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (made < count) {
            const i = made++;
            const { status, json } = await call(`${sandboxUrl}/api/v1/gateway/pix/receive`, "POST", {
              identifier: `${prefix}${i}`,
              amount: 49.9,
              client: { name: "Maria Souza", email: "maria@example.com", phone: "11987654321", document: "52998224725" },
              products: [{ id: "curso", name: "Curso online", price: 49.9 }],
            });
            if (status !== 200) throw new Error(`charge ${i}: ${status} ${JSON.stringify(json).slice(0, 200)}`);
            ids[i] = String(json.transactionId);
          }
        }),
      );
      if (side === "console")
        await seedLedger(
          pool!,
          accountId,
          ids.map((id, i) => ({ gatewayTransactionId: id, identifier: `${prefix}${i}`, amountCents: 4990, feeCents: 49 })),
        );
      await call(`${sandboxUrl}/sandbox/v1/settings`, "PUT", { webhookUrl: targets[side] });
      const db = side === "console" ? consoleDb : minimalDb;
      const logOffset = process.env.BENCH_STATEMENT_LOG && side === "console" ? statSync(POSTGRES_LOG).size : null;
      if (logOffset !== null) await sql(serverUrl, `alter database ${dbs.console} set log_min_duration_statement = 0`);
      // The settle of the seed (the console's worker reads the outbox rows its inserts wrote) is not this round's.
      await new Promise((resolve) => setTimeout(resolve, 2_000));

      const lookupsBefore = meter!.lookups();
      const commitsBefore = await commits(db);
      const cpuBefore = cpuNow(parties[side]);
      const paidAt = new Map<string, number>();
      const payCallMs: number[] = [];
      let payFailed = 0;
      const firstPay = Date.now();
      await paced(count, RATE, async (i) => {
        const started = Date.now();
        const { status } = await call(`${sandboxUrl}/sandbox/v1/transactions/${ids[i]}/events`, "POST", { type: "pay" });
        if (status === 200) paidAt.set(ids[i]!, Date.now());
        else payFailed++;
        payCallMs.push(Date.now() - started);
      });

      // Until every paid payment is confirmed (and delivered), or SETTLE_MS passed.
      const confirmedAt = new Map<string, number>();
      const deliveredAt = new Map<string, number>();
      const deadline = Date.now() + SETTLE_MS;
      for (;;) {
        if (side === "minimal") {
          const rows = await sql<{ id: string; at: number }>(
            minimalDb,
            `select gateway_id as id, extract(epoch from confirmed_at) * 1000 as at from chain_payments where identifier like $1`,
            [`${prefix}%`],
          );
          for (const row of rows) confirmedAt.set(row.id, Number(row.at));
        } else {
          // When the ledger row turned paid: the commit-time clock of the charge.paid outbox row it wrote.
          const rows = (
            await pool!.query<{ id: string; event: string; at: number }>(
              `select snapshot->>'gateway_transaction_id' as id, id as event, extract(epoch from occurred_at) * 1000 as at
               from event_outbox where type = 'charge.paid' and snapshot->>'identifier' like $1`,
              [`${prefix}%`],
            )
          ).rows;
          for (const row of rows) {
            confirmedAt.set(row.id, Number(row.at));
            const arrived = destination.arrivals.get(row.event);
            if (arrived !== undefined) deliveredAt.set(row.id, arrived);
          }
        }
        const done = confirmedAt.size >= paidAt.size && (side === "minimal" || deliveredAt.size >= paidAt.size);
        if (done || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const cpu = cpuSpent(cpuBefore, cpuNow(parties[side]), Math.max(1, paidAt.size));
      await new Promise((resolve) => setTimeout(resolve, 600));
      const commitsPerPayment = ((await commits(db)) - commitsBefore) / Math.max(1, paidAt.size);
      const lookups = meter!.lookups() - lookupsBefore;
      if (logOffset !== null) {
        await sql(serverUrl, `alter database ${dbs.console} reset log_min_duration_statement`);
        console.log(statementSummary(logFrom(logOffset), dbs.console, paidAt.size));
      }

      // Pay → notified: when the confirmer stored the notification.
      const notifiedRows =
        side === "minimal"
          ? await sql<{ id: string; at: number }>(
              minimalDb,
              `select payload->'transaction'->>'id' as id, extract(epoch from min(received_at)) * 1000 as at from chain_notifications
               where payload->'transaction'->>'identifier' like $1 group by 1`,
              [`${prefix}%`],
            )
          : (
              await pool!.query<{ id: string; at: number }>(
                `select gateway_transaction_id as id, extract(epoch from min(first_received_at)) * 1000 as at from gateway_notifications
                 where identifier like $1 group by 1`,
                [`${prefix}%`],
              )
            ).rows;
      const since = (times: Map<string, number> | { id: string; at: number }[]) =>
        [...(times instanceof Map ? times : new Map(times.map((t) => [t.id, Number(t.at)])))]
          .filter(([id]) => paidAt.has(id))
          .map(([id, at]) => Math.max(0, at - paidAt.get(id)!));
      const lastConfirmed = Math.max(...[...confirmedAt.values()]);
      return {
        side,
        round,
        paid: paidAt.size,
        payFailed,
        confirmed: confirmedAt.size,
        perSecond: confirmedAt.size / Math.max(0.001, (lastConfirmed - firstPay) / 1000),
        payCallMs,
        notified: since(notifiedRows),
        toConfirmed: since(confirmedAt),
        toDelivered: side === "console" ? since(deliveredAt) : null,
        delivered: deliveredAt.size,
        lost: [...paidAt.keys()].filter((id) => !confirmedAt.has(id)).length,
        lookups,
        commitsPerPayment,
        cpu,
      };
    };

    const results: RoundResult[] = [];
    // A short warm-up of each side first (not counted): code optimised, connections and plans made.
    const warmup = Number(process.env.BENCH_WARMUP ?? Math.min(600, N));
    if (warmup > 0) {
      console.log(`\nwarm-up (not counted): ${warmup} payments at ${RATE}/s on each side`);
      for (const side of SIDES) {
        const r = await runRound(side, 0, warmup);
        console.log(
          `   ${side}: confirmed ${r.confirmed} / ${r.paid}, p95 pay → confirmed ${pct(
            [...r.toConfirmed].sort((a, b) => a - b),
            0.95,
          )} ms`,
        );
      }
    }
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`\nround ${round}`);
      const order = round % 2 === 1 ? SIDES : [...SIDES].reverse();
      for (const side of order) {
        const result = await runRound(side, round);
        printRound(result);
        results.push(result);
      }
    }

    // ── the summary: each side's median round, and the ratios ──────────────────────────────
    const summary = (side: Side) => {
      const mine = results.filter((r) => r.side === side).sort((a, b) => a.perSecond - b.perSecond);
      return mine.length ? mine[Math.floor((mine.length - 1) / 2)] : undefined;
    };
    const p95 = (values: number[] | null) =>
      pct(
        [...(values ?? [])].sort((a, b) => a - b),
        0.95,
      );
    console.log(
      `\n| side (median round) | confirmed / paid | confirmed/s | pay → confirmed p50 / p95 / p99 | pay → destination p50 / p95 / p99 | lost | lookups/payment |`,
    );
    console.log("|---|---|---|---|---|---|---|");
    for (const side of SIDES) {
      const r = summary(side);
      if (!r) continue;
      console.log(
        `| ${side} | ${r.confirmed} / ${r.paid} | ${r.perSecond.toFixed(0)} | ${ms(r.toConfirmed)} | ${r.toDelivered ? ms(r.toDelivered) : "—"} | ${r.lost} | ${(r.lookups / Math.max(1, r.paid)).toFixed(2)} |`,
      );
    }
    const m = summary("minimal");
    const c = summary("console");
    if (m && c) {
      const rounds = Array.from({ length: ROUNDS }, (_, i) => {
        const [rm, rc] = [
          results.find((r) => r.round === i + 1 && r.side === "minimal")!,
          results.find((r) => r.round === i + 1 && r.side === "console")!,
        ];
        return (rc.perSecond / rm.perSecond).toFixed(2);
      });
      console.log(
        `\nconsole/minimal: confirmed/s ${(c.perSecond / m.perSecond).toFixed(2)}× (rounds ${rounds.join(", ")}); ` +
          `p95 pay → confirmed ${p95(c.toConfirmed)} vs ${p95(m.toConfirmed)} ms (${(p95(c.toConfirmed) / Math.max(1, p95(m.toConfirmed))).toFixed(2)}×, +${p95(c.toConfirmed) - p95(m.toConfirmed)} ms)`,
      );
    }
    if (meter.failures.size > 0)
      console.log(`requests the meter could not pass to the sandbox (answered 502): ${JSON.stringify(Object.fromEntries(meter.failures))}`);
    console.log(
      `destination: ${destination.duplicates} duplicated, ${destination.unverified} unverified; load average after ${loadavg()[0].toFixed(2)}`,
    );
  } finally {
    await pool?.end();
    for (const child of children) await stop(child);
    meter?.server.close();
    destination.server.close();
    agent.destroy();
    if (process.env.BENCH_KEEP_DB === "1") console.log(`databases kept: ${Object.values(dbs).join(", ")}`);
    else for (const name of Object.values(dbs)) await sql(serverUrl, `drop database if exists ${name} with (force)`).catch(() => {});
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
