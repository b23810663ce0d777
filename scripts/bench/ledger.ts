/**
 * Transactions list and CSV export at scale, through the real query and export functions.
 *   npm run bench:ledger -- [rows]
 *   env BENCH_KEEP_DB=1 keeps the database for EXPLAIN sessions;
 *   BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/test), BENCH_ROWS (default 1,000,000)
 * Creates a throw-away database on that server, seeds it with generate_series, measures, drops it.
 */
import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { ledgerBenchRows } from "@/lib/ledger/synthetic/bench-rows";
import { benchAccounts } from "./accounts";

const serverUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const rowCount = Number(process.argv[2] ?? process.env.BENCH_ROWS ?? 1_000_000);
const dbName = `ledger_bench_${randomBytes(4).toString("hex")}`;

async function admin(sqlText: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sqlText);
  } finally {
    await client.end();
  }
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return { median: at(0.5), p95: at(0.95), max: sorted.at(-1)! };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

async function main() {
  await admin(`create database ${dbName}`);
  const url = new URL(serverUrl);
  url.pathname = `/${dbName}`;
  process.env.DATABASE_URL = url.toString();
  process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");

  const { getDb, closeDb } = await import("@/lib/db/client");
  const { listLedger, countLedger } = await import("@/lib/ledger/queries");
  const { ledgerCsvStream } = await import("@/lib/ledger/export");
  const { sql } = await import("drizzle-orm");

  try {
    const db = await getDb();
    const { account, other } = await benchAccounts();

    // Bulk load without the secondary indexes, then build them: how a restore would do it.
    const execute = <T extends Record<string, unknown>>(query: ReturnType<typeof sql>) => db.execute<T>(query);
    const indexes = await execute<{ indexname: string; indexdef: string }>(sql`
      select indexname, indexdef from pg_indexes
      where tablename = 'ledger_transactions' and indexname <> 'ledger_transactions_pkey'`);
    for (const index of indexes.rows) await db.execute(sql.raw(`drop index "${index.indexname}"`));

    let started = performance.now();
    await db.execute(ledgerBenchRows(account.id, other.id, rowCount));
    const seedMs = performance.now() - started;
    started = performance.now();
    for (const index of indexes.rows) await db.execute(sql.raw(index.indexdef));
    await db.execute(sql`analyze ledger_transactions`);
    const indexMs = performance.now() - started;
    const accountRows = await countLedger(account.id, {});
    console.log(
      `seeded ${rowCount.toLocaleString("en")} rows (${accountRows.toLocaleString("en")} in the measured account) in ${(seedMs / 1000).toFixed(1)} s; indexes ${(indexMs / 1000).toFixed(1)} s`,
    );

    const today = new Intl.DateTimeFormat("sv-SE", { timeZone: "America/Sao_Paulo" }).format(new Date());
    const weekAgo = new Intl.DateTimeFormat("sv-SE", { timeZone: "America/Sao_Paulo" }).format(new Date(Date.now() - 6 * 86_400_000));
    const firstPage = await listLedger(account.id, {});
    const cases: { name: string; run: () => Promise<unknown> }[] = [
      { name: "first page (50 rows)", run: () => listLedger(account.id, {}) },
      { name: "page 2 by cursor", run: () => listLedger(account.id, {}, { cursor: firstPage.nextCursor }) },
      { name: "status+method+7 days", run: () => listLedger(account.id, { status: "COMPLETED", method: "PIX", from: weekAgo, to: today }) },
      {
        name: "status+method+day, rare",
        run: () => listLedger(account.id, { status: "CHARGED_BACK", method: "CRYPTO", from: weekAgo, to: weekAgo }),
      },
      { name: "amount range", run: () => listLedger(account.id, { minCents: 10_000, maxCents: 12_000 }) },
      { name: "search 'silva' (common)", run: () => listLedger(account.id, { q: "silva" }) },
      { name: "search e-mail (1 match)", run: () => listLedger(account.id, { q: "cliente123457@example" }) },
      { name: "search gateway id prefix", run: () => listLedger(account.id, { q: "tx_" + "c4ca4238" }) },
      { name: "search nothing matches", run: () => listLedger(account.id, { q: "zzzzqqqq" }) },
      { name: "count (export progress)", run: () => countLedger(account.id, {}) },
    ];
    console.log("\nlist queries (server time of listLedger/countLedger, 15 runs after 2 warm-ups)");
    for (const item of cases) {
      await item.run();
      await item.run();
      const samples: number[] = [];
      for (let i = 0; i < 15; i++) {
        const t0 = performance.now();
        await item.run();
        samples.push(performance.now() - t0);
      }
      const s = stats(samples);
      console.log(
        `  ${item.name.padEnd(28)} median ${ms(s.median).padStart(9)}  p95 ${ms(s.p95).padStart(9)}  max ${ms(s.max).padStart(9)}`,
      );
    }

    const rssBefore = process.memoryUsage().rss;
    let peakRss = rssBefore;
    let bytes = 0;
    let lines = 0;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
        const rss = process.memoryUsage().rss;
        if (rss > peakRss) peakRss = rss;
        done();
      },
    });
    started = performance.now();
    const { Readable } = await import("node:stream");
    await pipeline(Readable.fromWeb(ledgerCsvStream(account.id, {}) as import("node:stream/web").ReadableStream), sink);
    const seconds = (performance.now() - started) / 1000;
    const exported = lines - 1;
    const maxRssMb = process.resourceUsage().maxRSS / 1024;
    console.log(
      `\nCSV export of all ${exported.toLocaleString("en")} rows: ${seconds.toFixed(1)} s, ${Math.round(exported / seconds).toLocaleString("en")} rows/s, ${(bytes / 1_048_576).toFixed(0)} MB`,
    );
    console.log(
      `  RSS before ${(rssBefore / 1_048_576).toFixed(0)} MB, peak during export ${(peakRss / 1_048_576).toFixed(0)} MB, process high-water mark (maxRSS) ${maxRssMb.toFixed(0)} MB`,
    );
    if (exported !== accountRows) throw new Error(`exported ${exported} rows, expected ${accountRows}`);

    console.log("\nplans");
    for (const [name, filters] of [
      ["status+method+7 days", { status: "COMPLETED", method: "PIX", from: weekAgo, to: today }],
      ["search 'silva'", { q: "silva" }],
    ] as const) {
      const { ledgerConditions } = await import("@/lib/ledger/queries");
      const plan = await execute<{ "QUERY PLAN": string }>(
        sql`explain (analyze, costs off) select id from ledger_transactions where ${ledgerConditions(account.id, filters)} order by created_at desc nulls last, id desc nulls last limit 51`,
      );
      console.log(`  ${name}:\n${plan.rows.map((row) => `    ${row["QUERY PLAN"]}`).join("\n")}`);
    }
  } finally {
    await closeDb();
    if (process.env.BENCH_KEEP_DB) console.log(`kept database ${dbName}`);
    else await admin(`drop database if exists ${dbName} with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
