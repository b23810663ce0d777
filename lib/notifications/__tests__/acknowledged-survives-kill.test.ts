import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import readline from "node:readline";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { gatewayChecks, ledgerTransactions, gatewayNotifications } from "@/lib/db/schema";
import { testDatabases, type TestDatabase } from "@/lib/testing/databases";
import { bindDatabase } from "@/lib/testing/bind-database";

process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");

// A server killed with SIGKILL leaves an embedded database's files as they were mid-write; the
// promise is about a database that survives its client, so this runs on the Postgres server.
const targets = (await testDatabases()).filter((t) => t.url);

function paid(txId: string) {
  return JSON.stringify({
    event: "TRANSACTION_PAID",
    token: "wht_bench_token_0001",
    offerCode: null,
    checkoutUrl: "",
    client: { id: "c1", name: "Maria Souza", email: "maria@example.com", phone: "(11) 98888-7777", cpf: "529.982.247-25", cnpj: null },
    transaction: {
      id: txId,
      identifier: `kill-${txId}`,
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

/** The real receiver (handleWebhookRequest) in its own process, with no applier running in it. */
async function startReceiver(databaseUrl: string): Promise<{ child: ChildProcess; port: number; accountId: string }> {
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", path.resolve("scripts/bench/webhooks-in-process.ts"), "--serve"],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "production", WEBHOOK_APPLIER: "off" },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const lines = readline.createInterface({ input: child.stdout! });
  for await (const line of lines) {
    if (!line.startsWith("{")) continue;
    const ready = JSON.parse(line) as { ready?: boolean; port: number; accountId: string };
    if (ready.ready) return { child, port: ready.port, accountId: ready.accountId };
  }
  throw new Error("the receiver did not start");
}

describe.each(targets)("an acknowledged delivery on $name", (target: TestDatabase) => {
  bindDatabase(target);

  it("is never lost: the server killed right after its 2xx, the event is still applied", { timeout: 60_000 }, async () => {
    const { child, port, accountId } = await startReceiver(target.url!);
    const txId = `tx_kill_${randomBytes(4).toString("hex")}`;
    const response = await fetch(`http://127.0.0.1:${port}/api/webhooks/${accountId}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: paid(txId),
    });
    expect(response.status).toBe(200);
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));

    const db = await getDb();
    const [stored] = await db.select().from(gatewayNotifications).where(eq(gatewayNotifications.gatewayTransactionId, txId));
    expect(stored?.applyState).toBe("pending");
    expect(await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.gatewayTransactionId, txId))).toHaveLength(0);

    // What any console process does on its next background pass (after a restart, at start).
    const { runBackgroundWorkOnce } = await import("@/lib/background/serverless");
    const { applied } = await runBackgroundWorkOnce();
    expect(applied).toBeGreaterThanOrEqual(1);
    // A transaction the console did not create: applied, it waits for the gateway's confirmation
    // outside the ledger (lib/ledger/notifications.ts), with its own check open.
    const [event] = await db.select().from(gatewayNotifications).where(eq(gatewayNotifications.gatewayTransactionId, txId));
    expect(event).toMatchObject({ accountId, applyState: "applied", confirmation: "confirming", ledgerId: null, amountCents: 4250 });
    expect(await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.gatewayTransactionId, txId))).toHaveLength(0);
    const [check] = await db
      .select()
      .from(gatewayChecks)
      .where(eq(gatewayChecks.targetId, `${accountId}:${txId}`));
    expect(check?.target).toBe("notification");
  });
});
