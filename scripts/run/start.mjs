#!/usr/bin/env node
// `npm start` / `npm run dev`: starts the console, and the sandbox gateway beside it when no
// real gateway is configured. Secrets for a local run are generated under DATA_DIR.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { backgroundWorkerArgs } from "./background-worker-command.mjs";
import { WEB_SERVER_NODE_FLAGS } from "./web-server-flags.mjs";

const dev = process.argv.includes("--dev");
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const env = { ...process.env };
env.PORT ??= "3000";
env.APP_URL ??= `http://localhost:${env.PORT}`;
env.NEXTAUTH_URL ??= env.APP_URL;
env.DATA_DIR = path.resolve(root, env.DATA_DIR ?? ".data");
env.NODE_ENV = dev ? "development" : "production";

// Supervision. A child that dies while nobody asked it to (a crash, the OOM killer's SIGKILL) is
// started again after 1 s, 2 s, 4 s … (at most 30 s), and the reason is logged; after
// START_RESTART_LIMIT restarts without a minute of uptime in between, start.mjs gives up: it stops
// the rest and exits non-zero, so that a process manager restarting on failure takes over. It
// never exits 0 for a child killed by a signal.
const RESTART_LIMIT = Number(env.START_RESTART_LIMIT ?? 5);
const RESTART_DELAY_MS = Number(env.START_RESTART_DELAY_MS ?? 1_000);
const STABLE_AFTER_MS = 60_000;
/** How long SIGTERM/SIGINT waits for each group of children to drain before SIGKILL. */
const STOP_TIMEOUT_MS = Number(env.START_STOP_TIMEOUT_MS ?? 25_000);

/** @type {Map<string, { child: import("node:child_process").ChildProcess, startedAt: number, restarts: number, timer: NodeJS.Timeout | null, exited: Promise<void> }>} */
const supervised = new Map();
let stopping = false;
const labels = { console: "the web server", worker: "the background worker", sandbox: "the sandbox gateway" };

function describeExit(code, signal) {
  return signal ? `killed by ${signal}` : `exit code ${code}`;
}

/** An exit status that says what happened: 128 + the signal's number for a signal, never 0. */
function failureStatus(code, signal) {
  if (signal) return 128 + (os.constants.signals[signal] ?? 0);
  return code ? code : 1;
}

/**
 * Runs `start()` (which spawns and returns a child) under supervision. `critical`: giving up on it
 * ends npm start (the web server, the sandbox it depends on); otherwise it is retried for as long
 * as npm start runs (the worker: events stay stored and wait for it).
 */
function supervise(key, start, { critical }) {
  const entry = { child: null, startedAt: 0, restarts: 0, timer: null, exited: Promise.resolve() };
  supervised.set(key, entry);
  const name = labels[key];
  const launch = () => {
    entry.timer = null;
    if (stopping) return;
    const child = start();
    entry.child = child;
    entry.startedAt = Date.now();
    entry.exited = new Promise((resolve) => child.once("exit", () => resolve()));
    child.once("exit", (code, signal) => {
      if (stopping) return;
      if (Date.now() - entry.startedAt >= STABLE_AFTER_MS) entry.restarts = 0;
      entry.restarts += 1;
      if (critical && entry.restarts > RESTART_LIMIT) {
        console.error(`[start] ${name} stopped (${describeExit(code, signal)}) ${RESTART_LIMIT + 1} times in a row; giving up`);
        void shutdown(failureStatus(code, signal), `${name} keeps stopping`);
        return;
      }
      const delay = Math.min(30_000, RESTART_DELAY_MS * 2 ** Math.min(entry.restarts - 1, 10));
      console.error(
        `[start] ${name} stopped unexpectedly (${describeExit(code, signal)}); starting it again in ${(delay / 1000).toFixed(1)} s (restart ${entry.restarts}${critical ? ` of at most ${RESTART_LIMIT}` : ""})`,
      );
      entry.timer = setTimeout(launch, delay);
    });
    return child;
  };
  return launch();
}

function running(child) {
  return child && child.exitCode === null && child.signalCode === null;
}

/** SIGTERM to `names`, then waits for them to exit; SIGKILL to those still running after STOP_TIMEOUT_MS. */
async function stopGroup(names) {
  const entries = names.map((key) => [labels[key], supervised.get(key)]).filter(([, entry]) => entry);
  for (const [, entry] of entries) {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = null;
    if (running(entry.child)) entry.child.kill("SIGTERM");
  }
  let forced = false;
  const deadline = new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS).unref());
  await Promise.race([Promise.all(entries.map(([, entry]) => entry.exited)), deadline]);
  for (const [name, entry] of entries) {
    if (!running(entry.child)) continue;
    forced = true;
    console.error(`[start] ${name} did not stop within ${STOP_TIMEOUT_MS / 1000} s: SIGKILL`);
    entry.child.kill("SIGKILL");
    await entry.exited;
  }
  return forced;
}

let shuttingDown = null;
/**
 * Drains and exits: the web server first finishes the requests in flight (next start closes its
 * listener and waits) while the worker stops at a safe point; the sandbox last, since those
 * requests may still be talking to it. Exits with `status`, or 1 when a child had to be killed.
 */
