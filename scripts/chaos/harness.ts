/**
 * What `npm run chaos` needs around the console: temporary Postgres databases, the sandbox on
 * its own database, a proxy in front of it that counts gateway lookups, `npm start` instances
 * (scripts/run/start.mjs) and their process trees, a signed-in session, the live feed stream and a
 * load of distinct webhook deliveries. Loopback only; every process started here is recorded and
 * killed by `killAll()`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import process from "node:process";
import pg from "pg";

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ── Postgres ────────────────────────────────────────────────────────────────────────────────

export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function query<T>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, application_name: "chaos-harness" });
  client.on("error", () => {});
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end().catch(() => {});
  }
}

export async function createDatabase(serverUrl: string, prefix: string): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  await query(serverUrl, `create database ${name}`);
  return {
    name,
    url: databaseUrl(serverUrl, name),
    drop: () => query(serverUrl, `drop database if exists ${name} with (force)`).then(() => {}),
  };
}

/** `count` ports from `from` up that nothing listens on now (other engineers' servers share this machine). */
export async function freePorts(count: number, from: number): Promise<number[]> {
  const free: number[] = [];
  for (let port = from; free.length < count && port < from + 200; port++) {
    const available = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
    if (available) free.push(port);
  }
  if (free.length < count) throw new Error(`no ${count} free ports from ${from}`);
  return free;
}

// ── Processes ───────────────────────────────────────────────────────────────────────────────

const started: ChildProcess[] = [];

export type Spawned = { child: ChildProcess; log: string[]; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> };

/** A process of ours; its output is kept (the last lines are printed when a scenario fails). */
export function launch(label: string, args: string[], env: Record<string, string>): Spawned {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  const log: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n")) if (line.trim()) log.push(`[${label}] ${line.slice(0, 400)}`);
    if (log.length > 400) log.splice(0, log.length - 400);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, log, exited };
}

/** Pids of every process below `pid` (Linux /proc), children first. */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone
    }
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const child of parents.get(p) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    return "";
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** SIGKILL to every process this run started and to everything below them, whatever happened. */
export function killAll(): void {
  for (const child of started) {
    if (!child.pid) continue;
    for (const pid of descendants(child.pid)) signalPid(pid, "SIGKILL");
    if (child.exitCode === null && child.signalCode === null) signalPid(child.pid, "SIGKILL");
  }
}

export async function waitUntil<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | null | undefined | false>,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(everyMs);
  }
}

export async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(3_000) });
    return response.status < 500;
  } catch {
    return false;
  }
}

// ── The console as `npm start` runs it ──────────────────────────────────────────────────────

export type ConsoleInstance = {
  port: number;
  base: string;
  start: Spawned;
  /** The `next start` web server below scripts/run/start.mjs (the one to kill). */
  webPid: () => number | null;
  /** The background worker below scripts/run/start.mjs. */
  workerPid: () => number | null;
};

export function findChild(startPid: number, match: (cmd: string) => boolean): number | null {
  for (const pid of descendants(startPid)) if (match(commandLine(pid))) return pid;
  return null;
}

const isWeb = (cmd: string) => /next(\/dist\/bin\/next)? start|next-server/.test(cmd);
const isWorker = (cmd: string) => cmd.includes("background-worker.ts");

/** `node scripts/run/start.mjs` with this environment; resolves once the console answers. */
export async function startConsole(label: string, env: Record<string, string>, timeoutMs = 120_000): Promise<ConsoleInstance> {
  const port = Number(env.PORT);
  const start = launch(label, [path.join(root, "scripts/run/start.mjs")], env);
  const base = `http://127.0.0.1:${port}`;
  const instance: ConsoleInstance = {
    port,
    base,
    start,
    webPid: () => (start.child.pid ? findChild(start.child.pid, isWeb) : null),
    workerPid: () => (start.child.pid ? findChild(start.child.pid, isWorker) : null),
  };
  await waitUntil(
    `${label} answering at ${base}`,
    timeoutMs,
    async () => {
      if (start.child.exitCode !== null) throw new Error(`${label} exited (${start.child.exitCode}): ${start.log.slice(-10).join("\n")}`);
      return answers(`${base}/sign-in`);
    },
    250,
  ).catch((error) => {
    if (start.child.exitCode !== null)
      throw new Error(`${label} exited with code ${start.child.exitCode}:\n${start.log.slice(-15).join("\n")}`);
    throw error;
  });
  return instance;
}

export async function stopConsole(instance: ConsoleInstance, timeoutMs = 15_000): Promise<void> {
  const pid = instance.start.child.pid;
  if (!pid || instance.start.child.exitCode !== null) return;
  const below = descendants(pid);
  instance.start.child.kill("SIGTERM");
  await Promise.race([instance.start.exited, sleep(timeoutMs)]);
  for (const p of [...below, ...descendants(pid)]) signalPid(p, "SIGKILL");
  if (instance.start.child.exitCode === null) instance.start.child.kill("SIGKILL");
}

