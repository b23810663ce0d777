/**
 * Batch payouts, execution: a batch of BENCH_BATCH_ROWS rows prepared, submitted and approved as the
 * console does it, then sent by the background sender (lib/payout-batches/work.ts, PAYOUT_CONCURRENCY
 * at a time) through the submission engine to the sandbox running as a process of its own (its
 * own PGlite). The console's database is a throw-away database on BENCH_PG_URL's Postgres.
 * Printed: rows, time from approval to the batch's end, rows/s, p50/p95 of one row's send (claim →
 * recorded), requests that reached the sandbox per row, and the console process's peak RSS.
 *
 *   npm run bench:payouts    env BENCH_BATCH_ROWS (1000), PAYOUT_CONCURRENCY (4), BENCH_PG_URL
 *   (the validation half: npx tsx scripts/bench/payout-validation.ts, which npm run bench:payouts runs first)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import path from "node:path";
import process from "node:process";
import pg from "pg";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const rowsWanted = Number(process.env.BENCH_BATCH_ROWS ?? 1_000);
const serverUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const databaseName = `bench_payouts_${randomBytes(4).toString("hex")}`;
const databaseUrl = Object.assign(new URL(serverUrl), { pathname: `/${databaseName}` }).toString();

async function admin(text: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function startSandboxProcess(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "sandbox/server.ts")], {
    cwd: root,
    // The sandbox refuses transfers above the balance: 1,000 rows move about R$ 460.000.
    env: { ...process.env, SANDBOX_PORT: String(port), SANDBOX_DATA_DIR: "memory://", SANDBOX_OPENING_BALANCE: "100000000" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return child;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("the sandbox did not start");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const percentile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((q / 100) * sorted.length))] ?? 0;
};

async function main() {
  // One info line per gateway call would bury the table: the console's info lines are dropped here (warnings still show).
  const print = console.log.bind(console);
  console.log = (...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].startsWith('{"time"')) return;
    print(...args);
  };
  await admin(`create database ${databaseName}`);
  const sandboxPort = await freePort();
  const sandbox = await startSandboxProcess(sandboxPort);
  process.env.DATABASE_URL = databaseUrl;
  process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");
  process.env.RECONCILER = "off";
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  try {
    const { createAccount } = await import("@/lib/accounts/queries");
    const { makerAndChecker, PEOPLE_PASSWORD } = await import("@/lib/testing/payout-people");
    const { getDb, closeDb } = await import("@/lib/db/client");
    const { sql } = await import("drizzle-orm");
    const { createPayoutBatch, submitPayoutBatch, approvePayoutBatch } = await import("@/lib/payout-batches/service");
    const { getPayoutBatch } = await import("@/lib/payout-batches/queries");
    const { payoutsJob, payoutConfig } = await import("@/lib/payout-batches/work");
    const { startJobs, stopJobs } = await import("@/lib/runtime/jobs");
    const { subscribeSignal } = await import("@/lib/feed/bus");

    const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
    const accountId = (
      await createAccount(
        {
          name: "Bench",
          baseUrl: sandboxUrl,
          publicKey: "pk_sandbox_demo",
          secretKey: "sk_sandbox_demo",
          webhookToken: null,
          mode: "test",
        },
        null,
      )
    ).id;
    const { maker, checker, enrolChecker, freshCode } = await makerAndChecker(accountId);
    await enrolChecker();
    const db = await getDb();

    const rows = Array.from({ length: rowsWanted }, (_, i) => ({
      line: i + 2,
      cells: {
        pixKey: `afiliado${i}@example.com`,
        pixKeyType: "",
        amount: `${(10 + (i % 900)).toLocaleString("pt-BR")},${String(i % 100).padStart(2, "0")}`,
        name: `Afiliado ${i}`,
        document: "529.982.247-25",
        description: "",
        reference: `ref-${i}`,
      },
    }));
    const prepareStarted = performance.now();
    const { batchId } = await createPayoutBatch({
      accountId,
      actor: maker,
      ip: "203.0.113.10",
      name: "Bench",
      source: "csv",
      fileName: null,
      rows,
    });
    await submitPayoutBatch({ accountId, actor: maker, ip: "203.0.113.10", batchId });
    const prepareMs = performance.now() - prepareStarted;
    await approvePayoutBatch({
      accountId,
      actor: checker,
      ip: "203.0.113.20",
      batchId,
      proof: { password: PEOPLE_PASSWORD, code: await freshCode() },
    });
    const started = performance.now();
    await startJobs([payoutsJob], subscribeSignal);
    for (;;) {
      const batch = await getPayoutBatch(accountId, batchId);
      if (batch?.state === "FINISHED") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const elapsedMs = performance.now() - started;
    await stopJobs([payoutsJob]);

    const { rows: timings } = await db.execute<{ ms: number }>(sql`
      select extract(epoch from (t.updated_at - t.created_at)) * 1000 as ms
        from payout_batch_rows r join transfers t on t.id = r.transfer_id where r.batch_id = ${batchId}`);
    const rowMs = timings.map((t) => Number(t.ms));
    const { rows: outcomes } = await db.execute<{ execution: string; n: number }>(
      sql`select execution, count(*)::int as n from payout_batch_rows where batch_id = ${batchId} group by 1`,
    );
    const withdraws = (await (
      await fetch(`${sandboxUrl}/sandbox/v1/withdraws?identifierPrefix=lote-${batchId.replace(/-/g, "")}-`, {
        headers: { "x-public-key": "pk_sandbox_demo", "x-secret-key": "sk_sandbox_demo" },
      })
    ).json()) as { withdraws: unknown[] };
    await (await import("@/lib/feed/bus")).stopFeedListener();
    await closeDb();

    console.log(
      `\nBatch payouts, execution (${rowsWanted} rows, concurrency ${payoutConfig().concurrency}, console on Postgres, sandbox as its own process)\n`,
    );
    console.log(
      "| rows | prepare + validate + submit | approval → finished | rows/s | one row p50 | one row p95 | withdraws at the sandbox | rows by state | console peak RSS |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|");
    console.log(
      `| ${rowsWanted} | ${prepareMs.toFixed(0)} ms | ${(elapsedMs / 1000).toFixed(2)} s | ${((rowsWanted / elapsedMs) * 1000).toFixed(1)} | ` +
        `${percentile(rowMs, 50).toFixed(0)} ms | ${percentile(rowMs, 95).toFixed(0)} ms | ${withdraws.withdraws.length} | ` +
        `${outcomes.map((o) => `${o.execution} ${o.n}`).join(", ")} | ${(peakRss / 1024 / 1024).toFixed(0)} MB |`,
    );
  } finally {
    clearInterval(sampler);
    sandbox.kill("SIGTERM");
    await admin(`drop database if exists ${databaseName} with (force)`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
