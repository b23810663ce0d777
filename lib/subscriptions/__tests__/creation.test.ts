import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import { subscriptionCharges, subscriptions } from "@/lib/db/schema";
import { testDatabases, useDatabase, type TestDatabase } from "@/lib/testing/databases";
import { startSandbox } from "@/sandbox/app";

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");
process.env.APP_URL = "http://127.0.0.1:9/console";
process.env.WEBHOOK_APPLIER = "off";

const targets = await testDatabases();
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dataDir: "memory://", webhookRetryMs: 50, quiet: true });
});
afterAll(async () => {
  await sandbox?.close();
});

const actor = { id: "user-subs-test", email: "subs@example.test" };

describe.each(targets)("a subscription created from the console on $name", (target: TestDatabase) => {
  let accountId: string;
  beforeAll(async () => {
    await closeDb();
    useDatabase(target);
    const { createAccount } = await import("@/lib/accounts/queries");
    accountId = (
      await createAccount(
        {
          name: "Sandbox",
          baseUrl: sandbox.url,
          publicKey: "pk_sandbox_demo",
          secretKey: "sk_sandbox_demo",
          webhookToken: null,
          mode: "test",
        },
        null,
      )
    ).id;
  });
  afterAll(async () => {
    await closeDb();
    await target.drop();
  });

  it("joins the list with what the console sent, the gateway's subscription id and its first charge", async () => {
    const { createCharge } = await import("@/lib/charges/service");
    const identifier = `assin-${randomUUID().slice(0, 8)}`;
    const { row } = await createCharge(
      "pix-subscription",
      {
        identifier,
        amount: "49,90",
        client: { name: "Ana Prado", email: "ana@example.com", phone: "(11) 98765-4321", document: "529.982.247-25" },
        product: { id: "clube", name: "Clube do livro", price: "49,90" },
        subscription: { periodicityType: "WEEKS", periodicity: "2", firstChargeIn: "0" },
      },
      { accountId, actor, ip: "10.1.2.3" },
    );
    expect(row.submission).toBe("SUBMITTED");
    const db = await getDb();
    const [subscription] = await db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.accountId, accountId), eq(subscriptions.identifier, identifier)));
    const answer = row.response as { subscriptionId: string; transactionId: string };
    expect(subscription).toMatchObject({
      source: "console",
      ledgerId: row.id,
      gatewaySubscriptionId: answer.subscriptionId,
      paymentMethod: "PIX",
      amountCents: 4990,
      periodicityType: "WEEKS",
      periodicity: 2,
      firstChargeIn: 0,
      clientName: "Ana Prado",
      productId: "clube",
      productName: "Clube do livro",
      gatewayRecord: null,
    });
    const links = await db.select().from(subscriptionCharges).where(eq(subscriptionCharges.subscriptionId, subscription.id));
    expect(links).toMatchObject([{ gatewayTransactionId: answer.transactionId }]);

    const { listSubscriptions } = await import("@/lib/subscriptions/queries");
    const [view] = await listSubscriptions(accountId, { customer: "Ana" });
    // Its first charge is not confirmed by the gateway yet: nothing is said about its payment.
    expect(view).toMatchObject({ confirming: 1, state: { state: "unknown" }, paid: { count: 0 } });
  });
});
