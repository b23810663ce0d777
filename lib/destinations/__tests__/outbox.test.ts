import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import { destinationDeliveries, eventOutbox, ledgerTransactions, transfers } from "@/lib/db/schema";
import { testDatabases, useDatabase, type TestDatabase } from "@/lib/testing/databases";
import { startLookupGateway } from "@/lib/testing/lookup-gateway";
import { encryptSecret } from "@/lib/crypto/secrets";
import { eventBodySchema } from "../schemas";
import { startReceiver } from "@/lib/testing/webhook-receiver";

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");
process.env.WEBHOOK_APPLIER = "off";
process.env.RECONCILE_DELAYS_MS = "0";
process.env.DESTINATION_RETRY_DELAYS_MS = "0,0,0";

const TOKEN = "wht_outbox_7e1c2a9b";
const gateway = await startLookupGateway();
let secret: string | null = null;
const receiver = await startReceiver(() => secret);
afterAll(async () => {
  await gateway.close();
  await receiver.close();
});

const targets = await testDatabases();

function paid(overrides: { id: string; identifier: string; status?: string; event?: string; utm?: boolean }) {
  return {
    event: overrides.event ?? "TRANSACTION_PAID",
    token: TOKEN,
    offerCode: null,
    checkoutUrl: overrides.utm ? "https://pay.example/c/abc?utm_source=instagram&utm_medium=stories&utm_campaign=black-friday" : "",
    client: { id: "cli_1", name: "Maria Souza", email: "maria@example.com", phone: "(11) 98888-7777", cpf: "529.982.247-25", cnpj: null },
    transaction: {
      id: overrides.id,
      identifier: overrides.identifier,
      status: overrides.status ?? "COMPLETED",
      paymentMethod: "PIX",
      amount: 123.45,
      currency: "BRL",
      createdAt: "2026-11-20T12:00:00.000Z",
      payedAt: "2026-11-20T12:05:00.000Z",
    },
    orderItems: [{ id: "item-1", price: 123.45, product: { id: "prod-1", name: "Curso de Pix", externalId: "ext-1" } }],
    trackProps: { isUpsell: false, ip: "203.0.113.9", user_agent: "Mozilla/5.0", utm_source: "instagram", utm_campaign: "black-friday" },
  };
}

