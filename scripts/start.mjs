#!/usr/bin/env node
// `npm start` / `npm run dev`: starts the console, and the sandbox gateway beside it when no
// real gateway is configured. Secrets for a local run are generated under DATA_DIR.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { backgroundWorkerArgs } from "./background-worker-command.mjs";
import { WEB_SERVER_NODE_FLAGS } from "./web-server-flags.mjs";

const dev = process.argv.includes("--dev");
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const env = { ...process.env };
env.PORT ??= "3000";
env.APP_URL ??= `http://localhost:${env.PORT}`;
env.NEXTAUTH_URL ??= env.APP_URL;
env.DATA_DIR = path.resolve(root, env.DATA_DIR ?? ".data");
env.NODE_ENV = dev ? "development" : "production";

const children = [];
let stopping = false;
function stopAll(code = 0) {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  process.exit(code);
}
process.on("SIGINT", () => stopAll(130));
process.on("SIGTERM", () => stopAll(143));

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
  const child = spawn(process.execPath, ["--import", "tsx", "sandbox/server.ts"], {
    cwd: root,
    env: { ...env, SANDBOX_PORT: port, SANDBOX_DATA_DIR: env.SANDBOX_DATA_DIR ?? path.join(env.DATA_DIR, "sandbox") },
    stdio: "inherit",
  });
  children.push(child);
  child.on("exit", (code) => {
    if (code !== 0 && code !== null) console.error(`[start] the sandbox gateway stopped (exit code ${code})`);
  });
  await waitForHealth(`${sandboxUrl}/health`, child);
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
  if (build.status !== 0) stopAll(build.status ?? 1);
}

// On Postgres the background work (webhook events onto the ledger, gateway confirmations) runs in
// a process of its own, so a burst of deliveries and the work it causes do not share one thread.
// An embedded database belongs to one process: there the console does it itself.
const separateWorker = !dev && Boolean(env.DATABASE_URL) && !env.RECONCILER;
const workerEnv = { ...env };
if (separateWorker) env.RECONCILER = "worker";

function startWorker() {
  const worker = spawn(process.execPath, backgroundWorkerArgs(root), { cwd: root, env: workerEnv, stdio: ["ignore", "ignore", "inherit"] });
  children.push(worker);
  worker.on("exit", (code, signal) => {
    if (stopping) return;
    // Events stay stored and pending meanwhile; a new worker picks them up.
    console.error(`[start] the background worker stopped (${signal ?? `exit code ${code}`}); starting it again in 1 s`);
    setTimeout(startWorker, 1000);
  });
}

// The client address comes from the socket: see scripts/client-address-hook.mjs.
const clientAddressHook = `--import=${pathToFileURL(path.join(root, "scripts", "client-address-hook.mjs")).href}`;
env.NODE_OPTIONS = [env.NODE_OPTIONS, clientAddressHook].filter(Boolean).join(" ");
const console_ = spawn(process.execPath, [...WEB_SERVER_NODE_FLAGS, nextBin, dev ? "dev" : "start", "-p", env.PORT, ...(env.HOST ? ["-H", env.HOST] : [])], {
  cwd: root,
  env,
  stdio: "inherit",
});
children.push(console_);
console.log(`[start] console: ${env.APP_URL}`);
console_.on("exit", (code) => stopAll(code ?? 0));
if (separateWorker) startWorker();