// ── Webhook deliveries ──────────────────────────────────────────────────────────────────────

/** A TRANSACTION_CREATED (PENDING): it moves no money, so it is applied at once (no gateway lookup). */
export function createdNotification(token: string, txId: string): string {
  return JSON.stringify({
    event: "TRANSACTION_CREATED",
    token,
    offerCode: null,
    checkoutUrl: "",
    client: { id: "c1", name: "Maria Souza", email: "maria@example.com", phone: "(11) 98888-7777", cpf: "529.982.247-25", cnpj: null },
    transaction: {
      id: txId,
      identifier: `chaos-${txId}`,
      status: "PENDING",
      paymentMethod: "PIX",
      amount: 12.34,
      commissionAmount: 11.5,
      currency: "BRL",
      createdAt: new Date().toISOString(),
      payedAt: null,
    },
    orderItems: [],
    trackProps: { isUpsell: false },
  });
}

export type Delivery = { txId: string; sentAt: number; answeredAt: number; status: number; eventId?: string; error?: string };

/**
 * Distinct deliveries over `concurrency` keep-alive connections until `count` are sent or `stop()`
 * says so; every outcome kept (status 0 = no answer: refused, reset, timed out).
 */
export async function deliver(options: {
  url: string;
  token: string;
  run: string;
  count: number;
  concurrency: number;
  ratePerSecond?: number;
  stop?: () => boolean;
  onAnswer?: (d: Delivery) => void;
}): Promise<Delivery[]> {
  const results: Delivery[] = [];
  let next = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const started = Date.now();
  const one = (txId: string): Promise<Delivery> =>
    new Promise((resolve) => {
      const body = createdNotification(options.token, txId);
      const sentAt = Date.now();
      const request = http.request(
        options.url,
        {
          method: "POST",
          agent,
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
          timeout: 15_000,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => {
            let eventId: string | undefined;
            try {
              eventId = (JSON.parse(Buffer.concat(chunks).toString()) as { id?: string }).id;
            } catch {
              // not JSON
            }
            resolve({ txId, sentAt, answeredAt: Date.now(), status: response.statusCode ?? 0, eventId });
          });
          response.on("error", (error) => resolve({ txId, sentAt, answeredAt: Date.now(), status: 0, error: error.message }));
        },
      );
      request.on("timeout", () => request.destroy(new Error("timeout")));
      request.on("error", (error) =>
        resolve({ txId, sentAt, answeredAt: Date.now(), status: 0, error: (error as NodeJS.ErrnoException).code ?? error.message }),
      );
      request.end(body);
    });
  const lane = async () => {
    while (next < options.count && !options.stop?.()) {
      const index = next++;
      if (options.ratePerSecond) {
        const due = started + (index * 1000) / options.ratePerSecond;
        if (due > Date.now()) await sleep(due - Date.now());
      }
      const result = await one(`tx_${options.run}_${index}`);
      results.push(result);
      options.onAnswer?.(result);
      // A refused connection answers at once: do not spin on it.
      if (result.status === 0) await sleep(20);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, lane));
  agent.destroy();
  return results;
}

export const ok = (d: Delivery) => d.status >= 200 && d.status < 300;

// ── The sandbox behind a proxy that counts lookups ──────────────────────────────────────────

export type LookupProxy = {
  port: number;
  lookups: Array<{ at: number; id: string | null; clientIdentifier: string | null }>;
  close: () => Promise<void>;
};

/** Forwards everything to the sandbox; notes each `GET …/transactions?id=|clientIdentifier=`. */
export async function lookupProxy(port: number, target: string): Promise<LookupProxy> {
  const lookups: LookupProxy["lookups"] = [];
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", target);
    if (request.method === "GET" && url.pathname.endsWith("/api/v1/gateway/transactions")) {
      lookups.push({ at: Date.now(), id: url.searchParams.get("id"), clientIdentifier: url.searchParams.get("clientIdentifier") });
    }
    const upstream = http.request(url, { method: request.method, headers: { ...request.headers, host: url.host }, agent }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on("error", () => response.destroy());
    response.on("close", () => upstream.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port,
    lookups,
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const SANDBOX_KEYS = { "x-public-key": "pk_sandbox_demo", "x-secret-key": "sk_sandbox_demo" };

export async function sandboxCall<T>(base: string, method: string, pathname: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${pathname}`, {
    method,
    headers: { ...SANDBOX_KEYS, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`sandbox ${method} ${pathname}: ${response.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : null) as T;
}

export function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}
