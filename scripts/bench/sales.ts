/**
 * The sales reports (lib/sales/queries.ts) on a 1,000,000-row ledger, through the real functions.
 *   npm run bench:sales -- [rows]
 *   BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/test), BENCH_ROWS (default 1,000,000),
 *   BENCH_RUNS (default 20), BENCH_KEEP_DB=1 keeps the database (for EXPLAIN
 *   sessions), BENCH_DB=<name> measures such a kept database again without seeding it.
 * Creates a throw-away database on that server (lib/testing's), seeds it with generate_series,
 * times every report for the last 30 and 90 days (each with its comparison period) and prints
 * p50/p95 per query against the 300 ms goal, then drops the database.
 */
import { randomBytes } from "node:crypto";
import { ROLLUP_UPKEEP, SALES_BENCH_ROWS } from "@/lib/ledger/synthetic/bench-rows";
import { benchAccounts } from "./accounts";

const serverUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const rowCount = Number(process.argv[2] ?? process.env.BENCH_ROWS ?? 1_000_000);
const runs = Number(process.env.BENCH_RUNS ?? 20);
const GOAL_MS = 300;

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
  return { p50: at(0.5), p95: at(0.95), max: sorted.at(-1)! };
}

type Sql = typeof import("drizzle-orm").sql;
type Db = Awaited<ReturnType<typeof import("@/lib/db/client").getDb>>;

/** Seeds the database the process points at; returns the measured account's id. */
async function seed(db: Db, sql: Sql): Promise<string> {
  const pg = (await import("pg")).default;
  const { account, other } = await benchAccounts();

  // Bulk load without the secondary indexes and the triggers (outbox, rollups), then build them: how a restore would do it.
  const indexes = await db.execute<{ indexname: string; indexdef: string }>(sql`
    select indexname, indexdef from pg_indexes where tablename = 'ledger_transactions' and indexname <> 'ledger_transactions_pkey'`);
  for (const index of indexes.rows) await db.execute(sql.raw(`drop index "${index.indexname}"`));
  await db.execute(sql`alter table ledger_transactions disable trigger user`);
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  let started = performance.now();
  const chunk = 100_000;
  for (let first = 1; first <= rowCount; first += chunk) {
    await client.query(SALES_BENCH_ROWS, [account.id, other.id, first, Math.min(rowCount, first + chunk - 1)]);
    process.stdout.write(`\rseeding ${Math.min(rowCount, first + chunk - 1).toLocaleString("en")} rows`);
  }
  // A tenth of the last 30 days' Pix and boletos were marked (a quarter of them lost); some of the contacted paid later.
  await client.query(
    `insert into recovery_marks (account_id, ledger_id, state, note, by_email, at)
     select account_id, id, case when (hashtext(id) & 3) = 0 then 'lost' else 'contacted' end, 'bench', 'ops@example.com',
       created_at + interval '20 minutes'
     from ledger_transactions
     where account_id = $1 and created_at > now() - interval '30 days' and payment_method in ('PIX', 'BOLETO')
       and (hashtext(id) % 10) = 0`,
    [account.id],
  );
  await client.end();
  const seedMs = performance.now() - started;
  await db.execute(sql`alter table ledger_transactions enable trigger user`);
  started = performance.now();
  for (const index of indexes.rows) await db.execute(sql.raw(index.indexdef));
  await db.execute(sql`vacuum analyze ledger_transactions`);
  await db.execute(sql`vacuum analyze recovery_marks`);
  const indexMs = performance.now() - started;
  // The rows went in with the triggers off: the rollups are built in one pass, as migration 0015 does for an existing ledger.
  started = performance.now();
  await db.execute(sql`select sales_rollup_rebuild()`);
  await db.execute(sql`vacuum analyze sales_daily`);
  const rollupMs = performance.now() - started;
  const counts = (
    await db.execute<{ rows: string; paid: string; unconfirmed: string; marks: string; size: string; rollups: string }>(sql`
      select count(*) as rows, count(paid_at) as paid, count(pending_status) as unconfirmed,
        (select count(*) from recovery_marks) as marks, pg_size_pretty(pg_total_relation_size('ledger_transactions')) as size,
        (select count(*) from sales_daily) as rollups
      from ledger_transactions where account_id = ${account.id}`)
  ).rows[0]!;
  const k = (v: string) => Number(v).toLocaleString("en");
  console.log(
    `\rseeded ${rowCount.toLocaleString("en")} rows in ${(seedMs / 1000).toFixed(1)} s, indexes + vacuum analyze ${(indexMs / 1000).toFixed(1)} s; ` +
      `measured account: ${k(counts.rows)} rows, ${k(counts.paid)} paid, ${k(counts.unconfirmed)} notified but unconfirmed, ` +
      `${k(counts.marks)} recovery marks; ledger with its indexes ${counts.size}`,
  );
  console.log(`rollups (sales_daily) built from the whole ledger in ${(rollupMs / 1000).toFixed(1)} s: ${k(counts.rollups)} rows`);
  return account.id;
}

