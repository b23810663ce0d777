/**
 * `npm run chaos`: crash safety of the console proven by killing real processes. The production
 * build served as `npm start` serves it (scripts/run/start.mjs: `next start` plus the background
 * worker, on Postgres), the sandbox gateway on a database of its own behind a proxy that counts
 * lookups, temporary databases dropped at the end. Scenarios, each asserted, each printing what
 * it measured:
 *
 *   a. the web server SIGKILLed under a load of distinct deliveries: every acknowledged (2xx) one
 *      is stored exactly once and applied within a minute of the restart;
 *   b. every console connection to Postgres terminated (web and worker) under load: 2xx again
 *      within 10 s, nothing acknowledged lost;
 *   c. the web server SIGKILLed while a Pix charge's gateway call is in flight (the sandbox holds
 *      its answer): after the restart exactly one transaction at the gateway, the console shows it
 *      created within 3 minutes without a click, with its Pix copy-and-paste code;
 *   d. two web servers and two workers on one Postgres: a delivery received by one reaches the
 *      live feed of the other; each row is looked up at the gateway once per scheduled attempt;
 *   e. SIGTERM: requests in flight finish (2xx), the worker stops at a safe point.
 *
 * Env: TEST_DATABASE_URL (Postgres server; default postgres://postgres@127.0.0.1:5432/test),
 * NEXT_DIST_DIR (the build to serve, default .next; `next build` first), CHAOS_PORT (3215: the two
 * consoles on the first free ports from it, the sandbox and its proxy from it + 1000), CHAOS_DELIVERIES (3000),
 * CHAOS_ONLY=a,c (a subset). Exit code 1 when a scenario fails.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import process from "node:process";
import {
  alive,
  createDatabase,
  createdNotification,
  deliver,
  freePorts,
  killAll,
  launch,
  lookupProxy,
  ok,
  percentile,
  query,
  root,
  sandboxCall,
  sleep,
  startConsole,
  stopConsole,
  waitUntil,
  type ConsoleInstance,
  type Delivery,
  type LookupProxy,
} from "./harness";
import { cookieHeader, openFeedStream, signIn } from "../dev/served-session";
import { PENDING_PIX_CHARGES } from "@/lib/ledger/synthetic/charges";

const serverUrl = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const distDir = process.env.NEXT_DIST_DIR || ".next";
const basePort = Number(process.env.CHAOS_PORT ?? 3215);
const deliveries = Number(process.env.CHAOS_DELIVERIES ?? 3000);
const only = process.env.CHAOS_ONLY ? new Set(process.env.CHAOS_ONLY.split(",").map((s) => s.trim())) : null;
const TOKEN = "wht_sandbox_demo";
const admin = { email: "chaos@example.com", password: `chaos-${randomUUID()}` };

type Outcome = { name: string; passed: boolean; lines: string[]; failures: string[]; warnings: string[] };

class Scenario {
  lines: string[] = [];
  failures: string[] = [];
  warnings: string[] = [];
  constructor(readonly name: string) {}
  print(line: string) {
    this.lines.push(line);
    console.log(`  ${line}`);
  }
  warn(warning: string) {
    this.warnings.push(warning);
    console.log(`  ! ${warning}`);
  }
  check(condition: boolean, failure: string) {
    if (!condition) {
      this.failures.push(failure);
      console.log(`  ✗ ${failure}`);
    }
    return condition;
  }
}

// ── The setting ─────────────────────────────────────────────────────────────────────────────

type World = {
  consoleDb: { name: string; url: string };
  sandboxDb: { url: string };
  sandboxBase: string;
  proxy: LookupProxy;
  env: (port: number) => Record<string, string>;
  accountId: string;
  a: ConsoleInstance;
  b?: ConsoleInstance;
  bPort: number;
};

function consoleEnv(databaseUrl: string, gatewayUrl: string, secrets: { key: string; auth: string }, dataRoot: string) {
  return (port: number): Record<string, string> => ({
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: `http://127.0.0.1:${port}`,
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: path.join(dataRoot, `console-${port}`),
    NEXT_DIST_DIR: distDir,
    DATABASE_URL: databaseUrl,
    APP_ENCRYPTION_KEY: secrets.key,
    NEXTAUTH_SECRET: secrets.auth,
    GATEWAY_BASE_URL: gatewayUrl,
    GATEWAY_PUBLIC_KEY: "pk_sandbox_demo",
    GATEWAY_SECRET_KEY: "sk_sandbox_demo",
    GATEWAY_WEBHOOK_TOKEN: TOKEN,
    GATEWAY_ACCOUNT_NAME: "Sandbox — chaos",
    GATEWAY_MODE: "test",
    SEED_ADMIN_EMAIL: admin.email,
    SEED_ADMIN_PASSWORD: admin.password,
    // The reconciler's schedule shortened as in e2e/fixtures/server.mjs, and a 5 s gateway timeout:
    // a submission left SUBMITTING by a killed process is looked up 20 s after it was sent.
    RECONCILE_DELAYS_MS: "1000,2000,3000",
    RECONCILE_ABSENT_AFTER_MS: "3000",
    RECONCILE_INTERVAL_MS: "500",
    GATEWAY_TIMEOUT_MS: "5000",
    DESTINATION_RETRY_DELAYS_MS: "0,1000,2000,5000,5000",
  });
}

/** After the web server was killed: `npm start` brings it back itself, or (when it stopped with it) it is started again as a process manager would. */
async function restartAfterKill(
  world: World,
  instance: ConsoleInstance,
  killedPid: number,
  label: string,
): Promise<{ instance: ConsoleInstance; how: string; ms: number }> {
  const from = Date.now();
  const deadline = Date.now() + 8_000;
  while (Date.now() < deadline) {
    if (instance.start.child.exitCode !== null || instance.start.child.signalCode !== null) break;
    const web = instance.webPid();
    if (web && web !== killedPid) {
      await waitUntil(
        `${label}: the restarted web server answering`,
        120_000,
        async () => {
          const response = await fetch(`${instance.base}/sign-in`, { redirect: "manual", signal: AbortSignal.timeout(3_000) });
          return response.status < 500;
        },
        200,
      );
      return { instance, how: "npm start restarted the web server itself", ms: Date.now() - from };
    }
    await sleep(100);
  }
  if (instance.start.child.exitCode === null && instance.start.child.signalCode === null) {
    // Neither restarted nor stopped: take it down and start again.
    await stopConsole(instance);
  }
  const restarted = await startConsole(label, world.env(instance.port));
  return {
    instance: restarted,
    how: `npm start stopped with its web server (exit code ${instance.start.child.exitCode}); started again as a process manager would`,
    ms: Date.now() - from,
  };
}

