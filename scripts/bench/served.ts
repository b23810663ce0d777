/**
 * What the benchmarks of the served app share: Postgres databases of their own, child processes
 * started as `npm start` starts them (the web server under `next start`, the background worker
 * beside it), the time each party spent on the CPU, paced load and percentiles.
 * Used by bench:destinations, bench:webhooks and bench:chain.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { backgroundWorkerArgs } from "../run/background-worker-command.mjs";
import { WEB_SERVER_NODE_FLAGS } from "../run/web-server-flags.mjs";

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
export const nextBin = path.join(root, "node_modules/next/dist/bin/next");

/** `serverUrl` with another database. */
export const databaseUrl = (serverUrl: string, name: string) => Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();

/** One statement on a connection of its own. */
export async function sql<T>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export type Children = ChildProcess[];

/**
 * A Node.js child process in production mode, its stderr's first lines shown with its label; with
 * BENCH_CPU_PROF=<dir> it writes its CPU profile there (<dir>/<label>) when it exits.
 */
export function serveNode(
  args: string[],
  {
    cwd = root,
    env,
    label,
    children,
    stdout = "pipe",
  }: { cwd?: string; env: Record<string, string>; label: string; children: Children; stdout?: "pipe" | "ignore" },
): ChildProcess {
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF, label)}`] : [];
  const child = spawn(process.execPath, [...profile, ...args], {
    cwd,
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", stdout, "pipe"],
  });
  // Read (a full pipe would stop the child); workerReady looks for the worker's ready line in it.
  child.stdout?.resume();
  let shown = 0;
  child.stderr?.on("data", (chunk: Buffer) => {
    const text = chunk.toString().trim();
    if (!text || shown > 5) return;
    console.error(shown++ < 5 ? `  [${label}] ${text.split("\n")[0]}` : `  [${label}] (further log lines not shown)`);
  });
  children.push(child);
  return child;
}

/** The console's web server as `npm start` runs it: `next start` with its Node.js flags and the client-address hook. */
export function serveConsole(port: number, env: Record<string, string>, children: Children, label = "console"): ChildProcess {
  const args = [
    ...WEB_SERVER_NODE_FLAGS,
    "--import",
    pathToFileURL(path.join(root, "scripts/run/client-address-hook.mjs")).href,
    nextBin,
    "start",
    "-p",
    String(port),
  ];
  return serveNode(args, { env, label, children });
}

/** The background worker as `npm start` runs it. */
export const serveWorker = (env: Record<string, string>, children: Children, label = "worker") =>
  serveNode(backgroundWorkerArgs(root), { env, label, children });

/** Until `url` answers below 500, or the child exits, or `timeoutMs` passed. */
export async function waitFor(url: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited (${child.exitCode})`);
    if (
      await fetch(url, { redirect: "manual" })
        .then((r) => r.status < 500)
        .catch(() => false)
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** Until the background worker says it listens (its `{"ready":true}` line): load sent before then would time its start-up. */
export async function workerReady(child: ChildProcess): Promise<void> {
  const deadline = AbortSignal.timeout(120_000);
  const lines = createInterface({ input: child.stdout!, signal: deadline });
  for await (const line of lines) {
    if (!line.includes('"ready":true')) continue;
    lines.close();
    child.stdout!.resume();
    return;
  }
  throw new Error(deadline.aborted ? "the worker did not say it was ready within 120 s" : "the worker's output ended before it was ready");
}

/** SIGTERM, then SIGKILL after `graceMs`. */
export async function stop(child: ChildProcess, graceMs = 8_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, graceMs))]);
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

// ── CPU per party (Linux /proc; zeros elsewhere) ─────────────────────────────────────────────

const TICKS_PER_SECOND = 100;

/** The fields of /proc/<pid>/stat after the command name (field 3 onwards: [1] parent, [11] utime, [12] stime, [13] cutime, [14] cstime). */
function statFields(pid: number | string): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

export function processCpuSeconds(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const fields = statFields(pid);
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** Every Postgres process's CPU, and through the postmaster's reaped children that of backends that ended (the whole server: other databases' work counts too). */
export function postgresCpuSeconds(): number {
  const postgres = new Map<number, string[]>();
  try {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== "postgres") continue;
        postgres.set(Number(entry), statFields(entry));
      } catch {
        // gone
      }
    }
  } catch {
    // no /proc
  }
  let ticks = 0;
  for (const fields of postgres.values()) {
    ticks += Number(fields[11]) + Number(fields[12]);
    if (!postgres.has(Number(fields[1]))) ticks += Number(fields[13]) + Number(fields[14]);
  }
  return ticks / TICKS_PER_SECOND;
}

export type CpuSnapshot = Record<string, number>;

/** CPU seconds so far of each party, of Postgres and of this process (`self`: what it is named in the output). */
export function cpuNow(parties: Record<string, ChildProcess | undefined>, self = "bench"): CpuSnapshot {
  const own = process.cpuUsage();
  const snapshot: CpuSnapshot = { [self]: (own.user + own.system) / 1e6, postgres: postgresCpuSeconds() };
  for (const [name, child] of Object.entries(parties)) if (child?.pid) snapshot[name] = processCpuSeconds(child.pid);
  return snapshot;
}

/** CPU milliseconds per unit of work of each party between two snapshots. */
export const cpuSpent = (before: CpuSnapshot, after: CpuSnapshot, per: number) =>
  Object.keys(after)
    .map((name) => `${name} ${(((after[name]! - (before[name] ?? 0)) * 1000) / per).toFixed(2)}`)
    .join(", ");

// ── load and figures ─────────────────────────────────────────────────────────────────────────

/** The q-quantile of ascending `sorted`, rounded (NaN when empty). */
export const pct = (sorted: number[], q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN);

/** Every `intervalMs`, `perTick` more of `total` (paced, not a burst): returns the seconds until all were started and ended. */
export async function paced(total: number, perSecond: number, run: (index: number) => Promise<void>): Promise<number> {
  const intervalMs = 10;
  const perTick = perSecond / (1000 / intervalMs);
  const started = Date.now();
  const inFlight: Promise<void>[] = [];
  let issued = 0;
  while (issued < total) {
    const due = Math.min(total, Math.floor(((Date.now() - started) / intervalMs + 1) * perTick));
    for (; issued < due; issued++) inFlight.push(run(issued));
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  await Promise.all(inFlight);
  return (Date.now() - started) / 1000;
}
