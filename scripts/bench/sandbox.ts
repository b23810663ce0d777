/**
 * Sandbox benchmark, in three phases. Nothing is asserted: it prints figures.
 *
 * 1. Charge creation (in-process sandbox): Pix charges at a fixed concurrency.
 * 2. Pay → delivery (sandbox in a process of its own, as `npm run sandbox` runs it): BENCH_PAY_COUNT
 *    Pix charges are created with a callbackUrl pointing at a bare node:http receiver in this
 *    process (answers 200 at once, records each notification's arrival by transaction id); then
 *    pay calls (`POST /sandbox/v1/transactions/:id/events {"type":"pay"}`) are offered open-loop
 *    at BENCH_PAY_RATE/s. Prints pay calls offered/s and taken/s, pay-call latency p50/p95/p99
 *    (from the instant the call was due, so a slow sandbox is not hidden by a queue in the client),
 *    delivery latency from pay call sent to TRANSACTION_PAID received p50/p95/p99, and notifications
 *    missing after BENCH_DRAIN_MS.
 * 3. Lookups: `GET /api/v1/gateway/transactions?id=…` offered open-loop at BENCH_LOOKUP_RATE/s for
 *    BENCH_LOOKUP_SECONDS: lookups/s taken and p50/p95/p99.
 *
 *   npm run bench:sandbox -- [count] [concurrency]
 *   env BENCH_COUNT (10,000), BENCH_CONCURRENCY (16), BENCH_WARMUP (500),
 *       BENCH_DATA_DIR (default: a temp dir; "memory://" for in-memory; phase 1 only),
 *       BENCH_PHASES (default "create,pay,lookup"),
 *       BENCH_PAY_RATE (300 pay calls/s), BENCH_PAY_SECONDS (10), BENCH_PAY_COUNT (rate × seconds),
 *       BENCH_DRAIN_MS (30,000: how long to wait for the last notifications),
 *       BENCH_LOOKUP_RATE (300/s), BENCH_LOOKUP_SECONDS (5),
 *       BENCH_SANDBOX_PORT (4310), BENCH_RECEIVER_PORT (4311),
 *       BENCH_SANDBOX_DATABASE_URL (phases 2–3 on Postgres instead of a temp PGlite dir),
 *       BENCH_CPU_PROF (a directory: the sandbox process of phases 2–3 writes its CPU profile there).
 * Each phase prints the host's load average (`uptime`) beside its figures: the host is shared.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startSandbox } from "../../sandbox/app";

const count = Number(process.argv[2] ?? process.env.BENCH_COUNT ?? 10_000);
const concurrency = Number(process.argv[3] ?? process.env.BENCH_CONCURRENCY ?? 16);
const warmup = Number(process.env.BENCH_WARMUP ?? 500);
const phases = new Set((process.env.BENCH_PHASES ?? "create,pay,lookup").split(",").map((s) => s.trim()));
const payRate = Number(process.env.BENCH_PAY_RATE ?? 300);
const paySeconds = Number(process.env.BENCH_PAY_SECONDS ?? 10);
const payCount = Number(process.env.BENCH_PAY_COUNT ?? Math.round(payRate * paySeconds));
const drainMs = Number(process.env.BENCH_DRAIN_MS ?? 30_000);
const lookupRate = Number(process.env.BENCH_LOOKUP_RATE ?? 300);
const lookupSeconds = Number(process.env.BENCH_LOOKUP_SECONDS ?? 5);
const sandboxPort = Number(process.env.BENCH_SANDBOX_PORT ?? 4310);
const receiverPort = Number(process.env.BENCH_RECEIVER_PORT ?? 4311);

const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(concurrency, 64) });

const headers = { "x-public-key": "pk_sandbox_demo", "x-secret-key": "sk_sandbox_demo", "content-type": "application/json" };
const client = { name: "Maria Souza", email: "maria@example.com", phone: "11987654321", document: "52998224725" };

/** node:http with a keep-alive agent: cheaper than fetch, so the client steals less CPU. */
function request(method: string, url: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const h = body === undefined ? headers : { ...headers, "content-length": Buffer.byteLength(body) };
    const req = http.request(url, { method, agent, headers: h }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

const post = async (url: string, body: string) => (await request("POST", url, body)).status;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const fmt = (n: number) => n.toFixed(1);
const load = () =>
  `load ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`;
function pcts(values: number[]): string {
  const s = [...values].sort((a, b) => a - b);
  return `p50 ${fmt(percentile(s, 50))} ms  p95 ${fmt(percentile(s, 95))} ms  p99 ${fmt(percentile(s, 99))} ms`;
}

function chargeBody(identifier: string, callbackUrl?: string): string {
  return JSON.stringify({ identifier, amount: 49.9, client, products: [{ id: "p1", name: "Curso", price: 49.9 }], callbackUrl });
}

async function run(url: string, prefix: string, total: number, latencies: number[] | null): Promise<number> {
  let next = 0;
  let failures = 0;
  async function worker() {
    while (next < total) {
      const i = next++;
      const started = performance.now();
      const status = await post(`${url}/api/v1/gateway/pix/receive`, chargeBody(`${prefix}-${i}`));
      if (status !== 200) failures++;
      latencies?.push(performance.now() - started);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return failures;
}

/** Phase 1: charge creation against an in-process sandbox (the bench's original figures). */
async function createPhase(): Promise<void> {
  const tempDir = process.env.BENCH_DATA_DIR ? null : mkdtempSync(path.join(tmpdir(), "sandbox-bench-"));
  const dataDir = process.env.BENCH_DATA_DIR ?? tempDir!;
  const sandbox = await startSandbox({ port: 0, dataDir, quiet: true });
  try {
    console.log(`sandbox bench: ${count} Pix charges, concurrency ${concurrency}, PGlite at ${dataDir}`);
    await run(sandbox.url, "warmup", warmup, null);
    const latencies: number[] = [];
    const started = performance.now();
    const failures = await run(sandbox.url, `bench-${Date.now()}`, count, latencies);
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    console.log(
      `charges/s ${fmt(count / seconds)}  total ${fmt(seconds)} s  p50 ${fmt(percentile(latencies, 50))} ms  p95 ${fmt(percentile(latencies, 95))} ms  p99 ${fmt(percentile(latencies, 99))} ms  failures ${failures}  (${load()})`,
    );
    if (failures > 0) process.exitCode = 1;
  } finally {
    await sandbox.close();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  }
}

/** The sandbox as `npm run sandbox` runs it, in a process of its own (it does not share this event loop). */
async function spawnSandbox(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const prof = process.env.BENCH_CPU_PROF;
  const args = ["--import", "tsx", ...(prof ? ["--cpu-prof", "--cpu-prof-dir", prof] : []), "sandbox/server.ts"];
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_DATA_DIR: dataDir,
      SANDBOX_DATABASE_URL: process.env.BENCH_SANDBOX_DATABASE_URL ?? "",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("Sandbox gateway ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`sandbox exited (${code}) before it was ready:\n${out}`)));
  });
  child.stdout!.resume();
  return { url: `http://127.0.0.1:${sandboxPort}`, child };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

type Arrivals = Map<string, number>;

/** A bare receiver: 200 at once, arrival time of each TRANSACTION_PAID (first one) by transaction id. */
async function startReceiver(): Promise<{
  server: http.Server;
  url: string;
  paid: Arrivals;
  created: Set<string>;
  duplicates: () => number;
}> {
  const paid: Arrivals = new Map();
  const created = new Set<string>();
  let duplicates = 0;
  const server = http.createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = performance.now();
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { event?: string; transaction?: { id?: string } };
        const id = body.transaction?.id;
        if (!id) return;
        if (body.event === "TRANSACTION_CREATED") created.add(id);
        if (body.event === "TRANSACTION_PAID") {
          if (paid.has(id)) duplicates++;
          else paid.set(id, at);
        }
      } catch {}
    });
  });
  await new Promise<void>((resolve) => server.listen(receiverPort, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { server, url: `http://127.0.0.1:${port}/hook`, paid, created, duplicates: () => duplicates };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Open loop: call i is due at start + i/rate, whatever happened to the calls before it. Latency is
 * measured from the due instant. Returns when every call has answered.
 */
async function openLoop(
  total: number,
  rate: number,
  call: (i: number, dueAt: number) => Promise<boolean>,
): Promise<{ offeredSeconds: number; seconds: number; ok: number; failed: number; latencies: number[] }> {
  const start = performance.now();
  const latencies: number[] = [];
  let ok = 0;
  let failed = 0;
  const pending: Promise<void>[] = [];
  let sent = 0;
  while (sent < total) {
    const now = performance.now();
    const due = Math.min(total, Math.floor(((now - start) / 1000) * rate) + 1);
    for (; sent < due; sent++) {
      const dueAt = start + (sent / rate) * 1000;
      const i = sent;
      pending.push(
        call(i, dueAt).then(
          (good) => {
            latencies.push(performance.now() - dueAt);
            if (good) ok++;
            else failed++;
          },
          () => {
            failed++;
          },
        ),
      );
    }
    if (sent < total) await sleep(Math.max(1, start + (sent / rate) * 1000 - performance.now()));
  }
  const offeredSeconds = (performance.now() - start) / 1000;
  await Promise.all(pending);
  return { offeredSeconds, seconds: (performance.now() - start) / 1000, ok, failed, latencies };
}

/** Phases 2 and 3 against one sandbox process. */
async function payAndLookupPhases(): Promise<void> {
  const dbUrl = process.env.BENCH_SANDBOX_DATABASE_URL;
  const tempDir = dbUrl ? null : mkdtempSync(path.join(tmpdir(), "sandbox-bench-pay-"));
  const receiver = await startReceiver();
  const { url, child } = await spawnSandbox(tempDir ?? ".data/unused");
  try {
    console.log(
      `pay → delivery: ${payCount} Pix charges with callbackUrl ${receiver.url}, pay calls offered at ${payRate}/s; sandbox process on ${dbUrl ? "Postgres" : `PGlite at ${tempDir}`}`,
    );
    // Charges to pay, created closed-loop beforehand.
    const ids: string[] = [];
    const prefix = `pay-${Date.now()}`;
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < payCount) {
          const i = next++;
          const res = await request("POST", `${url}/api/v1/gateway/pix/receive`, chargeBody(`${prefix}-${i}`, receiver.url));
          if (res.status !== 200) throw new Error(`charge creation answered ${res.status}: ${res.text.slice(0, 200)}`);
          ids[i] = (JSON.parse(res.text) as { transactionId: string }).transactionId;
        }
      }),
    );
    // Let the TRANSACTION_CREATED notifications go out first, so the pay phase measures pay alone.
    const createdBy = performance.now() + drainMs;
    while (receiver.created.size < payCount && performance.now() < createdBy) await sleep(50);
    console.log(`  created ${ids.length} charges, ${receiver.created.size} TRANSACTION_CREATED received (${load()})`);

    const sentAt = new Map<string, number>();
    const result = await openLoop(payCount, payRate, async (i, dueAt) => {
      sentAt.set(ids[i], dueAt);
      const res = await request("POST", `${url}/sandbox/v1/transactions/${ids[i]}/events`, '{"type":"pay"}');
      if (res.status !== 200) sentAt.delete(ids[i]);
      return res.status === 200;
    });
    const drainBy = performance.now() + drainMs;
    while ([...sentAt.keys()].some((id) => !receiver.paid.has(id)) && performance.now() < drainBy) await sleep(50);
    const delivery: number[] = [];
    let missing = 0;
    for (const [id, at] of sentAt) {
      const arrived = receiver.paid.get(id);
      if (arrived === undefined) missing++;
      else delivery.push(arrived - at);
    }
    console.log(
      `  pay calls offered/s ${fmt(payCount / result.offeredSeconds)}  taken/s ${fmt(result.ok / result.seconds)}  ok ${result.ok}  failed ${result.failed}  total ${fmt(result.seconds)} s`,
    );
    console.log(`  pay call latency      ${pcts(result.latencies)}`);
    console.log(
      `  pay → notification    ${pcts(delivery)}  delivered ${delivery.length}  missing ${missing}  duplicates ${receiver.duplicates()}`,
    );
    console.log(`  (${load()})`);
    if (missing > 0 || result.failed > 0) process.exitCode = 1;

    if (phases.has("lookup")) {
      const lookups = Math.round(lookupRate * lookupSeconds);
      const r = await openLoop(lookups, lookupRate, async (i) => {
        const res = await request("GET", `${url}/api/v1/gateway/transactions?id=${ids[i % ids.length]}`);
        return res.status === 200;
      });
      console.log(
        `lookups: offered/s ${fmt(lookups / r.offeredSeconds)}  taken/s ${fmt(r.ok / r.seconds)}  ok ${r.ok}  failed ${r.failed}  ${pcts(r.latencies)}  (${load()})`,
      );
      if (r.failed > 0) process.exitCode = 1;
    }
  } finally {
    agent.destroy();
    await stopChild(child);
    receiver.server.closeAllConnections();
    receiver.server.close();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  }
}

if (phases.has("create")) await createPhase();
if (phases.has("pay")) await payAndLookupPhases();
agent.destroy();
