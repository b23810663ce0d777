import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import { ledgerTransactions, subscriptionCharges, subscriptions } from "@/lib/db/schema";
import { testDatabases, useDatabase, type TestDatabase } from "@/lib/testing/databases";
import { startLookupGateway } from "@/lib/testing/lookup-gateway";

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");
// The tests drive the applier and the reconciler themselves, step by step.
process.env.WEBHOOK_APPLIER = "off";
process.env.RECONCILE_DELAYS_MS = "0";
const gateway = await startLookupGateway();
afterAll(() => gateway.close());

const TOKEN = "wht_subs_test_5e6f7a8b";
const targets = await testDatabases();

type SubscriptionObject = Record<string, unknown>;

/** A renewal's payment notification as the sandbox sends it: the transaction `<subscription>-<n>` and the `subscription` object. */
function renewal(options: {
  subscription: { id: string; identifier: string; status?: string; createdAt?: string; extra?: SubscriptionObject };
  n: number;
  txId?: string;
  createdAt: string;
  paid?: string | null;
  amount?: number;
  method?: string;
  client?: { name: string; email: string; cpf: string };
  product?: string;
}) {
  const paid = options.paid === undefined ? options.createdAt : options.paid;
  const object: SubscriptionObject = {
    id: options.subscription.id,
    identifier: options.subscription.identifier,
    status: options.subscription.status ?? "ACTIVE",
    paymentMethod: options.method ?? "PIX",
    amount: options.amount ?? 49.9,
    periodicityType: "MONTHS",
    periodicity: 1,
    chargeNumber: options.n,
    nextChargeAt: null,
    createdAt: options.subscription.createdAt ?? "2026-09-10T15:00:00.000Z",
    ...options.subscription.extra,
  };
  return {
    event: paid ? "TRANSACTION_PAID" : "TRANSACTION_CREATED",
    token: TOKEN,
    offerCode: null,
    checkoutUrl: "",
    client: {
      id: "cli_1",
      name: options.client?.name ?? "Maria Souza",
      email: options.client?.email ?? "maria@example.com",
      phone: "(11) 98888-7777",
      cpf: options.client?.cpf ?? "529.982.247-25",
      cnpj: null,
    },
    transaction: {
      id: options.txId ?? `tx_${randomUUID()}`,
      identifier: `${options.subscription.identifier}-${options.n}`,
      status: paid ? "COMPLETED" : "PENDING",
      paymentMethod: options.method ?? "PIX",
      amount: options.amount ?? 49.9,
      commissionAmount: 48.0,
      currency: "BRL",
      createdAt: options.createdAt,
      ...(paid ? { payedAt: paid } : {}),
    },
    subscription: object,
    orderItems: [
      {
        id: "item_1",
        price: options.amount ?? 49.9,
        product: { id: "prod_1", name: options.product ?? "Clube do livro", externalId: null },
      },
    ],
    trackProps: { isUpsell: false, ip: null, user_agent: null },
  };
}

