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

const serverUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const rowCount = Number(process.argv[2] ?? process.env.BENCH_ROWS ?? 1_000_000);
const runs = Number(process.env.BENCH_RUNS ?? 20);
const GOAL_MS = 300;

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
  return { p50: at(0.5), p95: at(0.95), max: sorted.at(-1)! };
}

/**
 * One statement makes every row: accounts 9 to 1 (the measured one and a neighbour), created over
 * the last 365 days, Pix 55 % / card 30 % / boleto 12 % / crypto (USD) 3 %, 8 % learned from the
 * gateway (external), statuses by method (Pix 78 % paid, card 82 % approved, boleto 60 % paid, the
 * rest pending, expired, cancelled or declined), 2 % of the paid refunded and 0.6 % charged back,
 * 5 % notified paid but not confirmed (pending_status, no paid_at), UTM values on 60 % of the rows.
 */
const SEED = `
  insert into ledger_transactions (id, account_id, kind, identifier, origin, submission, gateway_transaction_id, status,
    status_source, status_at, pending_status, pending_status_at, payment_method, amount_cents, fee_cents, currency, client_name,
    client_email, client_document, request, created_at, updated_at, paid_at, utm_source, utm_medium, utm_campaign, product_name,
    offer_code, origin_label)
  select 'bench-' || g, case when g % 10 = 0 then $2 else $1 end,
    case when external then 'external' else (array['pix_charge','card_charge','boleto_charge','crypto_charge'])[m] end,
    'order-' || g, case when external then 'webhook' else 'console' end, case when external then null else 'SUBMITTED' end,
    'tx_' || g, status, case when external then 'lookup' else 'creation' end, created_at,
    case when unconfirmed then 'COMPLETED' end, case when unconfirmed then created_at + interval '2 minutes' end,
    (array['PIX','CREDIT_CARD','BOLETO','CRYPTO'])[m], amount_cents, amount_cents / 20, case when m = 4 then 'USD' else 'BRL' end,
    (array['Ana','Bruno','Carla','Diego','Elisa','Fábio','Gabriela','Heitor','Isabela','João'])[1 + h % 10] || ' ' ||
      (array['Silva','Souza','Oliveira','Santos','Pereira','Lima','Carvalho','Ribeiro','Almeida','Gomes','Rocha'])[1 + (h / 10) % 11],
    'cliente' || g || '@example.com', lpad(((g::bigint * 104729) % 99999999999)::text, 11, '0'),
    jsonb_build_object('identifier', 'order-' || g, 'amount', amount_cents / 100.0,
      'client', jsonb_build_object('name', 'Cliente ' || g, 'email', 'cliente' || g || '@example.com', 'phone', '(11) 9' || lpad((g % 100000000)::text, 8, '0')),
      'products', jsonb_build_array(jsonb_build_object('id', 'p' || (h % 25), 'name', 'Produto ' || (h % 25), 'price', amount_cents / 100.0, 'quantity', 1)))
      || case when m = 3 then jsonb_build_object('dueDate', to_char((created_at at time zone 'America/Sao_Paulo')::date + 3, 'YYYY-MM-DD')) else '{}' end,
    created_at, created_at,
    case when paid then created_at + case m when 1 then (30 + h % 1800) * interval '1 second' when 3 then (1 + h % 3) * interval '1 day'
      else (h % 5) * interval '1 second' end end,
    case when h % 10 < 6 then (array['google','facebook','instagram','tiktok','youtube','email'])[1 + (h / 7) % 6] end,
    case when h % 10 < 6 then (array['cpc','social','organic','email','video'])[1 + (h / 11) % 5] end,
    case when h % 10 < 5 then 'campanha-' || ((h / 13) % 40) end,
    case when h % 20 < 19 then 'Produto ' || (h % 25) end,
    case when h % 10 < 4 then 'OFF-' || ((h / 17) % 60) end,
    case when h % 50 = 0 then (array['bio','live','grupo-vip'])[1 + (h / 19) % 3] end
  from (
    select g, h, m, external, unconfirmed, created_at, amount_cents,
      paid and not unconfirmed as paid,
      case when unconfirmed then 'PENDING'
        when paid and r < 20 then 'REFUNDED' when paid and r < 26 then 'CHARGED_BACK' when paid then 'COMPLETED'
        when m = 2 then 'FAILED' when r < 300 then 'EXPIRED' when r < 400 then 'CANCELED' else 'PENDING' end as status
    from (
      select g, h, m, created_at, amount_cents, external, unconfirmed, r,
        case m when 1 then p < 780 when 2 then p < 820 when 3 then p < 600 else p < 700 end as paid
      from (
        select g, h, created_at, h % 100 < 8 as external, (h / 100) % 20 = 0 as unconfirmed,
          (h / 3) % 1000 as p, (h / 7) % 1000 as r,
          case when h % 1000 < 550 then 1 when h % 1000 < 850 then 2 when h % 1000 < 970 then 3 else 4 end as m,
          (1990 + (h % 48000))::bigint as amount_cents
        from (
          select g, ((g::bigint * 2654435761) % 4294967291)::bigint as h,
            now() - ((g::bigint * 7919) % (365 * 86400)) * interval '1 second' as created_at
          from generate_series($3::bigint, $4::bigint) as g
        ) base
      ) drawn
    ) decided
  ) rows`;

