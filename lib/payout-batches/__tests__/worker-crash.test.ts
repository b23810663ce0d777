import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import readline from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PayoutRowCells } from "@/lib/db/tables/payout-batches";
import { startSandbox, type RunningSandbox } from "@/sandbox/app";
import { createSandboxControl } from "@/sandbox/control-client";
import { testDatabases, type TestDatabase } from "@/lib/testing/databases";
import { bindDatabase } from "@/lib/testing/bind-database";
import { startGatewayProxy, startWebhookEndpoint } from "@/lib/testing/gateway-proxy";
import { PEOPLE_PASSWORD, makerAndChecker } from "@/lib/testing/payout-people";
import { backgroundWorkerArgs } from "../../../scripts/run/background-worker-command.mjs";

process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");
// This process plays the web server: it approves and receives notifications; the workers send and apply.
process.env.RECONCILER = "worker";

const ROWS = 40;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let sandbox: RunningSandbox;
let proxy: Awaited<ReturnType<typeof startGatewayProxy>>;
let endpoint: Awaited<ReturnType<typeof startWebhookEndpoint>>;
const control = () => createSandboxControl({ baseUrl: sandbox.url, publicKey: "pk_sandbox_demo", secretKey: "sk_sandbox_demo" });

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dataDir: "memory://", webhookRetryMs: 50, quiet: true });
  proxy = await startGatewayProxy(sandbox.url);
  endpoint = await startWebhookEndpoint();
  process.env.APP_URL = endpoint.url;
}, 60_000);

afterAll(async () => {
  await endpoint?.close();
  await proxy?.close();
  await sandbox?.close();
});

// Several processes share the database: only the Postgres server allows that.
const targets = (await testDatabases()).filter((t) => t.url);

async function startWorker(databaseUrl: string): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    NODE_ENV: "production",
    RECONCILE_INTERVAL_MS: "600000",
    GATEWAY_TIMEOUT_MS: "4000",
    PAYOUT_LEASE_MS: "5000",
    PAYOUT_INTERVAL_MS: "200",
    PAYOUT_CONCURRENCY: "4",
  };
  delete env.RECONCILER;
  const child = spawn(process.execPath, backgroundWorkerArgs(process.cwd()), { env, stdio: ["ignore", "pipe", "inherit"] });
  for await (const line of readline.createInterface({ input: child.stdout! })) {
    if (line.startsWith("{") && (JSON.parse(line) as { ready?: boolean }).ready) return child;
  }
  throw new Error(`the worker exited (${child.exitCode})`);
}

async function waitFor(probe: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

describe.skipIf(targets.length === 0).each(targets)("a batch's sender on $name", (target: TestDatabase) => {
  bindDatabase(target);
  const workers: ChildProcess[] = [];
  afterAll(() => workers.forEach((w) => w.kill("SIGKILL")));

  it(
    "killed with SIGKILL mid-batch and restarted as two workers: every row reaches the gateway exactly once and settles",
    { timeout: 120_000 },
    async () => {
      const { createAccount } = await import("@/lib/accounts/queries");
      const { createPayoutBatch, submitPayoutBatch, approvePayoutBatch } = await import("../service");
      const { listPayoutRows, getPayoutBatch } = await import("../queries");

      const accountId = (
        await createAccount(
          {
            name: "Loja",
            baseUrl: proxy.url,
            publicKey: "pk_sandbox_demo",
            secretKey: "sk_sandbox_demo",
            webhookToken: null,
            mode: "test",
          },
          null,
        )
      ).id;
      const { maker, checker, enrolChecker, freshCode } = await makerAndChecker(accountId);
      await enrolChecker();

      const rows: Array<{ line: number; cells: PayoutRowCells }> = Array.from({ length: ROWS }, (_, i) => ({
        line: i + 2,
        cells: {
          pixKey: `afiliado${i}@example.com`,
          pixKeyType: "email",
          amount: `${20 + i},00`,
          name: `Afiliado ${i}`,
          document: "529.982.247-25",
          description: "",
          reference: "",
        },
      }));
      const { batchId } = await createPayoutBatch({
        accountId,
        actor: maker,
        ip: "203.0.113.10",
        name: "Afiliados",
        source: "csv",
        fileName: "a.csv",
        rows,
      });
      await submitPayoutBatch({ accountId, actor: maker, ip: "203.0.113.10", batchId });
      // Every transfer call is held a second at the gateway: the kill lands while requests are on their way.
      await control().fault({ latencyMs: 1_000, times: 10_000 });
      await approvePayoutBatch({
        accountId,
        actor: checker,
        ip: "203.0.113.20",
        batchId,
        proof: { password: PEOPLE_PASSWORD, code: await freshCode() },
      });

      const first = await startWorker(target.url!);
      workers.push(first);
      const transferCalls = () => [...proxy.transfersSent().values()].reduce((a, b) => a + b, 0);
      await waitFor(() => transferCalls() >= 8 && proxy.inFlight() === 4, 30_000, "the first worker to have 4 rows in flight");
      await sleep(150);
      const beforeKill = transferCalls();
      const inFlightAtKill = proxy.inFlight();
      first.kill("SIGKILL");
      await new Promise((resolve) => first.once("exit", resolve));

      await control().clearFaults();
      await control().fault({ latencyMs: 200, times: 10_000 });
      workers.push(await startWorker(target.url!), await startWorker(target.url!));
      await waitFor(
        async () => (await listPayoutRows(batchId)).every((r) => r.execution === "SENT"),
        60_000,
        "every row to be sent after the restart",
      );
      await control().clearFaults();

      const sent = proxy.transfersSent();
      const prefix = `lote-${batchId.replace(/-/g, "")}-`;
      const perRow = rows.map(({ line }) => sent.get(`${prefix}${line}`) ?? 0);
      console.log(
        `[batch crash] ${ROWS} rows; ${beforeKill} transfer requests before the SIGKILL, ${inFlightAtKill} of them on their way; ` +
          `after the restart as two workers: requests per row min ${Math.min(...perRow)}, max ${Math.max(...perRow)}; ` +
          `withdraws at the sandbox ${(await control().withdraws({ identifierPrefix: prefix })).length}`,
      );
      expect(inFlightAtKill).toBeGreaterThan(0);
      expect(perRow.every((n) => n === 1)).toBe(true);
      expect(await control().withdraws({ identifierPrefix: prefix })).toHaveLength(ROWS);
      expect((await getPayoutBatch(accountId, batchId))?.state).toBe("FINISHED");

      // The rows whose answers the kill lost are "unknown" until their notifications arrive; then every row is completed.
      for (const withdraw of await control().withdraws({ identifierPrefix: prefix, status: "PENDING" }))
        await control().completeWithdraw(withdraw.id);
      await waitFor(
        async () => (await listPayoutRows(batchId)).every((r) => r.outcome === "completed"),
        30_000,
        "every row to be completed by its notification",
      );
      expect((await getPayoutBatch(accountId, batchId))?.progress).toMatchObject({
        total: ROWS,
        sent: ROWS,
        completed: ROWS,
        unknown: 0,
        remaining: 0,
      });
    },
  );
});
