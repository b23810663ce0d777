import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// scripts/run/start.mjs as `npm start` runs it, in a copy of the repository's layout where `next` and
// the background worker are stand-ins: a web server with a slow route that drains on SIGTERM as
// `next start` does, and a worker that reports its pid and how it stopped.
const repo = path.resolve(__dirname, "../../..");
const root = mkdtempSync(path.join(os.tmpdir(), "start-mjs-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

for (const file of ["start.mjs", "background-worker-command.mjs", "web-server-flags.mjs"]) {
  mkdirSync(path.join(root, "scripts", "run"), { recursive: true });
  copyFileSync(path.join(repo, "scripts", "run", file), path.join(root, "scripts", "run", file));
}
writeFileSync(path.join(root, "scripts", "run", "client-address-hook.mjs"), "export {};\n");
mkdirSync(path.join(root, ".next"), { recursive: true });
writeFileSync(path.join(root, ".next", "BUILD_ID"), "test\n");
mkdirSync(path.join(root, "node_modules", "next", "dist", "bin"), { recursive: true });
symlinkSync(path.join(repo, "node_modules", "tsx"), path.join(root, "node_modules", "tsx"));

writeFileSync(
  path.join(root, "node_modules", "next", "dist", "bin", "next"),
  `const http = require("node:http");
const fs = require("node:fs");
if (process.env.FAKE_WEB_CRASH) process.kill(process.pid, "SIGKILL");
const port = Number(process.argv[process.argv.indexOf("-p") + 1]);
const server = http.createServer((req, res) => {
  if (req.url === "/slow") setTimeout(() => res.end("done"), 1500);
  else res.end(String(process.pid));
});
server.listen(port, "127.0.0.1");
process.on("SIGTERM", () => server.close(() => process.exit(143)));
`,
);
writeFileSync(
  path.join(root, "scripts", "run", "background-worker.ts"),
  `import fs from "node:fs";
import path from "node:path";
fs.writeFileSync(path.join(process.env.DATA_DIR ?? ".", "worker.pid"), String(process.pid));
setInterval(() => {}, 60_000);
process.on("SIGTERM", () => {
  if (process.env.FAKE_WORKER_HANG) return;
  setTimeout(() => {
    console.error("fake worker: stopped at a safe point");
    process.exit(0);
  }, 200);
});
`,
);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

type Started = {
  child: ChildProcess;
  port: number;
  dataDir: string;
  output: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};
const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill("SIGKILL");
});

async function start(extra: Record<string, string> = {}): Promise<Started> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(root, "data-"));
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: "production",
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    DATA_DIR: dataDir,
    GATEWAY_BASE_URL: "http://127.0.0.1:9",
    DATABASE_URL: "postgres://nobody@127.0.0.1:9/none",
    APP_ENCRYPTION_KEY: "0".repeat(64),
    NEXTAUTH_SECRET: "test-secret",
    START_RESTART_DELAY_MS: "100",
    ...extra,
  };
  const child = spawn(process.execPath, [path.join(root, "scripts", "run", "start.mjs")], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  let text = "";
  child.stdout!.on("data", (chunk) => (text += chunk));
  child.stderr!.on("data", (chunk) => (text += chunk));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("close", (code: number | null, signal: NodeJS.Signals | null) => resolve({ code, signal })),
  );
  return { child, port, dataDir, output: () => text, exit };
}

async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const webPid = (s: Started) =>
  fetch(`http://127.0.0.1:${s.port}/`)
    .then((r) => r.text())
    .then(Number)
    .catch(() => null);

function workerPid(s: Started): number | null {
  const file = path.join(s.dataDir, "worker.pid");
  return existsSync(file) ? Number(readFileSync(file, "utf8")) : null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("npm start (scripts/run/start.mjs) as a supervisor", { timeout: 60_000 }, () => {
  it("starts the web server again when it is killed with SIGKILL, says why, and leaves the worker running", async () => {
    const s = await start();
    const first = await until(
      () => webPid(s),
      (pid) => pid !== null,
    );
    const worker = await until(
      () => workerPid(s),
      (pid) => pid !== null,
    );
    expect(first).toBeGreaterThan(0);
    process.kill(first!, "SIGKILL");
    const second = await until(
      () => webPid(s),
      (pid) => pid !== null && pid !== first,
    );
    expect(second).not.toBe(first);
    expect(s.output()).toMatch(/the web server stopped unexpectedly \(killed by SIGKILL\); starting it again in 0\.1 s/);
    expect(s.child.exitCode).toBeNull();
    expect(alive(worker!)).toBe(true);

    s.child.kill("SIGTERM");
    expect(await s.exit).toEqual({ code: 0, signal: null });
    expect(alive(second!)).toBe(false);
    expect(alive(worker!)).toBe(false);
  });

  it("SIGTERM drains: the request in flight is answered, the worker stops at its safe point, then it exits 0", async () => {
    const s = await start();
    await until(
      () => webPid(s),
      (pid) => pid !== null,
    );
    await until(
      () => workerPid(s),
      (pid) => pid !== null,
    );
    const slow = fetch(`http://127.0.0.1:${s.port}/slow`).then(async (r) => [r.status, await r.text()] as const);
    await new Promise((resolve) => setTimeout(resolve, 300));
    s.child.kill("SIGTERM");
    expect(await slow).toEqual([200, "done"]);
    expect(await s.exit).toEqual({ code: 0, signal: null });
    expect(s.output()).toContain("fake worker: stopped at a safe point");
    // Nothing new is accepted once it stops.
    expect(await webPid(s)).toBeNull();
  });

  it("gives up on a web server that keeps dying: stops the rest and exits non-zero (128 + the signal), never 0", async () => {
    const s = await start({ FAKE_WEB_CRASH: "1", START_RESTART_LIMIT: "2" });
    const { code } = await s.exit;
    expect(code).toBe(128 + 9);
    expect(s.output()).toMatch(
      /the web server stopped unexpectedly \(killed by SIGKILL\); starting it again in 0\.1 s \(restart 1 of at most 2\)/,
    );
    expect(s.output()).toMatch(/starting it again in 0\.2 s \(restart 2 of at most 2\)/);
    expect(s.output()).toMatch(/the web server stopped \(killed by SIGKILL\) 3 times in a row; giving up/);
    const worker = workerPid(s);
    if (worker !== null) expect(alive(worker)).toBe(false);
  });

  it("a child that does not stop in time is killed, and the exit status says so", async () => {
    const s = await start({ FAKE_WORKER_HANG: "1", START_STOP_TIMEOUT_MS: "1000" });
    await until(
      () => webPid(s),
      (pid) => pid !== null,
    );
    const worker = await until(
      () => workerPid(s),
      (pid) => pid !== null,
    );
    const stoppedAt = Date.now();
    s.child.kill("SIGTERM");
    expect(await s.exit).toEqual({ code: 1, signal: null });
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    expect(s.output()).toMatch(/the background worker did not stop within 1 s: SIGKILL/);
    expect(alive(worker!)).toBe(false);
  });
});
