/**
 * Sandbox throughput benchmark: Pix charges at a fixed concurrency against an in-process sandbox.
 *   npm run bench:sandbox -- [count] [concurrency]
 *   env BENCH_COUNT, BENCH_CONCURRENCY, BENCH_WARMUP, BENCH_DATA_DIR (default: a temp dir; "memory://" for in-memory)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import http from "node:http";
import { startSandbox } from "../../sandbox/app";

const count = Number(process.argv[2] ?? process.env.BENCH_COUNT ?? 10_000);
const concurrency = Number(process.argv[3] ?? process.env.BENCH_CONCURRENCY ?? 16);
const warmup = Number(process.env.BENCH_WARMUP ?? 500);
const tempDir = process.env.BENCH_DATA_DIR ? null : mkdtempSync(path.join(tmpdir(), "sandbox-bench-"));
const dataDir = process.env.BENCH_DATA_DIR ?? tempDir!;

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

/** node:http with a keep-alive agent: cheaper than fetch, so the client steals less CPU. */
function post(url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", agent, headers: { ...headers, "content-length": Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

const headers = { "x-public-key": "pk_sandbox_demo", "x-secret-key": "sk_sandbox_demo", "content-type": "application/json" };
const client = { name: "Maria Souza", email: "maria@example.com", phone: "11987654321", document: "52998224725" };

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function run(url: string, prefix: string, total: number, latencies: number[] | null): Promise<number> {
  let next = 0;
  let failures = 0;
  async function worker() {
    while (next < total) {
      const i = next++;
      const started = performance.now();
      const status = await post(
        `${url}/api/v1/gateway/pix/receive`,
        JSON.stringify({ identifier: `${prefix}-${i}`, amount: 49.9, client, products: [{ id: "p1", name: "Curso", price: 49.9 }] }),
      );
      if (status !== 200) failures++;
      latencies?.push(performance.now() - started);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return failures;
}

const sandbox = await startSandbox({ port: 0, dataDir, quiet: true });
try {
  console.log(`sandbox bench: ${count} Pix charges, concurrency ${concurrency}, PGlite at ${dataDir}`);
  await run(sandbox.url, "warmup", warmup, null);
  const latencies: number[] = [];
  const started = performance.now();
  const failures = await run(sandbox.url, `bench-${Date.now()}`, count, latencies);
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const fmt = (n: number) => n.toFixed(1);
  console.log(
    `charges/s ${fmt(count / seconds)}  total ${fmt(seconds)} s  p50 ${fmt(percentile(latencies, 50))} ms  p95 ${fmt(percentile(latencies, 95))} ms  p99 ${fmt(percentile(latencies, 99))} ms  failures ${failures}`,
  );
  if (failures > 0) process.exitCode = 1;
} finally {
  agent.destroy();
  await sandbox.close();
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
}