describe.each(targets)("subscriptions learned on $name", (target: TestDatabase) => {
  let accountId: string;

  beforeAll(async () => {
    await closeDb();
    useDatabase(target);
    const { createAccount } = await import("@/lib/accounts/queries");
    accountId = (
      await createAccount(
        { name: "Clube", baseUrl: gateway.baseUrl, publicKey: "pk", secretKey: "sk_1234567890", webhookToken: TOKEN, mode: "test" },
        null,
      )
    ).id;
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
    expect(answer.status).toBe(200);
    await applyPendingNotifications();
  };
  /** The gateway's lookup agrees with what was notified; the background pass confirms it into the ledger. */
  const gatewayConfirms = async (payload: ReturnType<typeof renewal>) => {
    const t = payload.transaction;
    gateway.records.set(t.id, {
      id: t.id,
      clientIdentifier: t.identifier,
      status: t.status,
      amount: t.amount,
      createdAt: t.createdAt,
      payedAt: "payedAt" in t ? (t.payedAt as string) : null,
    });
    const { runBackgroundWorkOnce } = await import("@/lib/background/serverless");
    await runBackgroundWorkOnce();
  };
  const rowsOf = async (identifier: string) => {
    const db = await getDb();
    return db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.accountId, accountId), eq(subscriptions.identifier, identifier)));
  };
  const linksOf = async (subscriptionId: string) => {
    const db = await getDb();
    return db.select().from(subscriptionCharges).where(eq(subscriptionCharges.subscriptionId, subscriptionId));
  };

  it("learns a subscription from a renewal's notification alone, keeps the object as received, and links the charge once confirmed", async () => {
    const { getSubscription } = await import("@/lib/subscriptions/queries");
    const sub = {
      id: `sub_${randomUUID()}`,
      identifier: `assin-${randomUUID().slice(0, 8)}`,
      extra: { unexpected: { nested: [1, "two"] } },
    };
    const payload = renewal({ subscription: sub, n: 3, createdAt: "2026-11-10T15:00:00.000Z" });
    await receive(payload);

    const [row] = await rowsOf(sub.identifier);
    expect(row).toMatchObject({
      source: "notification",
      gatewaySubscriptionId: sub.id,
      gatewayStatus: "ACTIVE",
      ledgerId: null,
      paymentMethod: "PIX",
      amountCents: 4990,
      periodicityType: "MONTHS",
      periodicity: 1,
      clientName: "Maria Souza",
      productName: "Clube do livro",
    });
    expect(row.startedAt?.toISOString()).toBe("2026-09-10T15:00:00.000Z");
    expect(row.gatewayRecord).toEqual(payload.subscription);
    expect(await linksOf(row.id)).toMatchObject([{ gatewayTransactionId: payload.transaction.id, chargeNumber: 3 }]);

    // Not confirmed yet: the charge is heard of, not counted.
    const before = await getSubscription(accountId, row.id, new Date("2026-11-10T16:00:00Z"));
    expect(before).toMatchObject({ confirming: 1, paid: { count: 0, totalCents: 0 }, state: { state: "unknown" } });

    await gatewayConfirms(payload);
    const after = await getSubscription(accountId, row.id, new Date("2026-11-10T16:00:00Z"));
    expect(after).toMatchObject({ confirming: 0, paid: { count: 1, totalCents: 4990 }, state: { state: "active" } });
    expect(after?.charges[0]).toMatchObject({ chargeNumber: 3, identifier: `${sub.identifier}-3`, status: "COMPLETED" });
    expect(after?.lastPaidAt?.toISOString()).toBe("2026-11-10T15:00:00.000Z");
  });

  it("takes a renewal's notification before its subscription's first, and the console's creation after both", async () => {
    const { getSubscription } = await import("@/lib/subscriptions/queries");
    const { recordCreatedSubscription } = await import("@/lib/subscriptions/learn");
    const sub = { id: `sub_${randomUUID()}`, identifier: `assin-${randomUUID().slice(0, 8)}` };
    // Renewal 2 (unpaid, its object newer) arrives first; then charge 1, paid a month before.
    const second = renewal({ subscription: { ...sub, status: "PAST_DUE" }, n: 2, createdAt: "2026-10-10T15:00:00.000Z", paid: null });
    const first = renewal({ subscription: sub, n: 1, createdAt: "2026-09-10T15:00:00.000Z" });
    await receive(second);
    await receive(first);
    const rows = await rowsOf(sub.identifier);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    // The latest object by the notifications' own time, as it came: renewal 2's.
    expect(row.gatewayRecord).toEqual(second.subscription);
    expect(row.gatewayStatus).toBe("PAST_DUE");
    expect((await linksOf(row.id)).map((link) => link.chargeNumber).sort()).toEqual([1, 2]);

    await gatewayConfirms(first);
    await gatewayConfirms(second);
    const view = await getSubscription(accountId, row.id, new Date("2026-10-20T12:00:00Z"));
    expect(view?.charges.map((charge) => [charge.chargeNumber, charge.paidAt !== null])).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(view?.state).toEqual({ state: "overdue", dueDay: "2026-10-10", days: 10, missedPeriods: 1 });

    // The console's own creation row arrives last (its answer was slow): same subscription, what the console sent wins.
    const db = await getDb();
    const [creation] = await db
      .insert(ledgerTransactions)
      .values({
        accountId,
        kind: "pix_subscription",
        origin: "console",
        submission: "SUBMITTED",
        identifier: sub.identifier,
        status: "ACTIVE",
        statusSource: "creation",
        paymentMethod: "PIX",
        amountCents: 5990,
        clientName: "Maria S. Souza",
        request: {
          identifier: sub.identifier,
          amount: 59.9,
          product: { id: "clube", name: "Clube do livro premium", price: 59.9 },
          subscription: { periodicityType: "MONTHS", periodicity: 1 },
        },
        response: { subscriptionId: sub.id, status: "ACTIVE", transactionId: first.transaction.id },
        createdAt: new Date("2026-09-10T15:00:00Z"),
      })
      .returning();
    await recordCreatedSubscription(creation, first.transaction.id);
    const [merged] = await rowsOf(sub.identifier);
    expect(merged).toMatchObject({
      id: row.id,
      source: "notification",
      ledgerId: creation.id,
      amountCents: 5990,
      clientName: "Maria S. Souza",
      productId: "clube",
      productName: "Clube do livro premium",
    });
    expect(merged.gatewayRecord).toEqual(second.subscription);
    expect(await linksOf(row.id)).toHaveLength(2);
  });

  it("records a subscription the console created, and attaches its first charge's notification to it", async () => {
    const { getSubscription } = await import("@/lib/subscriptions/queries");
    const { recordCreatedSubscription } = await import("@/lib/subscriptions/learn");
    const identifier = `assin-${randomUUID().slice(0, 8)}`;
    const db = await getDb();
    const [creation] = await db
      .insert(ledgerTransactions)
      .values({
        accountId,
        kind: "card_subscription",
        origin: "console",
        submission: "SUBMITTED",
        identifier,
        status: "ACTIVE",
        statusSource: "creation",
        paymentMethod: "CREDIT_CARD",
        amountCents: 9700,
        clientName: "João Lima",
        clientEmail: "joao@example.com",
        request: {
          identifier,
          amount: 97,
          product: { id: "m", name: "Mentoria", price: 97 },
          subscription: { periodicityType: "WEEKS", periodicity: 2 },
        },
        response: { status: "ACTIVE" },
      })
      .returning();
    await recordCreatedSubscription(creation, null);
    const [row] = await rowsOf(identifier);
    expect(row).toMatchObject({
      source: "console",
      gatewaySubscriptionId: null,
      periodicityType: "WEEKS",
      periodicity: 2,
      gatewayRecord: null,
    });
    expect((await getSubscription(accountId, row.id))?.state).toEqual({ state: "unknown" });

    // A rejected creation is no subscription.
    const [rejected] = await db
      .insert(ledgerTransactions)
      .values({ accountId, kind: "pix_subscription", origin: "console", submission: "REJECTED", identifier: `rej-${identifier}` })
      .returning();
    await recordCreatedSubscription(rejected, null);
    expect(await rowsOf(`rej-${identifier}`)).toHaveLength(0);

    const first = renewal({
      subscription: { id: `sub_${randomUUID()}`, identifier },
      n: 1,
      createdAt: "2026-11-01T15:00:00.000Z",
      method: "CREDIT_CARD",
      amount: 97,
    });
    await receive(first);
    const rows = await rowsOf(identifier);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: row.id,
      gatewaySubscriptionId: first.subscription.id,
      gatewayStatus: "ACTIVE",
      periodicityType: "WEEKS",
    });
  });

  it("reads odd subscription objects defensively: numbers for ids and status, no keys, not an object", async () => {
    const identifier = `odd-${randomUUID().slice(0, 8)}`;
    const odd = renewal({ subscription: { id: "x", identifier }, n: 1, createdAt: "2026-11-01T15:00:00.000Z" });
    const numericId = Math.floor(Math.random() * 1e9);
    const object = { id: numericId, status: 7, amount: "abc", periodicityType: "FORTNIGHTS", periodicity: 1, chargeNumber: "2" };
    await receive({ ...odd, subscription: object });
    const db = await getDb();
    const [row] = await db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.accountId, accountId), eq(subscriptions.gatewaySubscriptionId, String(numericId))));
    expect(row).toMatchObject({ identifier: null, gatewayStatus: "7", amountCents: null, periodicityType: null, periodicity: null });
    expect(row.gatewayRecord).toEqual(object);
    expect(await linksOf(row.id)).toMatchObject([{ chargeNumber: 2 }]);

    // Nothing to key it by, or not an object: nothing learned, and the notification is applied as ever.
    for (const subscription of [{ status: "ACTIVE" }, "sub_1", null]) {
      const payload = {
        ...renewal({ subscription: { id: "y", identifier: `none-${randomUUID()}` }, n: 1, createdAt: "2026-11-01T15:00:00.000Z" }),
        subscription,
      };
      await receive(payload);
      const links = await db.select().from(subscriptionCharges).where(eq(subscriptionCharges.gatewayTransactionId, payload.transaction.id));
      expect(links).toEqual([]);
    }
  });

  it("lists with filters by state, method, product and customer", async () => {
    const { listSubscriptions, settleSummaries } = await import("@/lib/subscriptions/queries");
    const { setSubscriptionRules } = await import("@/lib/subscriptions/queries");
    const { createAccount } = await import("@/lib/accounts/queries");
    // A fresh account, so only this test's subscriptions are listed.
    const other = (
      await createAccount(
        { name: "Lista", baseUrl: gateway.baseUrl, publicKey: "pk3", secretKey: "sk_1234567890", webhookToken: TOKEN, mode: "test" },
        null,
      )
    ).id;
    const db = await getDb();
    const make = async (options: { name: string; method: string; product: string; paid: boolean; started: string }) => {
      const identifier = `lst-${randomUUID().slice(0, 8)}`;
      const [subscription] = await db
        .insert(subscriptions)
        .values({
          accountId: other,
          identifier,
          source: "notification",
          paymentMethod: options.method,
          amountCents: 1000,
          periodicityType: "MONTHS",
          periodicity: 1,
          clientName: options.name,
          clientEmail: `${options.name.split(" ")[0].toLowerCase()}@example.com`,
          productName: options.product,
          startedAt: new Date(options.started),
        })
        .returning();
      const gatewayTransactionId = `tx_${randomUUID()}`;
      await db.insert(ledgerTransactions).values({
        accountId: other,
        kind: "external",
        origin: "webhook",
        identifier: `${identifier}-1`,
        gatewayTransactionId,
        status: options.paid ? "COMPLETED" : "PENDING",
        paidAt: options.paid ? new Date(options.started) : null,
        amountCents: 1000,
        createdAt: new Date(options.started),
      });
      await db
        .insert(subscriptionCharges)
        .values({ accountId: other, gatewayTransactionId, subscriptionId: subscription.id, chargeNumber: 1 });
      return subscription.id;
    };
    const ana = await make({ name: "Ana Prado", method: "PIX", product: "Clube", paid: true, started: "2026-11-01T15:00:00Z" });
    const bruno = await make({ name: "Bruno Reis", method: "CREDIT_CARD", product: "Clube", paid: false, started: "2026-11-02T15:00:00Z" });
    const carla = await make({ name: "Carla Dias", method: "PIX", product: "Mentoria", paid: false, started: "2026-11-20T15:00:00Z" });
    const now = new Date("2026-11-21T12:00:00Z");
    // The state filter reads the summaries: a page brings them up to date first, as here.
    const ids = async (filters: Parameters<typeof listSubscriptions>[1]) => {
      expect(await settleSummaries(other)).toBe(0);
      return (await listSubscriptions(other, filters, { now })).map((view) => view.subscription.id);
    };

    expect(await ids({})).toEqual([carla, bruno, ana]);
    expect(await ids({ method: "PIX" })).toEqual([carla, ana]);
    expect(await ids({ product: "Clube" })).toEqual([bruno, ana]);
    expect(await ids({ customer: "bruno@" })).toEqual([bruno]);
    expect(await ids({ customer: "dias" })).toEqual([carla]);
    expect(await ids({ customer: "%" })).toEqual([]);
    expect(await ids({ state: "active" })).toEqual([ana]);
    expect(await ids({ state: "awaiting_payment" })).toEqual([carla]);
    expect(await ids({ state: "overdue" })).toEqual([bruno]);
    expect(await ids({ state: "overdue", method: "PIX" })).toEqual([]);
    expect((await listSubscriptions(other, {}, { now, limit: 2 })).length).toBe(2);
    // The account's own grace period: 30 days, and Bruno is only awaiting payment.
    await setSubscriptionRules(other, { graceDays: 30, lostAfterPeriods: 3 });
    expect(await ids({ state: "awaiting_payment" })).toEqual([carla, bruno]);
    // Another account sees none of them.
    expect(await listSubscriptions(accountId, { customer: "Ana Prado" }, { now })).toEqual([]);
  });
});