function shutdown(status, reason) {
  if (shuttingDown) return shuttingDown;
  stopping = true;
  console.error(`[start] stopping (${reason})…`);
  shuttingDown = (async () => {
    const forcedFirst = await stopGroup(["console", "worker"]);
    const forcedSandbox = await stopGroup(["sandbox"]);
    process.exit(status === 0 && (forcedFirst || forcedSandbox) ? 1 : status);
  })();
  return shuttingDown;
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (!shuttingDown) {
      void shutdown(0, signal);
      return;
    }
    // Asked again (a second Ctrl+C): no more waiting.
    for (const { child } of supervised.values()) if (running(child)) child.kill("SIGKILL");
    process.exit(signal === "SIGINT" ? 130 : 143);
  });
}

function isLocal(url) {
  try {
    return ["localhost", "127.0.0.1", "[::1]"].includes(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** A generated secret is fine on this machine only; a public deployment must set its own. */
function localSecret(name, file, make) {
  if (env[name]) return;
  if (!dev && !isLocal(env.APP_URL)) {
    console.error(`[start] ${name} must be set when APP_URL (${env.APP_URL}) is not a local address.`);
    process.exit(1);
  }
  const full = path.join(env.DATA_DIR, file);
  if (!existsSync(full)) {
    mkdirSync(env.DATA_DIR, { recursive: true });
    writeFileSync(full, make(), { mode: 0o600 });
    console.warn(`[start] ${name} is not set: generated one in ${full} (fine for local use; set it in production).`);
  }
  env[name] = readFileSync(full, "utf8").trim();
}

async function waitForHealth(url, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`sandbox exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`sandbox did not answer ${url} within ${timeoutMs / 1000}s`);
}

async function startSandbox() {
  const port = env.SANDBOX_PORT ?? "4010";
  const sandboxUrl = `http://127.0.0.1:${port}`;
  const sandboxEnv = { ...env, SANDBOX_PORT: port, SANDBOX_DATA_DIR: env.SANDBOX_DATA_DIR ?? path.join(env.DATA_DIR, "sandbox") };
  const child = supervise(
    "sandbox",
    () => spawn(process.execPath, ["--import", "tsx", "sandbox/server.ts"], { cwd: root, env: sandboxEnv, stdio: "inherit" }),
    { critical: true },
  );
  try {
    await waitForHealth(`${sandboxUrl}/health`, child);
  } catch (error) {
    console.error(`[start] ${error.message}`);
    await shutdown(1, "the sandbox gateway did not start");
  }
  env.GATEWAY_BASE_URL = sandboxUrl;
  env.GATEWAY_PUBLIC_KEY = "pk_sandbox_demo";
  env.GATEWAY_SECRET_KEY = "sk_sandbox_demo";
  env.GATEWAY_WEBHOOK_TOKEN = "wht_sandbox_demo";
  env.GATEWAY_ACCOUNT_NAME ??= "Sandbox — demo";
  env.GATEWAY_MODE = "test";
  console.log(`[start] sandbox gateway at ${sandboxUrl} (producer "demo")`);
}

localSecret("APP_ENCRYPTION_KEY", "encryption.key", () => randomBytes(32).toString("hex"));
localSecret("NEXTAUTH_SECRET", "auth.secret", () => randomBytes(32).toString("base64url"));

if (!env.GATEWAY_BASE_URL) await startSandbox();

const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
if (!dev && !existsSync(path.join(root, env.NEXT_DIST_DIR || ".next", "BUILD_ID"))) {
  console.log("[start] no production build yet: running `next build` (a few minutes on the first start)…");
  const build = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, env, stdio: "inherit" });
  if (build.status !== 0) await shutdown(build.status || 1, "`next build` failed");
}

// On Postgres the background work (webhook events onto the ledger, gateway confirmations) runs in
// a process of its own, so a burst of deliveries and the work it causes do not share one thread.
// An embedded database belongs to one process: there the console does it itself.
const separateWorker = !dev && Boolean(env.DATABASE_URL) && !env.RECONCILER;
const workerEnv = { ...env };
if (separateWorker) env.RECONCILER = "worker";

// Events stay stored and pending while it is down; a new worker picks them up.
const startWorker = () =>
  supervise(
    "worker",
    () => spawn(process.execPath, backgroundWorkerArgs(root), { cwd: root, env: workerEnv, stdio: ["ignore", "ignore", "inherit"] }),
    { critical: false },
  );

// The client address comes from the socket: see scripts/run/client-address-hook.mjs.
const clientAddressHook = `--import=${pathToFileURL(path.join(root, "scripts", "run", "client-address-hook.mjs")).href}`;
env.NODE_OPTIONS = [env.NODE_OPTIONS, clientAddressHook].filter(Boolean).join(" ");
const webArgs = [...WEB_SERVER_NODE_FLAGS, nextBin, dev ? "dev" : "start", "-p", env.PORT, ...(env.HOST ? ["-H", env.HOST] : [])];
supervise("console", () => spawn(process.execPath, webArgs, { cwd: root, env, stdio: "inherit" }), { critical: true });
console.log(`[start] console: ${env.APP_URL}`);
if (separateWorker) startWorker();
