import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import readline from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { ledgerTransactions, gatewayNotifications } from "@/lib/db/schema";
import { testDatabases, type TestDatabase } from "@/lib/testing/databases";
import { bindDatabase } from "@/lib/testing/bind-database";
import { startLookupGateway } from "@/lib/testing/lookup-gateway";
import { backgroundWorkerArgs } from "../../../scripts/run/background-worker-command.mjs";

process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");
// This process plays the web server of `npm start` on Postgres: it stores, the worker applies.
process.env.RECONCILER = "worker";
process.env.RECONCILE_DELAYS_MS = "0";
const TOKEN = "wht_worker_test_0001";
const gateway = await startLookupGateway();
afterAll(() => gateway.close());

// Two processes share the database: only the Postgres server allows that.
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

async function startWorker(databaseUrl: string): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "production", RECONCILE_INTERVAL_MS: "600000" };
  delete env.RECONCILER;
  const child = spawn(process.execPath, backgroundWorkerArgs(process.cwd()), { env, stdio: ["ignore", "pipe", "inherit"] });
  for await (const line of readline.createInterface({ input: child.stdout! })) {
    if (line.startsWith("{") && (JSON.parse(line) as { ready?: boolean }).ready) return child;
  }
  throw new Error(`the worker exited (${child.exitCode})`);
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(targets)("the background worker process on $name", (target: TestDatabase) => {
  bindDatabase(target);
  const workers: ChildProcess[] = [];
  afterAll(() => workers.forEach((w) => w.kill("SIGKILL")));

  it(
    "applies what the web process stored: the backlog at start, then each new event on its signal, and confirms it with the gateway",
    { timeout: 60_000 },
    async () => {
      const { createAccount } = await import("@/lib/accounts/queries");
      const { receiveNotification } = await import("@/lib/notifications/ingest");
      const accountId = (
        await createAccount(
          { name: "Loja", baseUrl: gateway.baseUrl, publicKey: "pk", secretKey: "sk_1234567890", webhookToken: TOKEN, mode: "test" },
          null,
        )
      ).id;
      const db = await getDb();
      const eventOf = (txId: string) =>
        db
          .select()
          .from(gatewayNotifications)
          .where(eq(gatewayNotifications.gatewayTransactionId, txId))
          .then((rows) => rows[0]);
      const ledgerOf = (txId: string) =>
        db
          .select()
          .from(ledgerTransactions)
          .where(eq(ledgerTransactions.gatewayTransactionId, txId))
          .then((rows) => rows[0]);

      const before = `tx_before_${randomBytes(3).toString("hex")}`;
      expect((await receiveNotification({ accountId, body: paid(before), sourceIp: null })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The web process itself does not apply with RECONCILER=worker.
      expect((await eventOf(before))?.applyState).toBe("pending");

      workers.push(await startWorker(target.url!));
      expect(
        (
          await eventually(
            () => eventOf(before),
            (e) => e?.applyState === "applied",
            10_000,
          )
        )?.applyState,
      ).toBe("applied");

      // The worker's timer is 10 minutes here: only the stored event's signal can wake it in time.
      const after = `tx_after_${randomBytes(3).toString("hex")}`;
      gateway.records.set(after, {
        id: after,
        clientIdentifier: `ord-${after}`,
        status: "COMPLETED",
        amount: 42.5,
        payedAt: "2026-11-20T12:00:30.000Z",
        paymentMethod: "PIX",
      });
      const startedAt = Date.now();
      expect((await receiveNotification({ accountId, body: paid(after), sourceIp: null })).status).toBe(200);
      const applied = await eventually(
        () => eventOf(after),
        (e) => e?.applyState === "applied",
        5_000,
      );
      expect(applied?.applyState).toBe("applied");
      expect(Date.now() - startedAt).toBeLessThan(5_000);
      const row = await eventually(
        () => ledgerOf(after),
        (r) => r?.status === "COMPLETED",
        10_000,
      );
      expect(row).toMatchObject({ accountId, amountCents: 4250, status: "COMPLETED", pendingStatus: null });
      expect(gateway.lookups).toContain(after);
    },
  );
});