type NotificationRow = { tx: string; n: number; applied: number; ledger: number };

/**
 * The charges a run's deliveries are about, in the ledger as the console records what it created
 * (a notification about a transaction the ledger does not have waits for the gateway's lookup
 * and creates nothing until it confirms: lib/ledger/notifications.ts). "Applied to the ledger"
 * is then each delivery's status on its row.
 */
async function seedLedger(world: World, run: string, count: number): Promise<void> {
  await query(world.consoleDb.url, PENDING_PIX_CHARGES, [world.accountId, run, count]);
}

/** Per transaction id of a run: stored events, applied ones, ledger rows. */
async function storedByTx(world: World, run: string): Promise<Map<string, NotificationRow>> {
  const rows = await query<NotificationRow>(
    world.consoleDb.url,
    `select e.gateway_transaction_id as tx, count(*)::int as n, (count(*) filter (where e.apply_state = 'applied'))::int as applied,
            (select count(*)::int from ledger_transactions l where l.account_id = $2 and l.gateway_transaction_id = e.gateway_transaction_id and l.last_webhook_at is not null) as ledger
       from gateway_notifications e where e.gateway_transaction_id like $1 group by e.gateway_transaction_id`,
    [`tx_${run}_%`, world.accountId],
  );
  return new Map(rows.map((row) => [row.tx, row]));
}

/** Waits until every acknowledged delivery of the run is applied and in the ledger; returns the counts. */
async function settleAcknowledged(world: World, run: string, acked: Delivery[], timeoutMs: number) {
  const started = Date.now();
  let byTx = await storedByTx(world, run);
  const done = () => acked.every((d) => (byTx.get(d.txId)?.applied ?? 0) >= 1 && (byTx.get(d.txId)?.ledger ?? 0) >= 1);
  while (!done() && Date.now() - started < timeoutMs) {
    await sleep(250);
    byTx = await storedByTx(world, run);
  }
  const stored = acked.filter((d) => byTx.has(d.txId)).length;
  const once = acked.filter((d) => byTx.get(d.txId)?.n === 1).length;
  const duplicated = [...byTx.values()].filter((row) => row.n > 1).length;
  const applied = acked.filter((d) => (byTx.get(d.txId)?.applied ?? 0) >= 1).length;
  const inLedger = acked.filter((d) => byTx.get(d.txId)?.ledger === 1).length;
  return { stored, once, duplicated, applied, inLedger, storedAll: byTx.size, ms: Date.now() - started, done: done() };
}

function tally(results: Delivery[]) {
  const acked = results.filter(ok);
  const errors = new Map<string, number>();
  for (const d of results.filter((r) => !ok(r))) {
    const key = d.status ? String(d.status) : (d.error ?? "no answer");
    errors.set(key, (errors.get(key) ?? 0) + 1);
  }
  return { acked, other: [...errors].map(([k, v]) => `${k} ×${v}`).join(", ") || "none" };
}

// ── a. the web server killed under load ─────────────────────────────────────────────────────

