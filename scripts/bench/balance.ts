/**
 * The balance page's queries (lib/balance) on a 1,000,000-row ledger with three years of movements.
 *   npm run bench:balance -- [rows]
 *   BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/test), BENCH_ROWS (default 1,000,000),
 *   BENCH_RUNS (default 20), BENCH_KEEP_DB=1 keeps the database.
 * Seeds a throw-away database with generate_series: ledger rows over the last three years (90 % of
 * them on the measured account), their movements as lib/ledger/movements.ts derives them (sale, fee,
 * release at D+0/D+1/D+30 by method, 2 % refunded, 0.5 % charged back) and a few Pix transfers a
 * day, then builds the per-day sums as the trigger would have. Times the figures, the 60-day
 * calendar, the first and a later page of a month's extrato and that month's closing (p95 goal
 * 200 ms), and the month's CSV (goal 50,000 lines/s), then drops the database.
 */
import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { BALANCE_BENCH_ROWS } from "@/lib/ledger/synthetic/bench-rows";
import { benchAccounts } from "./accounts";

const serverUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const rowCount = Number(process.argv[2] ?? process.env.BENCH_ROWS ?? 1_000_000);
const runs = Number(process.env.BENCH_RUNS ?? 20);
const GOAL_MS = 200;
const GOAL_LINES_PER_S = 50_000;

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
  return { p50: at(0.5), p95: at(0.95), max: sorted.at(-1)! };
}

/** The movements of those rows, by the rules of lib/ledger/movements.ts (a reversal before the release cancels it). */
const MOVEMENTS = `
  insert into ledger_movements (account_id, kind, ledger_id, reference, available_cents, pending_cents, occurred_at)
  select l.account_id, k.kind, l.id, l.gateway_transaction_id, k.available, k.pending, k.at
  from ledger_transactions l
  cross join lateral (values
    ('sale', 0::bigint, l.amount_cents, l.paid_at),
    ('fee', 0::bigint, -l.fee_cents, l.paid_at),
    ('release', l.amount_cents - l.fee_cents, l.fee_cents - l.amount_cents,
      case when l.reversed_at is null or l.available_at <= l.reversed_at then l.available_at end),
    (case when l.status = 'REFUNDED' then 'refund' else 'chargeback' end,
      case when l.available_at <= l.reversed_at then -l.amount_cents else -l.fee_cents end,
      case when l.available_at <= l.reversed_at then 0 else l.fee_cents - l.amount_cents end, l.reversed_at)
  ) as k(kind, available, pending, at)
  where l.id like 'bal-%' and l.paid_at is not null and k.at is not null`;

/** Three Pix transfers a day on the measured account, R$ 1,00 fee each, 1 % failed and given back. */
const TRANSFERS = `
  with t as (
    insert into transfers (id, account_id, identifier, submission, amount_cents, discount_fee_of_receiver, pix_key_type, pix_key, owner_name,
      owner_document_type, owner_document_number, owner_ip, callback_url, withdraw_id, withdraw_status, withdraw_status_at, fee_cents, created_at, updated_at)
    select 'btr-' || g, $1, 'tr-' || g, 'SUBMITTED', 50000 + (g * 131) % 200000, false, 'email', 'r@example.com', 'Recebedor', 'cpf', '52998224725',
      '203.0.113.5', 'https://console.example/cb', 'wd_' || g, case when g % 100 = 0 then 'FAILED' else 'COMPLETED' end,
      now() - (g * 8 * 3600 - 600) * interval '1 second', 100, now() - g * 8 * 3600 * interval '1 second', now()
    from generate_series(1, 3 * 365 * 3) as g
    returning id, account_id, amount_cents, fee_cents, withdraw_id, withdraw_status, withdraw_status_at, created_at
  )
  insert into ledger_movements (account_id, kind, transfer_id, reference, available_cents, pending_cents, occurred_at)
  select t.account_id, k.kind, t.id, t.withdraw_id, k.available, 0, k.at from t
  cross join lateral (values ('transfer', -t.amount_cents, t.created_at), ('transfer_fee', -t.fee_cents, t.created_at),
    ('transfer_returned', case when t.withdraw_status = 'FAILED' then t.amount_cents end, t.withdraw_status_at),
    ('transfer_fee_returned', case when t.withdraw_status = 'FAILED' then t.fee_cents end, t.withdraw_status_at)) as k(kind, available, at)
  where k.available is not null`;

