import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import { auditLog, ledgerTransactions, gatewayNotifications } from "@/lib/db/schema";
import { testDatabases, useDatabase, type TestDatabase } from "@/lib/testing/databases";
import { startSandbox } from "@/sandbox/app";
import { createSandboxControl } from "@/sandbox/control-client";

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");

const targets = await testDatabases();
const actor = { id: "user-1", email: "operador@example.com" };
let sandbox: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dataDir: "memory://", webhookRetryMs: 50, quiet: true });
});
afterAll(async () => {
  await sandbox?.close();
});

async function createPix(identifier: string, amount = 25.5): Promise<string> {
  const response = await fetch(`${sandbox.url}/api/v1/gateway/pix/receive`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-public-key": "pk_sandbox_demo", "x-secret-key": "sk_sandbox_demo" },
    body: JSON.stringify({
      identifier,
      amount,
      client: { name: "Maria Souza", email: "maria@example.com", phone: "(11) 98888-7777", document: "529.982.247-25" },
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { transactionId: string }).transactionId;
}

describe.each(targets)("gateway lookups, producer and overview on $name", (target: TestDatabase) => {
  let accountId = "";
  let companyId = "";
  let nokycId = "";
  let badKeysId = "";

  beforeAll(async () => {
    await closeDb();
    useDatabase(target);
    const { createAccount } = await import("@/lib/accounts/queries");
    const make = async (name: string, publicKey: string, secretKey: string) =>
      (await createAccount({ name, baseUrl: sandbox.url, publicKey, secretKey, webhookToken: null, mode: "test" }, null)).id;
    accountId = await make("Demo", "pk_sandbox_demo", "sk_sandbox_demo");
    companyId = await make("Company", "pk_sandbox_company", "sk_sandbox_company");
    nokycId = await make("No KYC", "pk_sandbox_nokyc", "sk_sandbox_nokyc");
    badKeysId = await make("Bad", "pk_sandbox_demo", "sk_sandbox_not_this_one");
  });
  afterAll(async () => {
    await closeDb();
    await target.drop();
  });

  it("adds a looked-up transaction once, then refreshes at most once per 30 s and records what the gateway says", async () => {
    const { addLookedUpTransaction, lookupGatewayTransaction, refreshFromGateway } = await import("@/lib/ledger/lookup");
    const identifier = `order-${randomUUID()}`;
    const transactionId = await createPix(identifier, 61.3);

    expect(await lookupGatewayTransaction(accountId, { by: "id", value: "tx_missing" }, actor, null)).toEqual({
      ok: false,
      reason: "not_found",
    });
    const found = await lookupGatewayTransaction(accountId, { by: "identifier", value: identifier }, actor, null);
    expect(found).toMatchObject({ ok: true, ledgerId: null, record: { id: transactionId, status: "PENDING" } });

    const first = await addLookedUpTransaction(accountId, { by: "identifier", value: identifier }, actor, null);
    const again = await addLookedUpTransaction(accountId, { by: "id", value: transactionId }, actor, null);
    expect(first).toMatchObject({ ok: true, created: true });
    expect(again).toMatchObject({ ok: true, created: false });
    if (!first.ok || !again.ok) throw new Error("unreachable");
    expect(again.ledgerId).toBe(first.ledgerId);
    const db = await getDb();
    const [row] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, first.ledgerId));
    expect(row).toMatchObject({
      kind: "external",
      origin: "lookup",
      gatewayTransactionId: transactionId,
      status: "PENDING",
      lastLookupStatus: "PENDING",
      amountCents: 6130,
      paymentMethod: "PIX",
    });

    // Adding counted as a lookup: the next refresh must wait.
    const early = await refreshFromGateway(accountId, first.ledgerId, actor, null);
    expect(early).toMatchObject({ ok: false, reason: "too_soon" });
    if (early.ok || early.reason !== "too_soon") throw new Error("unreachable");
    expect(early.waitSeconds).toBeGreaterThan(25);
    expect(early.waitSeconds).toBeLessThanOrEqual(30);

    await createSandboxControl({ baseUrl: sandbox.url, publicKey: "pk_sandbox_demo", secretKey: "sk_sandbox_demo" }).event(
      transactionId,
      "pay",
    );
    await db
      .update(ledgerTransactions)
      .set({ lastLookupAt: sql`now() - interval '31 seconds'`, lastWebhookStatus: "OK" })
      .where(eq(ledgerTransactions.id, first.ledgerId));
    // Two refreshes at once: one reaches the gateway, the other is told to wait.
    const both = await Promise.all([
      refreshFromGateway(accountId, first.ledgerId, actor, null),
      refreshFromGateway(accountId, first.ledgerId, actor, null),
    ]);
    expect(both.filter((r) => r.ok)).toHaveLength(1);
    expect(both.find((r) => r.ok)).toEqual({ ok: true, status: "COMPLETED", lastWebhookStatus: "OK" });
    const [after] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, first.ledgerId));
    expect(after).toMatchObject({ status: "COMPLETED", statusSource: "lookup", lastLookupStatus: "COMPLETED", lastWebhookStatus: "OK" });
    expect(after!.paidAt).toBeInstanceOf(Date);
    expect((after!.gatewayRecord as { status: string }).status).toBe("COMPLETED");

    const { lookupsForTransaction } = await import("@/lib/audit/queries");
    const lookups = await lookupsForTransaction(accountId, first.ledgerId);
    expect(lookups.map((entry) => entry.action)).toEqual(["transactions.add_from_lookup", "transactions.lookup"]);
    expect(lookups[1]!.details).toMatchObject({ status: "COMPLETED" });

    // Another account never sees or refreshes this row.
    expect(await refreshFromGateway(companyId, first.ledgerId, actor, null)).toEqual({ ok: false, reason: "not_found" });
  });

  it("gives the 30 s cooldown back when the gateway answers 429: it declined to answer, nothing was looked up", async () => {
    const { refreshFromGateway } = await import("@/lib/ledger/lookup");
    const { resetProcessLookupLimiter } = await import("@/lib/gateway/lookup-limiter");
    const identifier = `order-${randomUUID()}`;
    const transactionId = await createPix(identifier, 12.4);
    const db = await getDb();
    const before = new Date(Date.now() - 45_000);
    const [row] = await db
      .insert(ledgerTransactions)
      .values({
        accountId,
        kind: "pix_charge",
        identifier,
        origin: "console",
        submission: "SUBMITTED",
        gatewayTransactionId: transactionId,
        status: "PENDING",
        statusSource: "creation",
        paymentMethod: "PIX",
        amountCents: 1240,
        lastLookupAt: before,
      })
      .returning({ id: ledgerTransactions.id });
    const limits = (body: unknown) =>
      fetch(`${sandbox.url}/sandbox/v1/lookups`, {
        method: body === null ? "DELETE" : "PUT",
        headers: { "content-type": "application/json", "x-public-key": "pk_sandbox_demo", "x-secret-key": "sk_sandbox_demo" },
        body: body === null ? undefined : JSON.stringify(body),
      });
    expect((await limits({ rateLimitedFraction: 1, retryAfterSeconds: 600 })).status).toBe(200);
    try {
      expect(await refreshFromGateway(accountId, row!.id, actor, null)).toMatchObject({
        ok: false,
        reason: "gateway",
        kind: "rate_limited",
      });
      const [after] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, row!.id));
      expect(after!.lastLookupAt?.getTime()).toBe(before.getTime());
      // The next click is not told to wait 30 s; the process's lookups wait for the gateway's Retry-After instead.
      const again = await refreshFromGateway(accountId, row!.id, actor, null);
      expect(again).toMatchObject({ ok: false, reason: "gateway", kind: "rate_limited" });
    } finally {
      await limits({ rateLimitedFraction: 0, retryAfterSeconds: null });
      resetProcessLookupLimiter();
    }
  });

  it("reports a refused key as an auth error, for lookups and for the producer", async () => {
    const { lookupGatewayTransaction } = await import("@/lib/ledger/lookup");
    const { getProducerProfile } = await import("@/lib/producer/profile");
    expect(await lookupGatewayTransaction(badKeysId, { by: "id", value: "tx_x" }, actor, null)).toMatchObject({
      ok: false,
      reason: "gateway",
      kind: "auth",
      status: 401,
    });
    expect(await getProducerProfile(badKeysId)).toMatchObject({ ok: false, kind: "auth", status: 401 });
  });

  it("reads the producer: CPF with KYC, company with legal representative, incomplete KYC", async () => {
    const { getProducerProfile } = await import("@/lib/producer/profile");
    const demo = await getProducerProfile(accountId);
    const company = await getProducerProfile(companyId);
    const nokyc = await getProducerProfile(nokycId);
    expect(demo).toMatchObject({ ok: true, kycComplete: true });
    expect(company).toMatchObject({ ok: true, kycComplete: true, producer: { legalRepresentative: { name: expect.any(String) } } });
    expect(nokyc).toMatchObject({ ok: true, kycComplete: false });
    if (!nokyc.ok) throw new Error("unreachable");
    expect(nokyc.producer.document).toBeUndefined();
  });

  it("counts only what the gateway confirmed, per currency and São Paulo period; notifications alone and subscription definitions are not money", async () => {
    const { overviewFigures, dailyVolumeByMethod, latestActivity } = await import("@/lib/overview/queries");
    const db = await getDb();
    const now = Date.now();
    const day = 86_400_000;
    const base = { accountId: nokycId, kind: "external" as const, origin: "webhook" as const };
    const console = { accountId: nokycId, origin: "console" as const };
    const inserted = await db
      .insert(ledgerTransactions)
      .values([
        {
          ...base,
          identifier: "a",
          amountCents: 1000,
          paymentMethod: "PIX",
          status: "COMPLETED",
          createdAt: new Date(now - 60_000),
          paidAt: new Date(now - 30_000),
        },
        // Named like a paid status, but no confirmed payment time: not counted as paid.
        { ...base, identifier: "b", amountCents: 2000, paymentMethod: "PIX", status: "PAID", createdAt: new Date(now - 3 * day) },
        // Paid ten days ago, refunded (confirmed) two days ago.
        {
          ...base,
          identifier: "c",
          amountCents: 4000,
          paymentMethod: "CREDIT_CARD",
          status: "REFUNDED",
          statusAt: new Date(now - 2 * day),
          createdAt: new Date(now - 10 * day),
          paidAt: new Date(now - 10 * day),
        },
        { ...base, identifier: "d", amountCents: 8000, paymentMethod: "BOLETO", status: "X", createdAt: new Date(now - 40 * day) },
        // A forged TRANSACTION_PAID is waiting for confirmation: the status did not move, nothing counts.
        {
          ...base,
          identifier: "e",
          amountCents: 300,
          paymentMethod: "PIX",
          status: "PENDING",
          pendingStatus: "COMPLETED",
          createdAt: new Date(now - 2 * day),
        },
        // Another currency is never summed as R$.
        {
          ...base,
          identifier: "f",
          amountCents: 5000,
          currency: "USD",
          paymentMethod: "CRYPTO",
          status: "COMPLETED",
          createdAt: new Date(now - 60_000),
          paidAt: new Date(now - 60_000),
        },
        {
          ...base,
          identifier: "g",
          amountCents: 700,
          paymentMethod: "PIX",
          status: "charged-back",
          statusAt: new Date(now - 60_000),
          createdAt: new Date(now - 5 * day),
          paidAt: new Date(now - 5 * day),
        },
        // The console's own submissions: accepted ones are counted (not summed); rejected ones and subscription definitions are not.
        {
          ...console,
          kind: "pix_charge" as const,
          identifier: "h",
          amountCents: 900,
          submission: "SUBMITTED" as const,
          status: "OK",
          createdAt: new Date(now - 60_000),
        },
        {
          ...console,
          kind: "pix_charge" as const,
          identifier: "i",
          amountCents: 900,
          submission: "REJECTED" as const,
          createdAt: new Date(now - 60_000),
        },
        {
          ...console,
          kind: "pix_subscription" as const,
          identifier: "j",
          amountCents: 9900,
          submission: "SUBMITTED" as const,
          status: "ACTIVE",
          createdAt: new Date(now - 60_000),
          paidAt: new Date(now - 60_000),
        },
      ])
      .returning({ id: ledgerTransactions.id, identifier: ledgerTransactions.identifier });
    const ledgerE = inserted.find((row) => row.identifier === "e")!.id;
    await db.insert(gatewayNotifications).values([
      {
        accountId: nokycId,
        dedupeKey: "p1",
        kind: "payment",
        event: "TRANSACTION_PAID",
        gatewayTransactionId: "gw_e",
        status: "COMPLETED",
        amountCents: 300,
        ledgerId: ledgerE,
        payload: {},
        firstReceivedAt: new Date(now - 60_000),
      },
      {
        accountId: nokycId,
        dedupeKey: "cb",
        kind: "payment",
        event: "TRANSACTION_CHARGED_BACK",
        gatewayTransactionId: "gw_z",
        status: "CHARGED_BACK",
        amountCents: 700,
        payload: {},
        firstReceivedAt: new Date(now - 60_000),
      },
    ]);
    const figures = await overviewFigures(nokycId);
    const brl = (period: keyof typeof figures) => figures[period].byCurrency.find((c) => c.currency === "BRL");
    const usd = (period: keyof typeof figures) => figures[period].byCurrency.find((c) => c.currency === "USD");
    expect(figures.today.byCurrency.map((c) => c.currency)).toEqual(["BRL", "USD"]);
    expect(brl("today")).toMatchObject({ paidCount: 1, paidCents: 1000, refundedCount: 0, chargedBackCount: 1, chargedBackCents: 700 });
    expect(usd("today")).toMatchObject({ paidCount: 1, paidCents: 5000 });
    expect(figures.today.acceptedCount).toBe(1);
    expect(brl("week")).toMatchObject({ paidCount: 2, paidCents: 1700, refundedCount: 1, refundedCents: 4000, chargedBackCount: 1 });
    expect(brl("month")).toMatchObject({ paidCount: 3, paidCents: 5700 });

    const volume = await dailyVolumeByMethod(nokycId);
    expect(volume.days).toHaveLength(30);
    expect(volume.rows.reduce((sum, row) => sum + row.cents, 0)).toBe(5700);
    expect(new Set(volume.rows.map((row) => row.method))).toEqual(new Set(["PIX", "CREDIT_CARD"]));
    expect((await latestActivity(nokycId, 2)).length).toBe(2);
  });

  it("lists the audit log newest first with filters and keyset pages", async () => {
    const { listAuditEntries } = await import("@/lib/audit/queries");
    const db = await getDb();
    const tag = randomUUID().slice(0, 6);
    await db.insert(auditLog).values(
      Array.from({ length: 7 }, (_, i) => ({
        userEmail: `${tag}-${i % 2}@example.com`,
        accountId: accountId,
        action: i % 2 ? `lookup.search` : `transactions.${tag}`,
        details: { i },
      })),
    );
    const first = await listAuditEntries({ action: `transactions.${tag}` }, { limit: 3 });
    expect(first.rows.map((row) => (row.details as { i: number }).i)).toEqual([6, 4, 2]);
    expect(first.rows[0]!.accountName).toBe("Demo");
    const second = await listAuditEntries({ action: `transactions.${tag}` }, { limit: 3, cursor: first.nextCursor });
    expect(second.rows.map((row) => (row.details as { i: number }).i)).toEqual([0]);
    expect(second.nextCursor).toBeNull();
    expect((await listAuditEntries({ email: `${tag}-1` })).rows).toHaveLength(3);
    expect((await listAuditEntries({ email: tag, accountId: companyId })).rows).toHaveLength(0);
    expect((await listAuditEntries({ action: "transactions.%" })).rows).toHaveLength(0);
  });
});
