import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import { destinationDeliveries, eventOutbox, subscriptions } from "@/lib/db/schema";
import { testDatabases, useDatabase, type TestDatabase } from "@/lib/testing/databases";
import { startReceiver } from "@/lib/testing/webhook-receiver";
import { eventBodySchema } from "../schemas";

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");
process.env.WEBHOOK_APPLIER = "off";
process.env.DESTINATION_RETRY_DELAYS_MS = "0,0,0";

let secret: string | null = null;
const receiver = await startReceiver(() => secret);
afterAll(() => receiver.close());
const targets = await testDatabases();
const actor = { id: "u1", email: "admin@example.test" };

/**
 * The rows lib/subscriptions writes (source "subscription", the snapshot of the contract in
 * docs/events.md) become events here: published, fanned out to the destinations that want them,
 * sent signed.
 */
describe.each(targets)("a subscription's renewals and states become events on $name", (target: TestDatabase) => {
  let accountId: string;
  let allTypes: string;
  let onlyLost: string;

  beforeAll(async () => {
    await closeDb();
    useDatabase(target);
    const { createAccount } = await import("@/lib/accounts/queries");
    accountId = (
      await createAccount({ name: "Clube", baseUrl: "https://gw.example", publicKey: "pk", secretKey: "sk_1234567890", mode: "test" }, null)
    ).id;
    const { createDestination } = await import("../queries");
    const all = await createDestination(accountId, { url: receiver.url, description: "CRM", allTypes: true, eventTypes: [] }, actor, null);
    allTypes = all.destination.id;
    secret = all.secret;
    const lost = await createDestination(
      accountId,
      { url: receiver.url, description: "Recuperação", allTypes: false, eventTypes: ["subscription.lost"] },
      actor,
      null,
    );
    onlyLost = lost.destination.id;
  });
  afterAll(async () => {
    const { stopFeedListener } = await import("@/lib/feed/bus");
    await stopFeedListener();
    await closeDb();
    await target.drop();
  });

  async function aSubscription() {
    const db = await getDb();
    const identifier = `assinatura-${randomUUID().slice(0, 8)}`;
    const [row] = await db
      .insert(subscriptions)
      .values({
        accountId,
        source: "console",
        gatewaySubscriptionId: `sub_${randomUUID()}`,
        identifier,
        paymentMethod: "CREDIT_CARD",
        amountCents: 4990,
        periodicityType: "MONTHS",
        periodicity: 1,
        clientName: "Maria Souza",
        clientEmail: "maria@example.com",
        clientDocument: "529.982.247-25",
        productId: "clube",
        productName: "Clube mensal",
        startedAt: new Date("2026-06-20T14:00:00.000Z"),
        gatewayStatus: "ACTIVE",
      })
      .returning();
    return row!;
  }

  /** The outbox row, as the contract with lib/subscriptions has it. */
  async function record(
    sub: typeof subscriptions.$inferSelect,
    fact: {
      event: unknown;
      previous: string | null;
      status: string;
      state: Record<string, unknown>;
      charge: Record<string, unknown> | null;
    },
  ) {
    const db = await getDb();
    const id = `msg_${randomBytes(16).toString("hex")}`;
    await db.insert(eventOutbox).values({
      id,
      accountId,
      source: "subscription",
      objectId: sub.id,
      previousStatus: fact.previous,
      status: fact.status,
      occurredAt: new Date("2026-11-20T15:05:12.345Z"),
      snapshot: {
        event: fact.event,
        subscription: {
          id: sub.id,
          gateway_subscription_id: sub.gatewaySubscriptionId,
          identifier: sub.identifier,
          payment_method: sub.paymentMethod,
          amount_cents: sub.amountCents,
          currency: sub.currency,
          periodicity_type: sub.periodicityType,
          periodicity: sub.periodicity,
          client_name: sub.clientName,
          client_email: sub.clientEmail,
          client_document: sub.clientDocument,
          product_id: sub.productId,
          product_name: sub.productName,
          started_at: sub.startedAt?.toISOString() ?? null,
          gateway_status: sub.gatewayStatus,
        },
        state: fact.state,
        charge: fact.charge,
      },
    });
    return id;
  }

  const charge = (over: Record<string, unknown> = {}) => ({
    gateway_transaction_id: `tx_${randomUUID()}`,
    ledger_id: randomUUID(),
    identifier: null,
    charge_number: 6,
    due_at: "2026-11-20T14:00:00.000Z",
    paid_at: null,
    status: "PENDING",
    amount_cents: 4990,
    currency: "BRL",
    ...over,
  });

  async function publish() {
    const { publishPendingFacts } = await import("../publish");
    return publishPendingFacts();
  }
  async function deliveriesOf(eventId: string) {
    const db = await getDb();
    return db.select().from(destinationDeliveries).where(eq(destinationDeliveries.eventId, eventId));
  }
  async function outboxRow(eventId: string) {
    const db = await getDb();
    const [row] = await db
      .select()
      .from(eventOutbox)
      .where(and(eq(eventOutbox.id, eventId), eq(eventOutbox.accountId, accountId)));
    return row!;
  }

  it("a confirmed renewal makes one subscription.renewed, delivered only where it is wanted, valid and signed", async () => {
    const sub = await aSubscription();
    const id = await record(sub, {
      event: "renewed",
      previous: "awaiting_payment",
      status: "active",
      state: { state: "active", lastPaidAt: "2026-11-20T15:04:58.000Z" },
      charge: charge({ paid_at: "2026-11-20T15:04:58.000Z", status: "COMPLETED" }),
    });
    const { published } = await publish();
    expect(published).toBeGreaterThanOrEqual(1);

    const row = await outboxRow(id);
    expect(row.state).toBe("published");
    expect(row.type).toBe("subscription.renewed");
    expect(() => eventBodySchema("subscription.renewed").parse(row.payload)).not.toThrow();
    expect(row.payload).toMatchObject({
      type: "subscription.renewed",
      timestamp: "2026-11-20T15:05:12.345Z",
      data: {
        object: "subscription",
        id: sub.id,
        accountId,
        mode: "test",
        status: "active",
        gatewayStatus: "ACTIVE",
        gatewaySubscriptionId: sub.gatewaySubscriptionId,
        identifier: sub.identifier,
        amount: 49.9,
        amountCents: 4990,
        periodicity: { type: "MONTHS", every: 1 },
        product: { id: "clube", name: "Clube mensal" },
        startedAt: "2026-06-20T14:00:00.000Z",
        state: { lastPaidAt: "2026-11-20T15:04:58.000Z" },
        charge: { chargeNumber: 6, status: "paid", gatewayStatus: "COMPLETED", paidAt: "2026-11-20T15:04:58.000Z" },
      },
    });

    // The destination that listens to subscription.lost only gets nothing.
    const deliveries = await deliveriesOf(id);
    expect(deliveries.map((d) => [d.destinationId, d.eventType])).toEqual([[allTypes, "subscription.renewed"]]);

    const { runDestinationsOnce } = await import("../work");
    await runDestinationsOnce();
    const got = receiver.received.filter((r) => r.id === id);
    expect(got).toHaveLength(1);
    expect(got[0]!.verified).toEqual(JSON.parse(JSON.stringify(row.payload)));
  });

  it("overdue, lost and a failed renewal: each its type; lost also reaches the destination that wants only it", async () => {
    const sub = await aSubscription();
    const failed = await record(sub, {
      event: "renewal_failed",
      previous: "awaiting_payment",
      status: "awaiting_payment",
      state: { state: "awaiting_payment", dueDay: "2026-11-20", daysSinceDue: 0 },
      charge: charge({ status: "FAILED" }),
    });
    const overdue = await record(sub, {
      event: "overdue",
      previous: "awaiting_payment",
      status: "overdue",
      state: { state: "overdue", dueDay: "2026-11-20", days: 4, missedPeriods: 1 },
      charge: charge({ status: "FAILED" }),
    });
    const lost = await record(sub, {
      event: "lost",
      previous: "overdue",
      status: "lost",
      state: { state: "lost", dueDay: "2026-11-20", missedPeriods: 3, sinceDay: "2027-01-24" },
      charge: null,
    });
    await publish();

    for (const [id, type] of [
      [failed, "subscription.renewal_failed"],
      [overdue, "subscription.overdue"],
      [lost, "subscription.lost"],
    ] as const) {
      const row = await outboxRow(id);
      expect(row.type, type).toBe(type);
      expect(() => eventBodySchema(type).parse(row.payload), type).not.toThrow();
    }
    expect((await outboxRow(overdue)).payload).toMatchObject({
      data: { status: "overdue", state: { dueDate: "2026-11-20", daysOverdue: 4, missedPeriods: 1 }, charge: { status: "failed" } },
    });
    expect((await outboxRow(lost)).payload).toMatchObject({
      data: { status: "lost", state: { lostSince: "2027-01-24", missedPeriods: 3 }, charge: null },
    });

    expect((await deliveriesOf(failed)).map((d) => d.destinationId)).toEqual([allTypes]);
    expect((await deliveriesOf(overdue)).map((d) => d.destinationId)).toEqual([allTypes]);
    expect((await deliveriesOf(lost)).map((d) => d.destinationId).sort()).toEqual([allTypes, onlyLost].sort());
  });

  it("a row whose event is none of the four is skipped, without deliveries and without stopping the batch", async () => {
    const sub = await aSubscription();
    const unknown = await record(sub, { event: "paused", previous: "active", status: "active", state: { state: "active" }, charge: null });
    const malformed = await record(sub, { event: { renewed: true }, previous: null, status: "active", state: {}, charge: null });
    const after = await record(sub, {
      event: "renewed",
      previous: "awaiting_payment",
      status: "active",
      state: { state: "active", lastPaidAt: null },
      charge: charge({ status: "COMPLETED" }),
    });
    await publish();
    for (const id of [unknown, malformed]) {
      const row = await outboxRow(id);
      expect(row.state).toBe("skipped");
      expect(row.type).toBeNull();
      expect(await deliveriesOf(id)).toHaveLength(0);
    }
    expect((await outboxRow(after)).type).toBe("subscription.renewed");
  });
});
