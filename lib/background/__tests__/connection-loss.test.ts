import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import readline from "node:readline";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { gatewayNotifications } from "@/lib/db/schema";
import { testDatabases, type TestDatabase } from "@/lib/testing/databases";
import { bindDatabase } from "@/lib/testing/bind-database";
import { startLookupGateway } from "@/lib/testing/lookup-gateway";
import { backgroundWorkerArgs } from "../../../scripts/run/background-worker-command.mjs";

process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");
// This process plays the web server of `npm start` on Postgres: it stores, the worker applies.
process.env.RECONCILER = "worker";
process.env.RECONCILE_DELAYS_MS = "0";
const TOKEN = "wht_conn_loss_test_01";
const gateway = await startLookupGateway();
afterAll(() => gateway.close());

// pg_terminate_backend and a second process: the Postgres server only.
const targets = (await testDatabases()).filter((t) => t.url);

function paid(txId: string) {
  return JSON.stringify({
    event: "TRANSACTION_PAID",
    token: TOKEN,
    offerCode: null,
    checkoutUrl: "",
    client: { id: "c1", name: "Maria Souza", email: "maria@example.com", phone: "(11) 98888-7777", cpf: "529.982.247-25", cnpj: null },
    transaction: {
      id: txId,
      identifier: `ord-${txId}`,
      status: "COMPLETED",
      paymentMethod: "PIX",
      amount: 42.5,
      commissionAmount: 40,
      currency: "BRL",
      createdAt: "2026-11-20T12:00:00.000Z",
      payedAt: "2026-11-20T12:00:30.000Z",
    },
    orderItems: [],
  });
}

type Worker = { child: ChildProcess; output: string[]; exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }> };

async function startWorker(databaseUrl: string): Promise<Worker> {
  // A short interval keeps the worker in and out of transactions all the time: a connection is
  // often checked out (between two statements) when it is terminated.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    NODE_ENV: "production",
    RECONCILE_INTERVAL_MS: "20",
    WORKER_NICE: "0",
  };
  delete env.RECONCILER;
  const child = spawn(process.execPath, backgroundWorkerArgs(process.cwd()), { env, stdio: ["ignore", "pipe", "pipe"] });
  const output: string[] = [];
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("close", (code: number | null, signal: NodeJS.Signals | null) => resolve({ code, signal })),
  );
  readline.createInterface({ input: child.stderr! }).on("line", (line) => output.push(line));
  const ready = new Promise<void>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on("line", (line) => {
      output.push(line);
      if (line.includes('"ready":true')) resolve();
    });
    void exit.then(({ code }) => reject(new Error(`the worker exited (${code}): ${output.join("\n")}`)));
  });
  await ready;
  return { child, output, exit };
}

async function terminateOthers(url: string): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ n: string }>(
      "select count(pg_terminate_backend(pid)) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    );
    return Number(rows[0]!.n);
  } finally {
    await admin.end();
  }
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined as T);
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(targets)("the background worker when its connections are terminated, on $name", (target: TestDatabase) => {
  bindDatabase(target);
  const workers: Worker[] = [];
  afterAll(() => workers.forEach((w) => w.child.kill("SIGKILL")));

  it("stays up, listens again, applies a stored event afterwards, and stops cleanly on SIGTERM", { timeout: 90_000 }, async () => {
    const { createAccount } = await import("@/lib/accounts/queries");
    const { receiveNotification } = await import("@/lib/notifications/ingest");
    const { closeDb } = await import("@/lib/db/client");
    const accountId = (
      await createAccount(
        { name: "Loja", baseUrl: gateway.baseUrl, publicKey: "pk", secretKey: "sk_1234567890", webhookToken: TOKEN, mode: "test" },
        null,
      )
    ).id;
    const eventOf = async (txId: string) =>
      (await (await getDb()).select().from(gatewayNotifications).where(eq(gatewayNotifications.gatewayTransactionId, txId)))[0];

    const worker = await startWorker(target.url!);
    workers.push(worker);
    let died: string | null = null;
    void worker.exit.then(({ code, signal }) => (died = `exit ${code ?? signal}`));

    // Events keep arriving while the connections are cut, so the applier is busy in transactions.
    let terminated = 0;
    for (let round = 0; round < 8; round++) {
      const txId = `tx_cut_${round}_${randomBytes(3).toString("hex")}`;
      gateway.records.set(txId, {
        id: txId,
        clientIdentifier: `ord-${txId}`,
        status: "COMPLETED",
        amount: 42.5,
        payedAt: "2026-11-20T12:00:30.000Z",
        paymentMethod: "PIX",
      });
      await receiveNotification({ accountId, body: paid(txId), sourceIp: null }).catch(() => null);
      await new Promise((resolve) => setTimeout(resolve, 40 + round * 35));
      terminated += await terminateOthers(target.url!);
      // This process's own pool lost its connections too: open a fresh one.
      await closeDb();
    }
    expect(terminated).toBeGreaterThan(8);
    // Time for an 'error' event nobody listens to, or a rejected promise, to end the process.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(died, worker.output.join("\n")).toBeNull();
    expect(worker.child.exitCode).toBeNull();
    expect(worker.output.join("\n")).not.toMatch(/Unhandled|uncaught/i);

    // Stored after the last cut: the worker's pool and its LISTEN connection work again.
    const after = `tx_after_${randomBytes(3).toString("hex")}`;
    gateway.records.set(after, {
      id: after,
      clientIdentifier: `ord-${after}`,
      status: "COMPLETED",
      amount: 42.5,
      payedAt: "2026-11-20T12:00:30.000Z",
      paymentMethod: "PIX",
    });
    expect((await receiveNotification({ accountId, body: paid(after), sourceIp: null })).status).toBe(200);
    expect(
      (
        await eventually(
          () => eventOf(after),
          (e) => e?.applyState === "applied",
          15_000,
        )
      )?.applyState,
    ).toBe("applied");
    expect(worker.output.join("\n")).toMatch(/listening again/);

    // SIGTERM: it stops at a safe point and exits 0.
    worker.child.kill("SIGTERM");
    expect(await worker.exit, worker.output.slice(-20).join("\n")).toEqual({ code: 0, signal: null });
    expect(worker.output.join("\n")).toMatch(/"msg":"stopped"/);
  });
});