type Sql = typeof import("drizzle-orm").sql;
type Db = Awaited<ReturnType<typeof import("@/lib/db/client").getDb>>;

/** Seeds the database the process points at; returns the measured account's id. */
async function seed(db: Db, sql: Sql): Promise<string> {
  const { createAccount } = await import("@/lib/accounts/queries");
  const pg = (await import("pg")).default;
  const account = await createAccount(
    { name: "Bench", baseUrl: "https://gw.example", publicKey: "pk_bench", secretKey: "sk_bench_000000", webhookToken: null, mode: "test" },
    null,
  );
  const other = await createAccount(
    { name: "Other", baseUrl: "https://gw.example", publicKey: "pk_other", secretKey: "sk_other_000000", webhookToken: null, mode: "test" },
    null,
  );

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
    await client.query(SEED, [account.id, other.id, first, Math.min(rowCount, first + chunk - 1)]);
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
          text: `update ledger_transactions set status = 'COMPLETED', status_source = 'lookup', status_at = now(), paid_at = now(),
            last_lookup_status = 'COMPLETED', last_lookup_at = now(), updated_at = now() where id = $1`,
          params: [id],
        })),
      },
      {
        name: "applier batch, no fact changes (256 rows)",
        per: "batch",
        triggers: ["ledger_sales_rollup_update", "ledger_sales_rollup_updated"],
        samples: batches(noSource).map((ids) => ({
          text: `update ledger_transactions set last_webhook_status = 'COMPLETED', last_webhook_at = now(), pending_status = 'COMPLETED',
            pending_status_at = now(), updated_at = now() where id = any($1)`,
          params: [ids],
        })),
      },
      {
        name: "applier batch filling utm_source (256 rows)",
        per: "batch",
        triggers: ["ledger_sales_rollup_update", "ledger_sales_rollup_updated"],
        samples: batches(noSource).map((ids) => ({
          text: `update ledger_transactions set utm_source = 'google', last_webhook_at = now(), updated_at = now() where id = any($1)`,
          params: [ids],
        })),
      },
      {
        name: "a charge the gateway created (insert)",
        per: "statement",
        triggers: ["ledger_sales_rollup_insert", "ledger_sales_rollup_inserted"],
        samples: Array.from({ length: 400 }, (_, i) => ({
          text: `insert into ledger_transactions (account_id, kind, identifier, origin, submission, status, status_source, payment_method,
              amount_cents, utm_source, utm_medium, product_name)
            values ($1, 'pix_charge', $2, 'console', 'SUBMITTED', 'OK', 'creation', 'PIX', 9700, 'google', 'cpc', 'Produto 1')`,
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