async function scenarioKillUnderLoad(world: World, s: Scenario): Promise<void> {
  const run = `a${randomBytes(3).toString("hex")}`;
  await seedLedger(world, run, deliveries);
  const url = `${world.a.base}/api/webhooks/${world.accountId}`;
  let killed = false;
  let answered = 0;
  const loadStarted = Date.now();
  const load = deliver({
    url,
    token: TOKEN,
    run,
    count: deliveries,
    concurrency: 16,
    stop: () => killed,
    onAnswer: (d) => (answered += ok(d) ? 1 : 0),
  });
  // The kill lands mid-load: after 60 % of the deliveries were acknowledged, or 5 s.
  await waitUntil(
    "scenario a: load under way",
    60_000,
    async () => answered >= deliveries * 0.6 || (answered > 50 && Date.now() - loadStarted > 5_000),
    20,
  );
  const web = world.a.webPid();
  if (!web) throw new Error("no web server process found below npm start");
  process.kill(web, "SIGKILL");
  const killedAt = Date.now();
  await sleep(300);
  killed = true;
  const results = await load;
  const { acked, other } = tally(results);
  s.print(
    `load: ${results.length} sent over 16 connections in ${((killedAt - loadStarted) / 1000).toFixed(1)} s until SIGKILL of the web server (pid ${web}); ${acked.length} acknowledged, others: ${other}`,
  );
  const restart = await restartAfterKill(world, world.a, web, "console-a");
  world.a = restart.instance;
  s.print(`restart: ${restart.how}; answering ${(restart.ms / 1000).toFixed(1)} s after the kill`);
  const counts = await settleAcknowledged(world, run, acked, 60_000);
  s.print(
    `acknowledged ${acked.length} / stored ${counts.stored} (exactly once: ${counts.once}; stored of all sent, acknowledged or not: ${counts.storedAll}; duplicated: ${counts.duplicated}) / applied ${counts.applied} (in the ledger: ${counts.inLedger}), all applied ${(counts.ms / 1000).toFixed(1)} s after the restart`,
  );
  s.check(acked.length > 0, "no delivery was acknowledged before the kill");
  s.check(counts.once === acked.length, `${acked.length - counts.once} acknowledged deliveries not stored exactly once`);
  s.check(counts.duplicated === 0, `${counts.duplicated} transactions stored more than once`);
  s.check(
    counts.done,
    `not every acknowledged delivery applied within 60 s of the restart (${counts.applied}/${acked.length} applied, ${counts.inLedger} in the ledger)`,
  );
}

// ── b. every Postgres connection terminated ─────────────────────────────────────────────────

async function scenarioConnectionsDropped(world: World, s: Scenario): Promise<void> {
  const run = `b${randomBytes(3).toString("hex")}`;
  await seedLedger(world, run, 5_000);
  const url = `${world.a.base}/api/webhooks/${world.accountId}`;
  let terminatedAt = 0;
  let firstOkAfter = 0;
  let stop = false;
  const load = deliver({
    url,
    token: TOKEN,
    run,
    count: 5_000,
    concurrency: 8,
    ratePerSecond: 200,
    stop: () => stop,
    onAnswer: (d) => {
      if (terminatedAt && !firstOkAfter && ok(d) && d.sentAt > terminatedAt) firstOkAfter = d.answeredAt;
    },
  });
  await sleep(2_000);
  const before = await query<{ n: number }>(
    serverUrl,
    "select count(*)::int as n from pg_stat_activity where datname = $1 and application_name <> 'chaos-harness'",
    [world.consoleDb.name],
  );
  terminatedAt = Date.now();
  const terminated = await query<{ pid: number }>(
    serverUrl,
    "select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and application_name <> 'chaos-harness' and pg_terminate_backend(pid)",
    [world.consoleDb.name],
  );
  // Load goes on until 5 s after the first 2xx sent after the termination, at most 15 s.
  await waitUntil(
    "scenario b: load after the termination",
    16_000,
    async () => (firstOkAfter && Date.now() - firstOkAfter > 5_000) || Date.now() - terminatedAt > 15_000,
    100,
  ).catch(() => {});
  stop = true;
  const results = await load;
  const { acked, other } = tally(results);
  const after = results.filter((d) => d.sentAt > terminatedAt);
  const lastBad = after.filter((d) => !ok(d)).reduce((latest, d) => Math.max(latest, d.answeredAt), 0);
  const recoveredMs = firstOkAfter ? Math.max(firstOkAfter, lastBad) - terminatedAt : Infinity;
  s.print(
    `terminated ${terminated.length} console connections (web and worker; ${before[0]?.n ?? "?"} open before) under a load of 200 deliveries/s`,
  );
  s.print(
    `answers after the termination: ${after.length} sent, ${after.filter(ok).length} 2xx, others: ${tally(after).other}; first 2xx ${firstOkAfter ? `${firstOkAfter - terminatedAt} ms` : "never"} after it, 2xx throughout from ${Number.isFinite(recoveredMs) ? `${recoveredMs} ms` : "never"}`,
  );
  const counts = await settleAcknowledged(world, run, acked, 60_000);
  s.print(
    `acknowledged ${acked.length} (others over the whole run: ${other}) / stored ${counts.stored} (exactly once ${counts.once}) / applied ${counts.applied} (in the ledger ${counts.inLedger}), ${(counts.ms / 1000).toFixed(1)} s after the load`,
  );
  s.check(terminated.length > 0, "no console connection was found to terminate");
  s.check(
    recoveredMs <= 10_000,
    `answers not 2xx again within 10 s of the termination (${Number.isFinite(recoveredMs) ? `${recoveredMs} ms` : "never"})`,
  );
  s.check(
    counts.once === acked.length && counts.duplicated === 0,
    `acknowledged deliveries lost or duplicated (${counts.once}/${acked.length} exactly once, ${counts.duplicated} duplicated)`,
  );
  s.check(
    counts.done,
    `not every acknowledged delivery applied (${counts.applied}/${acked.length}) within 60 s: the worker did not recover its connections`,
  );
}