async function main() {
  process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");
  const { testDatabases, useDatabase: pointAt } = await import("@/lib/testing/databases");
  process.env.TEST_DATABASE_URL = serverUrl;
  const target = (await testDatabases()).find((t) => t.name === "postgres")!;
  pointAt(target);
  const { getDb, closeDb } = await import("@/lib/db/client");
  const { sql } = await import("drizzle-orm");
  const balance = await import("@/lib/balance/queries");
  const { statementCsvChunks } = await import("@/lib/balance/export");
  const { saoPauloDate } = await import("@/lib/i18n/format");
  const pg = (await import("pg")).default;
  try {
    const db = await getDb();
    const { account, other } = await benchAccounts();
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    const started = performance.now();
    // Bulk load as a restore would: the ledger's triggers (outbox, rollups) and the movements' day sums are off, then rebuilt.
    await client.query("alter table ledger_transactions disable trigger user");
    await client.query("alter table ledger_movements disable trigger user");
    for (let first = 1; first <= rowCount; first += 100_000) {
      await client.query(BALANCE_BENCH_ROWS, [account.id, other.id, first, Math.min(rowCount, first + 99_999)]);
      process.stdout.write(`\rseeding ${Math.min(rowCount, first + 99_999).toLocaleString("en")} ledger rows`);
    }
    await client.query(MOVEMENTS);
    await client.query(TRANSFERS, [account.id]);
    await client.query(`insert into ledger_movement_days (account_id, day, available_cents, pending_cents, movements)
      select account_id, (occurred_at at time zone 'America/Sao_Paulo')::date, sum(available_cents), sum(pending_cents), count(*)
      from ledger_movements group by 1, 2`);
    await client.query("alter table ledger_transactions enable trigger user");
    await client.query("alter table ledger_movements enable trigger user");
    await client.query("vacuum analyze ledger_transactions, ledger_movements, ledger_movement_days, transfers");
    const counts = (
      await client.query<{ movements: string; days: string }>(
        "select (select count(*) from ledger_movements where account_id = $1) as movements, (select count(*) from ledger_movement_days where account_id = $1) as days",
        [account.id],
      )
    ).rows[0]!;
    await client.end();
    console.log(
      `\rseeded ${rowCount.toLocaleString("en")} ledger rows and their movements in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
        `measured account: ${Number(counts.movements).toLocaleString("en")} movements over ${counts.days} days`,
    );

    const today = saoPauloDate();
    const month = today.slice(0, 7);
    const lastMonthStart = new Date(`${month}-01T12:00:00Z`);
    lastMonthStart.setUTCMonth(lastMonthStart.getUTCMonth() - 1);
    const last = lastMonthStart.toISOString().slice(0, 7);
    const lastMonthDays = new Date(Date.UTC(Number(last.slice(0, 4)), Number(last.slice(5, 7)), 0)).getUTCDate();
    const period = { from: `${last}-01`, to: `${last}-${String(lastMonthDays).padStart(2, "0")}` };
    // An entry read a year ago: the figures carry it forward over a year of movements.
    await db.execute(sql`insert into balance_entries (account_id, available_cents, pending_cents, read_at)
      values (${account.id}, 1000000, 500000, now() - interval '365 days')`);
    const middle = await balance.statementPage(account.id, { period }, { limit: 5000 });
    const cursor = middle.nextCursor;

    const cases: { name: string; run: () => Promise<unknown> }[] = [
      { name: "figures (Disponível, A liberar)", run: () => balance.balanceFigures(account.id) },
      { name: "release calendar, 60 days", run: () => balance.releaseCalendar(account.id) },
      { name: `extrato ${last}, first page (100)`, run: () => balance.statementPage(account.id, { period }) },
      { name: `extrato ${last}, page after 5,000`, run: () => balance.statementPage(account.id, { period }, { cursor }) },
      { name: `extrato ${last}, releases only`, run: () => balance.statementPage(account.id, { period, kinds: ["release"] }) },
      { name: `month closing ${last}`, run: () => balance.monthClosing(account.id, last) },
      { name: `period totals ${last}`, run: () => balance.totalsByKind(account.id, period) },
    ];
    console.log(`\nbalance queries, ${runs} runs each after 2 warm-ups (wall time of the lib/balance function)`);
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
    console.log(`worst p95 ${worst.toFixed(1)} ms: ${worst < GOAL_MS ? "every query under" : "over"} the ${GOAL_MS} ms goal`);

    const { MOVEMENT_KINDS } = await import("@/lib/db/schema");
    const words = Object.fromEntries(MOVEMENT_KINDS.map((k) => [k, k])) as Parameters<typeof statementCsvChunks>[2];
    for (let round = 1; round <= 3; round++) {
      let lines = -1;
      let bytes = 0;
      const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
      const t0 = performance.now();
      for await (const chunk of statementCsvChunks(account.id, { period }, words)) {
        lines += chunk.split("\r\n").length - 1;
        bytes += Buffer.byteLength(chunk);
        sink.write(chunk);
      }
      const seconds = (performance.now() - t0) / 1000;
      const rate = lines / seconds;
      console.log(
        `extrato CSV ${last} (round ${round}): ${lines.toLocaleString("en")} lines, ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(2)} s = ` +
          `${Math.round(rate).toLocaleString("en")} lines/s  ${rate >= GOAL_LINES_PER_S ? "ok" : "UNDER"} (goal ${GOAL_LINES_PER_S.toLocaleString("en")})`,
      );
    }
  } finally {
    await closeDb();
    if (process.env.BENCH_KEEP_DB) console.log(`kept database ${new URL(target.url!).pathname.slice(1)}`);
    else await target.drop();
  }
}

await main();