/**
 * What the rollup triggers add to the writes that record facts, each statement timed inside a
 * transaction that is then rolled back (the database is left as it was), with the triggers and
 * with them disabled. The outbox trigger runs in both.
 */
async function writeCost(accountId: string) {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const pick = async (where: string, limit: number) =>
      (
        await client.query<{ id: string }>(
          `select id from ledger_transactions where account_id = $1 and ${where} order by created_at desc limit ${limit}`,
          [accountId],
        )
      ).rows.map((r) => r.id);
    const unpaidPix = await pick("paid_at is null and payment_method = 'PIX' and status = 'PENDING'", 400);
    const noSource = await pick("utm_source is null and paid_at is null", 256 * 30);
    const batches = (ids: string[]) => Array.from({ length: Math.floor(ids.length / 256) }, (_, i) => ids.slice(i * 256, i * 256 + 256));
    type Case = { name: string; per: string; triggers: string[]; samples: { text: string; params: unknown[] }[] };
    const cases: Case[] = [
      {
        name: "confirm a payment (one row, as a lookup does)",
        per: "statement",
        triggers: ["ledger_sales_rollup_update", "ledger_sales_rollup_updated"],
        samples: unpaidPix.map((id) => ({
          text: ROLLUP_UPKEEP.confirmOne,
          params: [id],
        })),
      },
      {
        name: "applier batch, no fact changes (256 rows)",
        per: "batch",
        triggers: ["ledger_sales_rollup_update", "ledger_sales_rollup_updated"],
        samples: batches(noSource).map((ids) => ({
          text: ROLLUP_UPKEEP.applierNoFact,
          params: [ids],
        })),
      },
      {
        name: "applier batch filling utm_source (256 rows)",
        per: "batch",
        triggers: ["ledger_sales_rollup_update", "ledger_sales_rollup_updated"],
        samples: batches(noSource).map((ids) => ({
          text: ROLLUP_UPKEEP.applierUtm,
          params: [ids],
        })),
      },
      {
        name: "a charge the gateway created (insert)",
        per: "statement",
        triggers: ["ledger_sales_rollup_insert", "ledger_sales_rollup_inserted"],
        samples: Array.from({ length: 400 }, (_, i) => ({
          text: ROLLUP_UPKEEP.gatewayCreated,
          params: [accountId, `write-cost-${process.pid}-${i}`],
        })),
      },
    ];
    console.log("\nrollup upkeep: each statement in a transaction rolled back afterwards, with the triggers and without them");
    console.log(`  ${"write".padEnd(48)} ${"with".padStart(10)} ${"without".padStart(10)}  (median per statement)`);
    for (const item of cases) {
      const once = async (statement: Case["samples"][number]) => {
        await client.query("begin");
        const t0 = performance.now();
        await client.query(statement.text, statement.params);
        const elapsed = performance.now() - t0;
        await client.query("rollback");
        return elapsed;
      };
      // In blocks of BLOCK statements, with and without in turn (first one way, then the other), so
      // neither side gets a warmer cache. The triggers are switched between blocks, not in each
      // statement's transaction: switching them invalidates the connection's cached plans, which a
      // writer in production keeps (the medians leave out each block's first, replanned statements).
      const BLOCK = 25;
      const withTrigger: number[] = [];
      const without: number[] = [];
      const setTriggers = async (enabled: boolean) => {
        for (const trigger of item.triggers)
          await client.query(`alter table ledger_transactions ${enabled ? "enable" : "disable"} trigger ${trigger}`);
      };
      // A kept database (BENCH_DB) is left with its triggers on, whatever happens.
      try {
        for (let start = 0; start < item.samples.length; start += BLOCK) {
          const block = item.samples.slice(start, start + BLOCK);
          for (const enabled of (start / BLOCK) % 2 === 0 ? [true, false] : [false, true]) {
            await setTriggers(enabled);
            for (const statement of block) (enabled ? withTrigger : without).push(await once(statement));
          }
        }
      } finally {
        await setTriggers(true);
      }
      const ms = (v: number) => `${v.toFixed(2)} ms`.padStart(10);
      console.log(`  ${item.name.padEnd(48)} ${ms(stats(withTrigger).p50)} ${ms(stats(without).p50)}`);
    }
  } finally {
    await client.end();
  }
}

