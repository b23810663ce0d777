/**
 * The lookup ceiling under launch-day load: paid payments waiting for the gateway's confirmation,
 * confirmed by the reconciler through the lookup limiter while the sandbox answers some lookups 429.
 *   npm run bench:ceiling -- [payments] [rps]
 *   BENCH_PAYMENTS (default 3,000), GATEWAY_LOOKUP_RPS (default 300), BENCH_429_FRACTION (default
 *   0.01, each with Retry-After: 1), RECONCILE_CONCURRENCY (default 32 here), BENCH_PG_URL: a
 *   Postgres server for the console's throw-away database (default: PGlite in memory),
 *   BENCH_TIMEOUT_S (default 900) for the confirmations.
 * Prints the elapsed time and rate, the sandbox's busiest second (must not exceed the ceiling), the
 * 429s, and how far any payment was overtaken (order), then exits 1 when a check fails.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

const count = Number(process.argv[2] ?? process.env.BENCH_PAYMENTS ?? 3_000);
const rps = Number(process.argv[3] ?? process.env.GATEWAY_LOOKUP_RPS ?? 300);
const fraction = Number(process.env.BENCH_429_FRACTION ?? 0.01);
process.env.GATEWAY_LOOKUP_RPS = String(rps);
process.env.RECONCILE_CONCURRENCY ??= "32";
process.env.WEBHOOK_APPLIER = "off";
process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");
// One JSON line per gateway call otherwise (lib/gateway/log.ts): thousands of them.
(process.env as Record<string, string | undefined>).NODE_ENV ??= "test";
const timeoutMs = Number(process.env.BENCH_TIMEOUT_S ?? 900) * 1000;

const KEYS = { publicKey: "pk_sandbox_demo", secretKey: "sk_sandbox_demo" };

async function consoleDatabase(): Promise<{ drop: () => Promise<void> }> {
  const serverUrl = process.env.BENCH_PG_URL;
  if (!serverUrl) {
    process.env.PGLITE_DIR = "memory://";
    delete process.env.DATABASE_URL;
    return { drop: async () => {} };
  }
  const name = `bench_ceiling_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  return {
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

async function main() {
  const { startSandbox } = await import("@/sandbox/app");
  const { createSandboxControl } = await import("@/sandbox/control-client");
  const database = await consoleDatabase();
  const sandbox = await startSandbox({ port: 0, dataDir: "memory://", quiet: true });
  const control = createSandboxControl({ baseUrl: sandbox.url, ...KEYS });
  let failed = false;
  try {
    const { createAccount } = await import("@/lib/accounts/queries");
    const { seedConfirmations, waitForConfirmations } = await import("@/lib/testing/confirmations");
    const { countAwaitingConfirmation } = await import("@/lib/ledger/unconfirmed");
    const { processLookupLimiter } = await import("@/lib/gateway/lookup-limiter");
    const account = await createAccount({ name: "Bench", baseUrl: sandbox.url, ...KEYS, webhookToken: null, mode: "test" }, null);

    const seedStarted = Date.now();
    const payments = await seedConfirmations({ sandboxUrl: sandbox.url, keys: KEYS, accountId: account.id, count, prefix: "bench" });
    console.log(
      `seeded ${count} paid payments awaiting confirmation in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s ` +
        `("confirmando ${await countAwaitingConfirmation(account.id)} pagamentos")`,
    );

    await control.resetLookupStats();
    await control.setLookupLimits({ rateLimitedFraction: fraction, retryAfterSeconds: 1 });
    console.log(
      `confirming: GATEWAY_LOOKUP_RPS=${rps}, RECONCILE_CONCURRENCY=${process.env.RECONCILE_CONCURRENCY}, ` +
        `sandbox answers ${(fraction * 100).toFixed(1)} % of lookups 429 (Retry-After: 1)`,
    );
    let lastReport = Date.now();
    const run = await waitForConfirmations({
      payments,
      timeoutMs,
      onProgress: (confirmed) => {
        if (Date.now() - lastReport < 5_000) return;
        lastReport = Date.now();
        console.log(`  ${confirmed}/${count} confirmed`);
      },
    });
    const stats = await control.lookupStats();
    const limiter = processLookupLimiter().stats();
    const busiest = [...stats.perSecond].sort((a, b) => b.lookups - a.lookups).slice(0, 3);
    console.log(
      `confirmed ${run.confirmed}/${count} in ${(run.elapsedMs / 1000).toFixed(1)} s (${((run.confirmed * 1000) / run.elapsedMs).toFixed(0)}/s)`,
    );
    console.log(
      `sandbox: ${stats.total} lookups, ${stats.rateLimited} answered 429, busiest second ${stats.maxPerSecond} ` +
        `(ceiling ${rps}; top seconds ${busiest.map((s) => s.lookups).join(", ")})`,
    );
    console.log(`limiter: window ${limiter.window}/${processLookupLimiter().maxConcurrency}, 429s seen ${limiter.rateLimited}`);
    console.log(`order: a payment was overtaken by at most ${run.maxDisplacement} later ones`);
    const checks: [string, boolean][] = [
      ["every payment confirmed", run.confirmed === count],
      ["none left awaiting confirmation", (await countAwaitingConfirmation(account.id)) === 0],
      [`no second above ${rps} lookups at the sandbox`, stats.maxPerSecond <= rps],
      ["the sandbox did answer 429s", fraction === 0 || stats.rateLimited > 0],
      [`order kept (overtaken by ≤ 2 × RECONCILE_CONCURRENCY)`, run.maxDisplacement <= 2 * Number(process.env.RECONCILE_CONCURRENCY)],
    ];
    for (const [name, ok] of checks) console.log(`${ok ? "ok  " : "FAIL"} ${name}`);
    failed = checks.some(([, ok]) => !ok);
  } finally {
    const { closeDb } = await import("@/lib/db/client");
    await closeDb();
    await sandbox.close();
    await database.drop();
  }
  process.exit(failed ? 1 : 0);
}

await main();