describe.each(targets)("confirmed facts become events on $name", (target: TestDatabase) => {
  let accountId: string;
  let destinationId: string;

  beforeAll(async () => {
    await closeDb();
    useDatabase(target);
    const { createAccount } = await import("@/lib/accounts/queries");
    accountId = (
      await createAccount(
        { name: "Loja", baseUrl: gateway.baseUrl, publicKey: "pk", secretKey: "sk_1234567890", webhookToken: TOKEN, mode: "test" },
        null,
      )
    ).id;
    const { createDestination } = await import("../queries");
    const created = await createDestination(
      accountId,
      { url: receiver.url, description: "CRM", allTypes: true, eventTypes: [] },
      { id: "u1", email: "admin@example.test" },
      null,
    );
    destinationId = created.destination.id;
    secret = created.secret;
  });
  afterAll(async () => {
    const { stopFeedListener } = await import("@/lib/feed/bus");
    await stopFeedListener();
    await closeDb();
    gateway.records.clear();
    await target.drop();
  });

  const receive = async (payload: unknown) => {
    const { receiveNotification } = await import("@/lib/notifications/ingest");
    const { applyPendingNotifications } = await import("@/lib/notifications/applier");
    const answer = await receiveNotification({ accountId, body: JSON.stringify(payload), sourceIp: "203.0.113.7" });
    await applyPendingNotifications();
    return answer;
  };
  /** What the background worker does: confirmations with the gateway, then publishing and sending. */
  const work = async (passes = 4) => {
    const { runBackgroundWorkOnce } = await import("@/lib/background/serverless");
    for (let i = 0; i < passes; i++) await runBackgroundWorkOnce({ destinations: true });
  };
  const receivedFor = (identifier: string) =>
    receiver.received.filter((r) => (r.verified as { data?: { identifier?: string } } | null)?.data?.identifier === identifier);

  it("a paid notification the gateway confirms makes one charge.paid, verified by the standardwebhooks library", async () => {
    const id = `tx_${randomUUID()}`;
    const identifier = `ord-${randomUUID().slice(0, 8)}`;
    await receive(paid({ id, identifier, utm: true }));
    // Not confirmed yet (the gateway does not have it, a miss that proves nothing on its own): nothing is sent.
    await work(1);
    expect(receivedFor(identifier)).toHaveLength(0);

    gateway.records.set(id, { id, clientIdentifier: identifier, status: "COMPLETED", payedAt: "2026-11-20T12:05:00.000Z", amount: 123.45 });
    await work();
    const got = receivedFor(identifier);
    expect(got).toHaveLength(1);
    const body = got[0]!.verified as Record<string, unknown>;
    expect(() => eventBodySchema("charge.paid").parse(body)).not.toThrow();
    expect(body).toMatchObject({
      type: "charge.paid",
      data: {
        object: "charge",
        accountId,
        mode: "test",
        gatewayId: id,
        identifier,
        status: "paid",
        gatewayStatus: "COMPLETED",
        paymentMethod: "PIX",
        amount: 123.45,
        amountCents: 12345,
        currency: "BRL",
        customer: { name: "Maria Souza", email: "maria@example.com", document: "529.982.247-25" },
        products: [{ id: "prod-1", externalId: "ext-1", name: "Curso de Pix", price: 123.45 }],
        utm: { source: "instagram", medium: "stories", campaign: "black-friday" },
        trackProps: { utm_source: "instagram", isUpsell: false },
        paidAt: "2026-11-20T12:05:00.000Z",
      },
    });
    expect(got[0]!.id).toMatch(/^msg_[0-9a-f]{32}$/);

    // The same notification again, and another pass: no second event.
    await receive(paid({ id, identifier, utm: true }));
    await work();
    expect(receivedFor(identifier)).toHaveLength(1);
  });

  it("a notification the gateway contradicts, or does not know, makes no event", async () => {
    const contradicted = { id: `tx_${randomUUID()}`, identifier: `ord-${randomUUID().slice(0, 8)}` };
    gateway.records.set(contradicted.id, {
      id: contradicted.id,
      clientIdentifier: contradicted.identifier,
      status: "PENDING",
      payedAt: null,
    });
    await receive(paid(contradicted));
    const unknown = { id: `tx_${randomUUID()}`, identifier: `ord-${randomUUID().slice(0, 8)}` };
    await receive(paid(unknown));
    await work();

    expect(receivedFor(contradicted.identifier).map((r) => (r.verified as { type: string }).type)).not.toContain("charge.paid");
    expect(receivedFor(unknown.identifier)).toHaveLength(0);
    const db = await getDb();
    const facts = await db
      .select()
      .from(eventOutbox)
      .where(and(eq(eventOutbox.accountId, accountId), eq(eventOutbox.type, "charge.paid")));
    expect(facts.map((f) => (f.payload as { data: { identifier: string } }).data.identifier)).not.toContain(contradicted.identifier);
  });

  it("a fact that rolls back leaves no event; a committed one always has its event", async () => {
    const db = await getDb();
    const identifier = `ord-${randomUUID().slice(0, 8)}`;
    const [row] = await db
      .insert(ledgerTransactions)
      .values({
        accountId,
        kind: "pix_charge",
        identifier,
        origin: "console",
        submission: "SUBMITTED",
        status: "OK",
        statusSource: "creation",
        amountCents: 5000,
      })
      .returning();
    await expect(
      db.transaction(async (tx) => {
        await tx.update(ledgerTransactions).set({ status: "COMPLETED", statusSource: "lookup" }).where(eq(ledgerTransactions.id, row!.id));
        throw new Error("the rest of the transaction failed");
      }),
    ).rejects.toThrow("the rest of the transaction failed");
    let facts = await db.select().from(eventOutbox).where(eq(eventOutbox.objectId, row!.id));
    expect(facts.map((f) => f.status)).toEqual(["OK"]);

    await db
      .update(ledgerTransactions)
      .set({ status: "COMPLETED", statusSource: "lookup", paidAt: new Date() })
      .where(eq(ledgerTransactions.id, row!.id));
    facts = await db.select().from(eventOutbox).where(eq(eventOutbox.objectId, row!.id));
    expect(facts.map((f) => f.status)).toEqual(["OK", "COMPLETED"]);
    await work();
    expect(receivedFor(identifier).map((r) => (r.verified as { type: string }).type)).toEqual(["charge.created", "charge.paid"]);
  });

  it("a status a notification alone set (it moves no money) is no event", async () => {
    const db = await getDb();
    const identifier = `ord-${randomUUID().slice(0, 8)}`;
    await db
      .insert(ledgerTransactions)
      .values({ accountId, kind: "external", identifier, origin: "webhook", status: "PENDING", statusSource: "webhook" });
    await work();
    expect(receivedFor(identifier)).toHaveLength(0);
    const [fact] = await db
      .select()
      .from(eventOutbox)
      .where(sql`${eventOutbox.snapshot}->>'identifier' = ${identifier}`);
    expect(fact?.state).toBe("skipped");
  });

  it("a transfer completed by a notification carrying its own token makes one transfer.completed", async () => {
    const db = await getDb();
    const webhookToken = "wht_transfer_5f9a1c";
    const identifier = `tr-${randomUUID()}`;
    const [transfer] = await db
      .insert(transfers)
      .values({
        accountId,
        identifier,
        submission: "SUBMITTED",
        amountCents: 2500,
        discountFeeOfReceiver: false,
        pixKeyType: "email",
        pixKey: "ana@example.com",
        ownerName: "Ana Lima",
        ownerDocumentType: "cpf",
        ownerDocumentNumber: "52998224725",
        ownerIp: "203.0.113.10",
        callbackUrl: "http://console.test/api/webhooks/x",
        withdrawId: `wd_${randomUUID()}`,
        withdrawStatus: "PENDING",
        withdrawStatusSource: "creation",
        webhookTokenEncrypted: encryptSecret(webhookToken),
      })
      .returning();
    const { applyTransferNotification } = await import("@/lib/notifications/transfer-notifications");
    const forged = await applyTransferNotification(accountId, {
      event: "WITHDRAW_COMPLETED",
      token: "wrong",
      withdraw: { id: transfer!.withdrawId, status: "COMPLETED" },
    });
    expect(forged.outcome).toBe("bad_token");
    const real = await applyTransferNotification(accountId, {
      event: "WITHDRAW_COMPLETED",
      token: webhookToken,
      withdraw: { id: transfer!.withdrawId, status: "COMPLETED" },
    });
    expect(real.statusApplied).toBe(true);
    await work();
    // Both go out in one batch, sent side by side: which arrives first is the network's choice.
    const bodies = receivedFor(identifier).map((r) => r.verified as { type: string; data: Record<string, unknown> });
    expect(bodies.map((b) => b.type).sort()).toEqual(["transfer.completed", "transfer.created"]);
    const completed = bodies.find((b) => b.type === "transfer.completed")!;
    expect(completed.data).toMatchObject({
      object: "transfer",
      status: "completed",
      gatewayStatus: "COMPLETED",
      amountCents: 2500,
      withdrawId: transfer!.withdrawId,
    });
    expect(JSON.stringify(bodies)).not.toContain(webhookToken);
    expect(() => eventBodySchema("transfer.completed").parse(completed)).not.toThrow();
  });

  it("destinations receive only the types they chose; a paused one queues them until resumed", async () => {
    const { createDestination, setDestinationState } = await import("../queries");
    const actor = { id: "u1", email: "admin@example.test" };
    const onlyRefunds = await createDestination(
      accountId,
      { url: receiver.url, allTypes: false, eventTypes: ["charge.refunded"] },
      actor,
      null,
    );
    await setDestinationState(accountId, destinationId, "paused", actor, null);
    const db = await getDb();
    const identifier = `ord-${randomUUID().slice(0, 8)}`;
    await db.insert(ledgerTransactions).values({
      accountId,
      kind: "pix_charge",
      identifier,
      origin: "console",
      submission: "SUBMITTED",
      status: "OK",
      statusSource: "creation",
    });
    await work();
    expect(receivedFor(identifier)).toHaveLength(0);
    const deliveries = await db.select().from(destinationDeliveries).where(eq(destinationDeliveries.eventType, "charge.created"));
    expect(deliveries.some((d) => d.destinationId === onlyRefunds.destination.id)).toBe(false);

    await setDestinationState(accountId, destinationId, "enabled", actor, null);
    await work();
    expect(receivedFor(identifier)).toHaveLength(1);
  });
});