async function main() {
  process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");
  const { testDatabases, useDatabase: pointAt } = await import("@/lib/testing/databases");
  // BENCH_DB measures a database kept by an earlier run (BENCH_KEEP_DB) without seeding or dropping it.
  const reused = process.env.BENCH_DB;
  let target: { url?: string; drop: () => Promise<void> };
  if (reused) {
    const url = new URL(serverUrl);
    url.pathname = `/${reused}`;
    target = { url: url.toString(), drop: async () => {} };
    process.env.DATABASE_URL = target.url;
    delete process.env.PGLITE_DIR;
  } else {
    process.env.TEST_DATABASE_URL = serverUrl;
    const created = (await testDatabases()).find((t) => t.name === "postgres")!;
    pointAt(created);
    target = created;
  }

  const { getDb, closeDb } = await import("@/lib/db/client");
  const sales = await import("@/lib/sales/queries");
  const { lastDays } = await import("@/lib/sales/period");
  const { saoPauloDate } = await import("@/lib/i18n/format");
  const { sql } = await import("drizzle-orm");

  try {
    const db = await getDb();
    const accountId = reused
      ? (await db.execute<{ id: string }>(sql`select id from gateway_accounts where name = 'Bench'`)).rows[0]!.id
      : await seed(db, sql);

    const today = saoPauloDate();
    const cases: { name: string; run: () => Promise<unknown> }[] = [];
    // 7 days: few enough Pix sales (≤ EXACT_MEDIAN_MAX_SALES) for the exact median from the ledger; 30 and 90 read the histogram.
    for (const days of [7, 30, 90]) {
      const period = lastDays(days, today);
      cases.push({ name: `overview ${days}d (+ previous ${days}d)`, run: () => sales.salesOverview(accountId, period) });
      for (const dimension of days === 7 ? [] : sales.ORIGIN_DIMENSIONS) {
        cases.push({ name: `by origin ${days}d: ${dimension}`, run: () => sales.salesByOrigin(accountId, period, { dimension }) });
      }
    }
    const settings = await sales.getSalesSettings(accountId);
    let recoveryTotal = 0;
    cases.push({
      name: "recovery worklist (first 100)",
      run: async () => {
        const list = await sales.recoveryWorklist(accountId, { pixDelayMs: settings.pixDelayMs, boletoDelayMs: settings.boletoDelayMs });
        recoveryTotal = list.total;
        return list;
      },
    });

    console.log(`\nreport queries, ${runs} runs each after 2 warm-ups (wall time of the lib/sales function, Postgres on this machine)`);
    console.log(`  ${"query".padEnd(40)} ${"p50".padStart(9)} ${"p95".padStart(9)} ${"max".padStart(9)}  goal p95 < ${GOAL_MS} ms`);
    let worst = 0;
    for (const item of cases) {
      await item.run();
      await item.run();
      const samples: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        await item.run();
        samples.push(performance.now() - t0);
      }
      const s = stats(samples);
      worst = Math.max(worst, s.p95);
      const ms = (v: number) => `${v.toFixed(1)} ms`.padStart(9);
      console.log(`  ${item.name.padEnd(40)} ${ms(s.p50)} ${ms(s.p95)} ${ms(s.max)}  ${s.p95 < GOAL_MS ? "ok" : "OVER"}`);
    }
    console.log(`  (recovery list: ${recoveryTotal.toLocaleString("en")} charges to recover)`);
    console.log(`worst p95 ${worst.toFixed(1)} ms: ${worst < GOAL_MS ? "every report under" : "over"} the ${GOAL_MS} ms goal`);
    await writeCost(accountId);
  } finally {
    await closeDb();
    if (reused || process.env.BENCH_KEEP_DB) console.log(`kept database ${new URL(target.url!).pathname.slice(1)}`);
    else await target.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