// ── c. a Pix charge's gateway call in flight ────────────────────────────────────────────────

/** The id Next.js gave `createChargeAction` in this build (the browser posts it as `Next-Action`). */
function pixActionId(): string {
  const manifest = path.join(root, distDir, "server/server-reference-manifest.json");
  const parsed = JSON.parse(readFileSync(manifest, "utf8")) as {
    node: Record<string, { exportedName?: string; workers: Record<string, unknown> }>;
  };
  for (const [id, entry] of Object.entries(parsed.node)) {
    if (entry.exportedName === "createChargeAction") return id;
  }
  // Older manifests name no export: find it in the compiled action module of the charge form.
  const dir = path.join(root, distDir, "server");
  const stack = [dir];
  while (stack.length) {
    const current = stack.pop()!;
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) stack.push(full);
      else if (entry.name.endsWith(".js")) {
        const text = readFileSync(full, "utf8");
        const match = /createChargeAction[^"]{0,80}"([0-9a-f]{40,42})"|"([0-9a-f]{40,42})"[^"]{0,40}createChargeAction/.exec(text);
        if (match) return match[1] ?? match[2];
      }
    }
  }
  throw new Error(`createChargeAction not found in ${manifest}`);
}

/** Submits the Pix charge form's action as the browser does (fetch with Next-Action); resolves with the HTTP status, 0 when the connection died. */
function submitPixCharge(
  base: string,
  cookie: string,
  accountId: string,
  identifier: string,
): Promise<{ status: number; body: string; error?: string }> {
  const values = {
    identifier,
    amount: "37,90",
    client: { name: "Maria Souza", email: "maria@example.com", phone: "(11) 98888-7777", document: "529.982.247-25" },
  };
  const input = { accountId, kind: "pix", values };
  return fetch(`${base}/${accountId}/charges/new/pix`, {
    method: "POST",
    headers: { "next-action": pixActionId(), "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin: base, cookie },
    body: JSON.stringify([input]),
  }).then(
    async (response) => ({ status: response.status, body: await response.text() }),
    (error: Error) => ({ status: 0, body: "", error: (error.cause as NodeJS.ErrnoException | undefined)?.code ?? error.message }),
  );
}

type LedgerRow = {
  id: string;
  submission: string;
  status: string | null;
  gateway_transaction_id: string | null;
  record: string | null;
  updated_at: Date;
};

async function ledgerByIdentifier(world: World, identifier: string): Promise<LedgerRow | null> {
  const [row] = await query<LedgerRow>(
    world.consoleDb.url,
    "select id, submission, status, gateway_transaction_id, gateway_record::text as record, updated_at from ledger_transactions where account_id = $1 and identifier = $2",
    [world.accountId, identifier],
  );
  return row ?? null;
}

async function sandboxTransactions(world: World, identifier: string) {
  return query<{ id: string; pix_code: string | null; status: string }>(
    world.sandboxDb.url,
    "select id, pix_code, status from transactions where client_identifier = $1",
    [identifier],
  );
}

async function scenarioPixInFlight(world: World, s: Scenario): Promise<void> {
  const identifier = `chaos-pix-${randomBytes(4).toString("hex")}`;
  // The sandbox processes the call (the charge exists) and holds its answer 30 s.
  await sandboxCall(world.sandboxBase, "POST", "/sandbox/v1/faults", { latencyMs: 30_000, times: 1, identifier });
  const cookie = cookieHeader(await signIn(world.a.base, admin.email, admin.password));
  const sentAt = Date.now();
  const answer = submitPixCharge(world.a.base, cookie, world.accountId, identifier);
  const [created] = await waitUntil(
    "scenario c: the charge created at the gateway",
    60_000,
    async () => {
      const rows = await sandboxTransactions(world, identifier);
      return rows.length > 0 ? rows : null;
    },
    100,
  );
  const row = await ledgerByIdentifier(world, identifier);
  s.print(
    `Pix charge ${identifier} created at the gateway ${Date.now() - sentAt} ms after the form was sent; the console's record: ${row?.submission ?? "none"} while the gateway holds its answer`,
  );
  const web = world.a.webPid();
  if (!web) throw new Error("no web server process found below npm start");
  process.kill(web, "SIGKILL");
  const killedAt = Date.now();
  const lost = await answer;
  s.print(
    `web server (pid ${web}) SIGKILLed with the gateway call in flight; the browser's request ended with ${lost.status || lost.error}`,
  );
  const restart = await restartAfterKill(world, world.a, web, "console-a");
  world.a = restart.instance;
  s.print(`restart: ${restart.how}; answering ${(restart.ms / 1000).toFixed(1)} s after the kill`);
  const settled = await waitUntil(
    "scenario c: the record settled",
    180_000,
    async () => {
      const current = await ledgerByIdentifier(world, identifier);
      return current && current.submission === "SUBMITTED" && current.gateway_transaction_id ? current : null;
    },
    500,
  ).catch(() => null);
  const atGateway = await sandboxTransactions(world, identifier);
  const lookups = world.proxy.lookups.filter((l) => l.clientIdentifier === identifier || l.id === created.id).length;
  s.print(
    `transactions at the gateway for that identifier: ${atGateway.length}; the console shows it ${settled ? `created (${settled.submission}, status ${settled.status}, ${settled.gateway_transaction_id}) ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill, without a click (${lookups} lookup(s) at the gateway)` : "NOT settled within 3 minutes"}`,
  );
  s.check(atGateway.length === 1, `${atGateway.length} transactions at the gateway for ${identifier}`);
  if (!s.check(Boolean(settled), "the console did not show the charge created within 3 minutes of the restart")) return;
  s.check(
    settled!.gateway_transaction_id === created.id,
    `the console's record names ${settled!.gateway_transaction_id}, the gateway ${created.id}`,
  );
  const code = created.pix_code;
  const recordHasCode = Boolean(code && settled!.record?.includes(code));
  s.print(`Pix copy-and-paste code in the console's record (its gateway lookup): ${recordHasCode ? "yes" : "no"}`);
  s.check(recordHasCode, "the console's record of the charge does not carry the Pix copy-and-paste code");
  const page = await fetch(`${world.a.base}/${world.accountId}/charges/${settled!.id}`, { headers: { cookie }, redirect: "manual" });
  const html = await page.text();
  const pageHasCode = Boolean(code && html.includes(code));
  s.print(
    `charge page GET /${world.accountId}/charges/${settled!.id}: ${page.status}, Pix code on the page: ${pageHasCode ? "yes" : "no"}`,
  );
  s.check(
    pageHasCode,
    "the charge page does not show the Pix copy-and-paste code of a charge the reconciler settled (the code is in its record)",
  );
}

// ── d. two web servers and two workers on one Postgres ──────────────────────────────────────

async function scenarioTwoOfEach(world: World, s: Scenario): Promise<void> {
  const bStarted = Date.now();
  world.b = await startConsole("console-b", world.env(world.bPort));
  s.print(`second npm start (web server and worker) on the same Postgres answering in ${((Date.now() - bStarted) / 1000).toFixed(1)} s`);
  const a = world.a;
  const b = world.b;

  // The live feed of B hears what A received.
  const heard = new Map<string, number>();
  const cookieB = cookieHeader(await signIn(b.base, admin.email, admin.password));
  const close = await openFeedStream(b.base, cookieB, (id, applied) => {
    if (applied && !heard.has(id)) heard.set(id, Date.now());
  });
  const run = `d${randomBytes(3).toString("hex")}`;
  await seedLedger(world, run, 5);
  const sent: Array<{ id: string; at: number }> = [];
  try {
    for (let i = 0; i < 5; i++) {
      const at = Date.now();
      const response = await fetch(`${a.base}/api/webhooks/${world.accountId}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: createdNotification(TOKEN, `tx_${run}_${i}`),
      });
      const { id } = (await response.json()) as { id: string };
      sent.push({ id, at: Date.now() });
      s.check(response.ok, `delivery ${i} to the first web server answered ${response.status} (${at})`);
      await sleep(200);
    }
    await waitUntil("scenario d: B's feed", 15_000, async () => sent.every((x) => heard.has(x.id)), 100).catch(() => {});
  } finally {
    close();
  }
  const latencies = sent.filter((x) => heard.has(x.id)).map((x) => heard.get(x.id)! - x.at);
  s.print(
    `deliveries received by web server A (:${a.port}) on the signed-in live feed of web server B (:${b.port}): ${latencies.length}/${sent.length}, 2xx → B's feed p50 ${percentile(latencies, 0.5)} ms, max ${Math.max(...latencies)} ms`,
  );
  s.check(latencies.length === sent.length, `${sent.length - latencies.length} deliveries received by A never reached B's live feed`);

  // Lookups: Pix charges made at the gateway and paid there (their paid notices are confirmed by a
  // lookup each), and paid notices of transactions the gateway does not have (looked up on every
  // scheduled attempt until contradicted); two workers share the queue.
  const firstLookup = world.proxy.lookups.length;
  const real: string[] = [];
  for (let i = 0; i < 6; i++) {
    const charge = await sandboxCall<{ transactionId: string }>(world.sandboxBase, "POST", "/api/v1/gateway/pix/receive", {
      identifier: `chaos-d-${run}-${i}`,
      amount: 10 + i,
      client: { name: "Maria Souza", email: "maria@example.com", phone: "(11) 98888-7777", document: "529.982.247-25" },
      callbackUrl: `${(i % 2 ? b : a).base}/api/webhooks/${world.accountId}`,
    });
    real.push(charge.transactionId);
  }
  for (const id of real) await sandboxCall(world.sandboxBase, "POST", `/sandbox/v1/transactions/${id}/events`, { type: "pay" });
  const fake = [0, 1, 2].map((i) => `tx_${run}_ghost_${i}`);
  for (const [i, id] of fake.entries()) {
    const body = JSON.parse(createdNotification(TOKEN, id)) as { event: string; transaction: Record<string, unknown> };
    body.event = "TRANSACTION_PAID";
    body.transaction.status = "COMPLETED";
    body.transaction.payedAt = new Date().toISOString();
    const response = await fetch(`${(i % 2 ? b : a).base}/api/webhooks/${world.accountId}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    s.check(response.ok, `paid notice of ${id} answered ${response.status}`);
  }
  const all = [...real, ...fake];
  type CheckRow = { tx: string; attempts: number; pending: number; checks: number };
  const checks = async () =>
    query<CheckRow>(
      world.consoleDb.url,
      `select t.tx, coalesce(sum(c.attempts), 0)::int as attempts, (count(*) filter (where c.state = 'pending'))::int as pending,
              count(c.id)::int as checks
         from unnest($1::text[]) as t(tx)
         left join ledger_transactions l on l.account_id = $2 and l.gateway_transaction_id = t.tx
         left join gateway_checks c on (c.target = 'ledger' and c.target_id = l.id) or c.target_id = t.tx or c.target_id like '%' || t.tx
        group by t.tx`,
      [all, world.accountId],
    );
  const settled = await waitUntil(
    "scenario d: every lookup done",
    60_000,
    async () => {
      const rows = await checks();
      return rows.every((r) => r.attempts > 0 && r.pending === 0) ? rows : null;
    },
    500,
  ).catch(async () => checks());
  const lookups = world.proxy.lookups.slice(firstLookup);
  let mismatched = 0;
  let closest = Infinity;
  const perRow: string[] = [];
  for (const row of settled) {
    const mine = lookups
      .filter((l) => l.id === row.tx)
      .map((l) => l.at)
      .sort((x, y) => x - y);
    // A row with two checks (its creation confirmed, then its payment) may be asked twice in a moment; only the attempts of one check follow the schedule.
    if (row.checks === 1) for (let i = 1; i < mine.length; i++) closest = Math.min(closest, mine[i] - mine[i - 1]);
    if (mine.length !== row.attempts || row.pending > 0) mismatched++;
    perRow.push(
      `${mine.length}/${row.attempts}${row.checks > 1 ? ` in ${row.checks} checks` : ""}${row.pending ? " (still pending)" : ""}`,
    );
  }
  s.print(
    `lookups at the gateway / scheduled attempts recorded, per row: paid at the gateway ${perRow.slice(0, real.length).join(", ")}; unknown to the gateway ${perRow.slice(real.length).join(", ")}`,
  );
  s.print(
    `closest two lookups of one check: ${Number.isFinite(closest) ? `${closest} ms apart` : "none (one lookup each)"} (the schedule's shortest wait: 1000 ms); workers alive: ${[a.workerPid(), b.workerPid()].filter((p) => p && alive(p)).length}`,
  );
  s.check(mismatched === 0, `${mismatched} rows looked up a different number of times than their scheduled attempts (or still pending)`);
  s.check(!(closest < 500), `one check looked up twice ${closest} ms apart: two workers took the same attempt`);
}

// ── e. SIGTERM drains ───────────────────────────────────────────────────────────────────────

async function scenarioSigterm(world: World, s: Scenario): Promise<void> {
  const b = world.b ?? (world.b = await startConsole("console-b", world.env(world.bPort)));
  const identifier = `chaos-drain-${randomBytes(4).toString("hex")}`;
  await sandboxCall(world.sandboxBase, "POST", "/sandbox/v1/faults", { latencyMs: 3_000, times: 1, identifier });
  const cookie = cookieHeader(await signIn(b.base, admin.email, admin.password));
  const run = `e${randomBytes(3).toString("hex")}`;
  await seedLedger(world, run, 5_000);
  let stop = false;
  const load = deliver({
    url: `${b.base}/api/webhooks/${world.accountId}`,
    token: TOKEN,
    run,
    count: 5_000,
    concurrency: 8,
    ratePerSecond: 150,
    stop: () => stop,
  });
  const slow = submitPixCharge(b.base, cookie, world.accountId, identifier);
  await waitUntil(
    "scenario e: the slow call at the gateway",
    30_000,
    async () => (await sandboxTransactions(world, identifier)).length > 0,
    100,
  );
  const workerPid = b.workerPid();
  const webPid = b.webPid();
  const termAt = Date.now();
  b.start.child.kill("SIGTERM");
  // As a load balancer does once a process is told to stop: nothing new is sent to it.
  stop = true;
  const exit = await Promise.race([b.start.exited, sleep(30_000).then(() => null)]);
  const exitedMs = Date.now() - termAt;
  const [results, action] = await Promise.all([load, slow]);
  const inFlight = results.filter((d) => d.sentAt < termAt && d.answeredAt >= termAt);
  const sentBefore = results.filter((d) => d.sentAt < termAt);
  const webGone = webPid ? !alive(webPid) : true;
  const workerGone = workerPid ? !alive(workerPid) : true;
  s.print(
    `SIGTERM to npm start (:${b.port}) with deliveries at 150/s and a Pix charge whose gateway call takes 3 s in flight: npm start exited ${exit ? `(${exit.signal ?? `code ${exit.code}`})` : "NOT"} within ${(exitedMs / 1000).toFixed(1)} s; web server ${webGone ? "gone" : "still running"}, worker ${workerGone ? "gone" : "still running"}`,
  );
  s.print(
    `deliveries sent before the SIGTERM: ${sentBefore.length}, ${sentBefore.filter(ok).length} 2xx; in flight at the SIGTERM: ${inFlight.length}, ${inFlight.filter(ok).length} 2xx (others: ${tally(inFlight).other})`,
  );
  const row = await ledgerByIdentifier(world, identifier);
  s.print(`the Pix charge's request: ${action.status || action.error}; its record: ${row?.submission ?? "none"}`);
  s.check(Boolean(exit), "npm start did not exit within 30 s of SIGTERM");
  s.check(
    !exit || exit.code === 0,
    `npm start exited with ${exit?.signal ?? `code ${exit?.code}`} (1: a child did not drain in time and was killed)`,
  );
  s.check(
    sentBefore.every(ok),
    `${sentBefore.filter((d) => !ok(d)).length} deliveries sent before the SIGTERM did not get a 2xx (${tally(sentBefore).other})`,
  );
  s.check(action.status === 200, `the request in flight (a Pix charge) ended with ${action.status || action.error}, not 200`);
  s.check(row?.submission === "SUBMITTED", `the charge in flight was left ${row?.submission ?? "unrecorded"}, not SUBMITTED`);
  s.check(workerGone, "the worker did not stop");
  // Safe point: whatever B's worker had taken is done or still pending for the other worker, never half-applied.
  const acked = results.filter(ok);
  const counts = await settleAcknowledged(world, run, acked, 30_000);
  s.print(
    `afterwards (the other web server's worker): acknowledged ${acked.length} / stored exactly once ${counts.once} / applied ${counts.applied} / in the ledger once ${counts.inLedger}`,
  );
  s.check(
    counts.once === acked.length && counts.inLedger === acked.length,
    "an acknowledged delivery is missing, duplicated or half-applied after the SIGTERM",
  );
  const [{ n: leased }] = await query<{ n: number }>(
    world.consoleDb.url,
    "select count(*)::int as n from gateway_checks where state = 'pending' and next_at > now() + interval '30 seconds' and attempts = 0",
  );
  s.print(`checks left reserved beyond their schedule by the stopped worker: ${leased}`);
  world.b = undefined;
}

// ── Main ────────────────────────────────────────────────────────────────────────────────────

async function main(): Promise<number> {
  if (!existsSync(path.join(root, distDir, "BUILD_ID"))) {
    console.error(`no production build in ${distDir}: run \`next build\` first (NEXT_DIST_DIR=${distDir})`);
    return 1;
  }
  const began = Date.now();
  console.log(
    `chaos: the production build in ${distDir} as npm start serves it, Postgres ${new URL(serverUrl).host}; ${cpus().length} cores, load average ${loadavg()[0].toFixed(2)}`,
  );
  const consoleDb = await createDatabase(serverUrl, "chaos_console");
  const sandboxDb = await createDatabase(serverUrl, "chaos_sandbox");
  const dataRoot = mkdtempSync(path.join(tmpdir(), "console-chaos-"));
  const outcomes: Outcome[] = [];
  let proxy: LookupProxy | null = null;
  try {
    const [aPort, bPort] = await freePorts(2, basePort);
    const [sandboxPort, proxyPort] = await freePorts(2, basePort + 1000);
    const sandbox = launch("sandbox", ["--import", "tsx", "sandbox/server.ts"], {
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_HOST: "127.0.0.1",
      SANDBOX_DATABASE_URL: sandboxDb.url,
      SANDBOX_WEBHOOK_RETRY_MS: "500",
    });
    const sandboxBase = `http://127.0.0.1:${sandboxPort}`;
    await waitUntil(
      "the sandbox answering",
      60_000,
      async () => {
        if (sandbox.child.exitCode !== null) throw new Error(`the sandbox exited: ${sandbox.log.slice(-5).join("\n")}`);
        return (await fetch(`${sandboxBase}/health`)).ok;
      },
      250,
    );
    proxy = await lookupProxy(proxyPort, sandboxBase);
    const env = consoleEnv(
      consoleDb.url,
      `http://127.0.0.1:${proxy.port}`,
      { key: randomBytes(32).toString("hex"), auth: randomBytes(32).toString("base64url") },
      dataRoot,
    );
    const a = await startConsole("console-a", env(aPort));
    const [{ id: accountId }] = await query<{ id: string }>(consoleDb.url, "select id from gateway_accounts where source = 'env' limit 1");
    const world: World = { consoleDb, sandboxDb, sandboxBase, proxy, env, accountId, a, bPort };
    console.log(
      `ready in ${((Date.now() - began) / 1000).toFixed(1)} s: console :${aPort} (npm start: web server and worker), sandbox :${sandboxPort} behind a lookup-counting proxy :${proxy.port}`,
    );

    const scenarios: Array<[string, string, (w: World, s: Scenario) => Promise<void>]> = [
      ["b", "Postgres connections of the web server and the worker terminated under load", scenarioConnectionsDropped],
      ["a", "web server SIGKILLed under a load of distinct deliveries", scenarioKillUnderLoad],
      ["c", "web server SIGKILLed with a Pix charge's gateway call in flight", scenarioPixInFlight],
      ["d", "two web servers and two workers on one Postgres", scenarioTwoOfEach],
      ["e", "SIGTERM drains requests in flight and stops the worker at a safe point", scenarioSigterm],
    ];
    for (const [key, title, run] of scenarios) {
      if (only && !only.has(key)) continue;
      const s = new Scenario(`${key}. ${title}`);
      const t = Date.now();
      console.log(`\n${s.name}`);
      try {
        await run(world, s);
      } catch (error) {
        s.failures.push(`aborted: ${(error as Error).message}`);
        console.log(`  ✗ aborted: ${(error as Error).message}`);
        // The next scenario needs a console answering.
        if (
          world.a.start.child.exitCode !== null ||
          !(await fetch(`${world.a.base}/sign-in`, { redirect: "manual" }).then(
            () => true,
            () => false,
          ))
        ) {
          await stopConsole(world.a).catch(() => {});
          world.a = await startConsole("console-a", env(aPort));
        }
      }
      const seconds = ((Date.now() - t) / 1000).toFixed(1);
      console.log(`  ${s.failures.length === 0 ? "✓ passed" : "✗ FAILED"} (${seconds} s)`);
      if (s.failures.length) {
        const logs = [...world.a.start.log.slice(-8)];
        if (logs.length) console.log(`  last lines of the console's log:\n    ${logs.join("\n    ")}`);
      }
      outcomes.push({ name: s.name, passed: s.failures.length === 0, lines: s.lines, failures: s.failures, warnings: s.warnings });
    }
    if (world.b) await stopConsole(world.b);
    await stopConsole(world.a);
  } finally {
    killAll();
    await proxy?.close().catch(() => {});
    await sleep(300);
    await consoleDb.drop().catch((error) => console.error(`could not drop ${consoleDb.name}: ${(error as Error).message}`));
    await sandboxDb.drop().catch(() => {});
    rmSync(dataRoot, { recursive: true, force: true });
  }
  console.log(
    `\nchaos: ${outcomes.filter((o) => o.passed).length}/${outcomes.length} scenarios passed in ${((Date.now() - began) / 1000).toFixed(0)} s`,
  );
  for (const o of outcomes.filter((x) => !x.passed)) console.log(`  ✗ ${o.name}: ${o.failures.join("; ")}`);
  for (const o of outcomes.filter((x) => x.warnings.length)) console.log(`  ! ${o.name}: ${o.warnings.join("; ")}`);
  return outcomes.every((o) => o.passed) ? 0 : 1;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    killAll();
    process.exit(130);
  });
}
process.on("exit", killAll);
main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    killAll();
    process.exit(1);
  },
);
