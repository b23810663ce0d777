import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import { ledgerTransactions, gatewayNotifications, webhookRejections } from "@/lib/db/schema";
import { testDatabases, useDatabase, type TestDatabase } from "@/lib/testing/databases";
import type { FeedNotification } from "@/lib/feed/types";
import { startLookupGateway } from "@/lib/testing/lookup-gateway";

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");
// The tests drive the applier and the reconciler themselves, step by step.
process.env.WEBHOOK_APPLIER = "off";
process.env.RECONCILE_DELAYS_MS = "0";
const gateway = await startLookupGateway();
afterAll(() => gateway.close());

const TOKEN = "wht_test_4c1d9e8f7a6b";
const targets = await testDatabases();

function paymentPayload(overrides: {
  event?: string;
  token?: string | null;
  id?: string;
  identifier?: string | null;
  status?: string;
  createdAt?: string;
  payedAt?: string | null;
  amount?: number;
  method?: string;
}) {
  return {
    event: overrides.event ?? "TRANSACTION_PAID",
    ...(overrides.token === null ? {} : { token: overrides.token ?? TOKEN }),
    offerCode: null,
    checkoutUrl: "",
    client: { id: "cli_1", name: "Maria Souza", email: "maria@example.com", phone: "(11) 98888-7777", cpf: "529.982.247-25", cnpj: null },
    transaction: {
      id: overrides.id ?? `tx_${randomUUID()}`,
      identifier: overrides.identifier === undefined ? `ord-${randomUUID().slice(0, 8)}` : overrides.identifier,
      status: overrides.status ?? "COMPLETED",
      paymentMethod: overrides.method ?? "PIX",
      amount: overrides.amount ?? 123.45,
      commissionAmount: 122.23,
      currency: "BRL",
      createdAt: overrides.createdAt ?? "2026-11-20T12:00:00.000Z",
      payedAt: overrides.payedAt === undefined ? "2026-11-20T12:05:00.000Z" : overrides.payedAt,
    },
    trackProps: { isUpsell: false, ip: null, user_agent: null },
  };
}

describe.each(targets)("webhook receiver on $name", (target: TestDatabase) => {
  let accountId: string;
  let tokenlessAccountId: string;

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
    tokenlessAccountId = (
      await createAccount(
        { name: "Sem token", baseUrl: "https://gw.example", publicKey: "pk2", secretKey: "sk_1234567890", mode: "test" },
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

  /** Delivers like the gateway does, then lets the applier turn it into ledger changes. */
  const receive = async (payload: unknown, id = accountId, sourceIp = "203.0.113.7") => {
    const { receiveNotification } = await import("@/lib/notifications/ingest");
    const { applyPendingNotifications } = await import("@/lib/notifications/applier");
    const answer = await receiveNotification({
      accountId: id,
      body: typeof payload === "string" ? payload : JSON.stringify(payload),
      sourceIp,
    });
    await applyPendingNotifications();
    return answer;
  };

  /** The background pass: parked notifications are confirmed (or not) by the gateway's lookup. */
  const confirm = async () => {
    const { runBackgroundWorkOnce } = await import("@/lib/background/serverless");
    await runBackgroundWorkOnce();
  };

  const gatewaySays = (id: string, clientIdentifier: string, status: string, payedAt: string | null = "2026-11-20T12:05:00.000Z") =>
    gateway.records.set(id, { id, clientIdentifier, status, payedAt, amount: 123.45 });

  async function eventsOf(gatewayId: string) {
    const db = await getDb();
    return db.select().from(gatewayNotifications).where(eq(gatewayNotifications.gatewayTransactionId, gatewayId));
  }

  async function ledgerOf(gatewayId: string) {
    const db = await getDb();
    return db
      .select()
      .from(ledgerTransactions)
      .where(and(eq(ledgerTransactions.accountId, accountId), eq(ledgerTransactions.gatewayTransactionId, gatewayId)));
  }

  /** A charge the console created, as its creation answer left it (each test adds what it needs). */
  async function consoleCharge(values: Omit<typeof ledgerTransactions.$inferInsert, "accountId" | "kind" | "origin">) {
    const db = await getDb();
    const [row] = await db
      .insert(ledgerTransactions)
      .values({
        accountId,
        kind: "pix_charge",
        origin: "console",
        submission: "SUBMITTED",
        status: "OK",
        statusSource: "creation",
        ...values,
      })
      .returning();
    return row;
  }

  it("stores a payment notification with its token redacted; the ledger row of an unknown transaction waits for the gateway", async () => {
    const payload = paymentPayload({ identifier: "checkout-abc-1" });
    const answer = await receive(payload);
    expect(answer.status).toBe(200);
    const [event] = await eventsOf(payload.transaction.id);
    expect(event.event).toBe("TRANSACTION_PAID");
    expect(event.deliveries).toBe(1);
    expect(event.sourceIp).toBe("203.0.113.7");
    expect(JSON.stringify(event.payload)).not.toContain(TOKEN);
    expect((event.payload as { token: string }).token).toBe("[redacted]");

    // Heard of for the first time (the console did not create it): no ledger row until the gateway confirms it.
    expect(await ledgerOf(payload.transaction.id)).toHaveLength(0);
    expect((await eventsOf(payload.transaction.id))[0]).toMatchObject({ confirmation: "confirming", ledgerId: null });

    gatewaySays(payload.transaction.id, "checkout-abc-1", "COMPLETED");
    await confirm();
    const [row] = await ledgerOf(payload.transaction.id);
    expect(row).toMatchObject({
      kind: "external",
      origin: "webhook",
      identifier: "checkout-abc-1",
      status: "COMPLETED",
      statusSource: "lookup",
      pendingStatus: null,
      lastWebhookStatus: "COMPLETED",
      paymentMethod: "PIX",
      amountCents: 12345,
      feeCents: 122,
      clientName: "Maria Souza",
      clientEmail: "maria@example.com",
      clientDocument: "529.982.247-25",
    });
    expect(row.paidAt?.toISOString()).toBe("2026-11-20T12:05:00.000Z");
    const [confirmed] = await eventsOf(payload.transaction.id);
    expect(confirmed).toMatchObject({ confirmation: "confirmed", ledgerId: row.id });
    expect(JSON.stringify(row.gatewayRecord)).not.toContain(TOKEN);
  });

  it("takes the identifier of a confirmed transaction from the gateway's record when the notification has none", async () => {
    const payload = paymentPayload({ identifier: null });
    expect((await receive(payload)).status).toBe(200);
    gatewaySays(payload.transaction.id, "from-the-gateway-1", "COMPLETED");
    await confirm();
    const [row] = await ledgerOf(payload.transaction.id);
    expect(row.identifier).toBe("from-the-gateway-1");
  });

  it("counts ten identical concurrent deliveries as one event received ten times", async () => {
    const payload = paymentPayload({});
    const answers = await Promise.all(Array.from({ length: 10 }, () => receive(payload)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const events = await eventsOf(payload.transaction.id);
    expect(events).toHaveLength(1);
    expect(events[0].deliveries).toBe(10);
    expect(events[0].lastReceivedAt.getTime()).toBeGreaterThanOrEqual(events[0].firstReceivedAt.getTime());
    // A transaction the console did not create and the gateway has not confirmed: no ledger row.
    expect(await ledgerOf(payload.transaction.id)).toHaveLength(0);
  });

  it("stores a burst of mixed deliveries grouped together without losing or duplicating any", async () => {
    const txs = Array.from({ length: 20 }, () => ({ id: `tx_${randomUUID()}`, identifier: `burst-${randomUUID().slice(0, 8)}` }));
    const created = txs.map((t) => paymentPayload({ ...t, event: "TRANSACTION_CREATED", status: "OK", payedAt: null }));
    const paid = txs.map((t) => paymentPayload({ ...t }));
    const deliveries = [...paid, ...created, ...paid.slice(0, 10), ...created.slice(0, 10)];
    const answers = await Promise.all(deliveries.map((p) => receive(p)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    for (const t of txs) gatewaySays(t.id, t.identifier, "COMPLETED");
    await confirm();
    for (const [i, t] of txs.entries()) {
      const events = await eventsOf(t.id);
      expect(events.map((e) => e.event).sort()).toEqual(["TRANSACTION_CREATED", "TRANSACTION_PAID"]);
      expect(events.reduce((sum, e) => sum + e.deliveries, 0)).toBe(i < 10 ? 4 : 2);
      const rows = await ledgerOf(t.id);
      expect(rows).toHaveLength(1);
      // Paid (confirmed by the gateway) outranks the creation notice whatever order they were stored in.
      expect(rows[0].status).toBe("COMPLETED");
    }
  });

  it("treats a retry with other volatile fields (client, trackProps) as the same notification", async () => {
    const payload = paymentPayload({});
    await receive(payload);
    await receive({ ...payload, trackProps: { isUpsell: true, ip: "1.2.3.4" }, client: { ...payload.client, phone: "x" } });
    const events = await eventsOf(payload.transaction.id);
    expect(events).toHaveLength(1);
    expect(events[0].deliveries).toBe(2);
  });

  it("creates one ledger row when different notifications of a new transaction arrive together", async () => {
    const id = `tx_${randomUUID()}`;
    const identifier = `checkout-${randomUUID().slice(0, 6)}-1`;
    await Promise.all([
      receive(paymentPayload({ id, identifier, event: "TRANSACTION_CREATED", status: "OK", payedAt: null })),
      receive(paymentPayload({ id, identifier })),
    ]);
    expect(await eventsOf(id)).toHaveLength(2);
    gatewaySays(id, identifier, "COMPLETED");
    await confirm();
    const rows = await ledgerOf(id);
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe("COMPLETED");
  });

  it("refuses a wrong or missing token with 401 and stores nothing but a rejection entry", async () => {
    const { recentRejections } = await rejectionsHelper();
    const wrong = paymentPayload({ token: "wht_wrong_token_value" });
    expect((await receive(wrong, accountId, "198.51.100.9")).status).toBe(401);
    const missing = paymentPayload({ token: null });
    expect((await receive(missing, accountId, "198.51.100.10")).status).toBe(401);
    expect(await eventsOf(wrong.transaction.id)).toHaveLength(0);
    expect(await eventsOf(missing.transaction.id)).toHaveLength(0);
    expect(await ledgerOf(wrong.transaction.id)).toHaveLength(0);
    const rejections = await recentRejections(accountId);
    expect(rejections.find((r) => r.sourceIp === "198.51.100.9")?.reason).toBe("bad_token");
    expect(rejections.find((r) => r.sourceIp === "198.51.100.10")?.reason).toBe("missing_token");
    expect(JSON.stringify(rejections)).not.toContain("wht_wrong_token_value");
  });

  it("refuses every payment notification for an account without a webhook token", async () => {
    const payload = paymentPayload({ token: "anything" });
    const answer = await receive(payload, tokenlessAccountId);
    expect(answer.status).toBe(401);
    const { recentRejections } = await rejectionsHelper();
    expect((await recentRejections(tokenlessAccountId))[0].reason).toBe("no_token_configured");
  });

  it("answers 404 for an unknown account and 400 for a body that is not a JSON object", async () => {
    expect((await receive(paymentPayload({}), "no-such-account")).status).toBe(404);
    expect((await receive("{not json")).status).toBe(400);
    expect((await receive("[1,2]")).status).toBe(400);
  });

  it("updates the console's own ledger row by identifier and fills the gateway id", async () => {
    const db = await getDb();
    const identifier = `pix-${randomUUID().slice(0, 8)}`;
    const own = await consoleCharge({
      identifier,
      amountCents: 5000,
    });
    const payload = paymentPayload({ identifier, amount: 50 });
    expect((await receive(payload)).status).toBe(200);
    let [row] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, own.id));
    expect(row).toMatchObject({
      status: "OK",
      pendingStatus: "COMPLETED",
      lastWebhookStatus: "COMPLETED",
      gatewayTransactionId: payload.transaction.id,
      kind: "pix_charge",
      origin: "console",
    });
    expect(row.paidAt).toBeNull();
    gatewaySays(payload.transaction.id, identifier, "COMPLETED");
    await confirm();
    [row] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, own.id));
    expect(row).toMatchObject({ status: "COMPLETED", statusSource: "lookup", pendingStatus: null });
    expect(row.paidAt).not.toBeNull();
    expect(row.lastWebhookAt).not.toBeNull();
  });

  it("parks a paid notification without touching an indexed ledger column (an in-place update); the confirmation moves updatedAt", async () => {
    const db = await getDb();
    const identifier = `hot-${randomUUID().slice(0, 8)}`;
    const gatewayId = `tx_${randomUUID()}`;
    const createdAt = new Date("2026-11-20T11:59:00.000Z");
    // A console charge as its creation answer left it: every fact the notification carries is already known.
    const own = await consoleCharge({
      identifier,
      gatewayTransactionId: gatewayId,
      statusAt: createdAt,
      paymentMethod: "PIX",
      amountCents: 12345,
      feeCents: 122,
      clientName: "Maria Souza",
      clientEmail: "maria@example.com",
      clientDocument: "529.982.247-25",
      createdAt,
      updatedAt: createdAt,
    });
    expect((await receive(paymentPayload({ id: gatewayId, identifier }))).status).toBe(200);
    const [parked] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, own.id));
    expect(parked).toMatchObject({ status: "OK", pendingStatus: "COMPLETED", lastWebhookStatus: "COMPLETED" });
    expect(parked.updatedAt.toISOString()).toBe(createdAt.toISOString());

    const { getTableColumns } = await import("drizzle-orm");
    const columns = getTableColumns(ledgerTransactions);
    const changed = Object.entries(columns)
      .filter(([key]) => JSON.stringify(own[key as keyof typeof own]) !== JSON.stringify(parked[key as keyof typeof parked]))
      .map(([, column]) => column.name);
    expect(changed).toEqual(expect.arrayContaining(["pending_status", "pending_status_at", "last_webhook_status", "last_webhook_at"]));
    const indexes = (
      await db.execute<{ definition: string }>(
        sql`select pg_get_indexdef(indexrelid) as definition from pg_index where indrelid = 'ledger_transactions'::regclass`,
      )
    ).rows.map((row) => row.definition);
    expect(indexes.length).toBeGreaterThan(5);
    for (const column of changed)
      expect(
        indexes.filter((definition) => new RegExp(`\\b${column}\\b`).test(definition)),
        column,
      ).toEqual([]);
    const [{ options }] = (
      await db.execute<{ options: string[] | null }>(
        sql`select reloptions as options from pg_class where oid = 'ledger_transactions'::regclass`,
      )
    ).rows;
    expect(options).toContain("fillfactor=60");

    gatewaySays(gatewayId, identifier, "COMPLETED");
    await confirm();
    const [confirmed] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, own.id));
    expect(confirmed).toMatchObject({ status: "COMPLETED", pendingStatus: null });
    expect(confirmed.updatedAt.getTime()).toBeGreaterThan(createdAt.getTime());
  });

  it("writes back only what a notification changes: the gateway's record stays until a new one replaces it", async () => {
    const db = await getDb();
    const identifier = `only-${randomUUID().slice(0, 8)}`;
    const gatewayId = `tx_${randomUUID()}`;
    const own = await consoleCharge({
      identifier,
      gatewayTransactionId: gatewayId,
      statusAt: new Date("2026-11-20T11:59:00.000Z"),
      // In the past, so the write-back is seen moving it even within the same millisecond.
      updatedAt: new Date("2026-11-20T11:59:00.000Z"),
      request: { amount: 123.45, products: [{ name: "Curso" }] },
      gatewayRecord: { id: gatewayId, status: "OK", from: "creation" },
    });
    expect(
      (await receive(paymentPayload({ id: gatewayId, identifier, event: "TRANSACTION_CREATED", status: "PENDING", payedAt: null }))).status,
    ).toBe(200);
    let [row] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, own.id));
    expect(row).toMatchObject({ status: "PENDING", statusSource: "webhook", amountCents: 12345, request: own.request });
    expect(row.gatewayRecord).toMatchObject({ id: gatewayId, status: "PENDING" });
    expect(row.updatedAt.getTime()).toBeGreaterThan(own.updatedAt.getTime());

    // Parked for confirmation: the record of the last notification the ledger took stays as it was.
    expect((await receive(paymentPayload({ id: gatewayId, identifier }))).status).toBe(200);
    [row] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, own.id));
    expect(row).toMatchObject({ status: "PENDING", pendingStatus: "COMPLETED", request: own.request });
    expect(row.gatewayRecord).toMatchObject({ id: gatewayId, status: "PENDING" });
  });

  it("does not show a forged paid notification with a valid token as paid, while the real payment still is", async () => {
    const db = await getDb();
    const identifier = `pix-${randomUUID().slice(0, 8)}`;
    const gatewayId = `tx_${randomUUID()}`;
    const own = await consoleCharge({
      identifier,
      gatewayTransactionId: gatewayId,
      amountCents: 5000,
    });
    gatewaySays(gatewayId, identifier, "PENDING", null);
    const forged = paymentPayload({ id: gatewayId, identifier, amount: 50 });
    expect((await receive(forged)).status).toBe(200);
    await confirm();
    let [row] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, own.id));
    expect(row).toMatchObject({ status: "PENDING", statusSource: "lookup", pendingStatus: null, paidAt: null });
    const [flagged] = await eventsOf(gatewayId);
    expect(flagged).toMatchObject({ confirmation: "contradicted", ledgerOutcome: "refused" });
    const { auditLog } = await import("@/lib/db/schema");
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "webhook.contradicted"), eq(auditLog.target, flagged.id)));
    expect(audits).toHaveLength(1);
    expect(audits[0].details).toMatchObject({ notified: "COMPLETED", gateway: "PENDING" });

    // The customer really pays: the gateway's notification is confirmed and believed.
    gatewaySays(gatewayId, identifier, "COMPLETED", "2026-11-20T12:09:00.000Z");
    expect((await receive(paymentPayload({ id: gatewayId, identifier, amount: 50, payedAt: "2026-11-20T12:09:00.000Z" }))).status).toBe(
      200,
    );
    await confirm();
    [row] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, own.id));
    expect(row).toMatchObject({ status: "COMPLETED", pendingStatus: null });
    expect(row.paidAt?.toISOString()).toBe("2026-11-20T12:09:00.000Z");
  });

  it("asks the gateway once per row even when two reconcilers run at once", async () => {
    const db = await getDb();
    const ids = Array.from({ length: 6 }, () => ({ id: `tx_${randomUUID()}`, identifier: `two-${randomUUID().slice(0, 8)}` }));
    for (const t of ids) {
      gatewaySays(t.id, t.identifier, "COMPLETED");
      await receive(paymentPayload(t));
    }
    const before = gateway.lookups.length;
    const { runReconcilerOnce } = await import("@/lib/background/jobs/gateway-checks");
    await Promise.all([runReconcilerOnce(), runReconcilerOnce(), runReconcilerOnce()]);
    const asked = gateway.lookups.slice(before);
    for (const t of ids) expect(asked.filter((k) => k === t.id)).toHaveLength(1);
    for (const t of ids) expect((await ledgerOf(t.id))[0].status).toBe("COMPLETED");
    void db;
  });

  it("honours 429 Retry-After from the gateway before asking again", async () => {
    const { gatewayChecks } = await import("@/lib/db/schema");
    const t = { id: `tx_${randomUUID()}`, identifier: `rl-${randomUUID().slice(0, 8)}` };
    await receive(paymentPayload(t));
    gateway.fail(429, 120);
    try {
      const { runReconcilerOnce } = await import("@/lib/background/jobs/gateway-checks");
      await runReconcilerOnce();
    } finally {
      gateway.fail(null);
      // The process holds its lookups for those 120 s (lib/gateway/lookup-limiter.ts): the next tests' clock has moved on.
      const { resetProcessLookupLimiter } = await import("@/lib/gateway/lookup-limiter");
      resetProcessLookupLimiter();
    }
    const db = await getDb();
    const [check] = await db
      .select()
      .from(gatewayChecks)
      .where(eq(gatewayChecks.targetId, `${accountId}:${t.id}`));
    // A 429 is no answer: not an outcome, not an attempt.
    expect(check).toMatchObject({ state: "pending", lastOutcome: null, attempts: 0, target: "notification" });
    expect(check.nextAt.getTime() - Date.now()).toBeGreaterThan(100_000);
    expect(await ledgerOf(t.id)).toHaveLength(0);
  });

  it("never lets an older notification overwrite a newer status, whatever the arrival order", async () => {
    const id = `tx_${randomUUID()}`;
    const identifier = `ord-${randomUUID().slice(0, 8)}`;
    gatewaySays(id, identifier, "COMPLETED");
    await receive(paymentPayload({ id, identifier, event: "TRANSACTION_PAID", status: "COMPLETED", payedAt: "2026-11-20T12:05:00.000Z" }));
    await confirm();
    // The creation notice arrives late: a paid transaction never goes back to awaiting payment.
    await receive(paymentPayload({ id, identifier, event: "TRANSACTION_CREATED", status: "PENDING", payedAt: null }));
    let [row] = await ledgerOf(id);
    expect(row.status).toBe("COMPLETED");
    expect(row.lastWebhookStatus).toBe("PENDING");
    const late = (await eventsOf(id)).find((e) => e.event === "TRANSACTION_CREATED");
    expect(late?.ledgerOutcome).toBe("refused");

    // A later refund is applied once the gateway confirms it; an unknown status never replaces paid.
    await receive(paymentPayload({ id, identifier, event: "TRANSACTION_DISPUTE", status: "SOMETHING_ELSE" }));
    expect((await ledgerOf(id))[0].status).toBe("COMPLETED");
    await receive(paymentPayload({ id, identifier, event: "TRANSACTION_REFUNDED", status: "REFUNDED" }));
    expect((await ledgerOf(id))[0]).toMatchObject({ status: "COMPLETED", pendingStatus: "REFUNDED" });
    gatewaySays(id, identifier, "REFUNDED");
    await confirm();
    [row] = await ledgerOf(id);
    expect(row.status).toBe("REFUNDED");
    // And a stale paid delivery after the refund changes nothing.
    await receive(paymentPayload({ id, identifier, payedAt: "2026-11-20T12:06:00.000Z" }));
    await confirm();
    expect((await ledgerOf(id))[0].status).toBe("REFUNDED");
  });

  it("keeps unknown event names and unknown payload shapes, shown as such", async () => {
    const { listFeedNotifications } = await import("@/lib/notifications/queries");
    const named = paymentPayload({ event: "TRANSACTION_DISPUTE_OPENED", status: "IN_DISPUTE" });
    expect((await receive(named)).status).toBe(200);
    const shapeless = { event: "SOMETHING_NEW", token: TOKEN, data: { foo: 1 } };
    expect((await receive(shapeless)).status).toBe(200);
    expect((await receive(shapeless)).status).toBe(200);
    const events = await listFeedNotifications({ accountIds: [accountId], limit: 500 });
    const dispute = events.find((e) => e.gatewayTransactionId === named.transaction.id);
    expect(dispute).toMatchObject({ event: "TRANSACTION_DISPUTE_OPENED", known: false, kind: "payment", status: "IN_DISPUTE" });
    const unknown = events.filter((e) => e.event === "SOMETHING_NEW");
    expect(unknown).toHaveLength(1);
    expect(unknown[0]).toMatchObject({ kind: "unknown", known: false, deliveries: 2, ledgerId: null });
    // The gateway has not confirmed the transaction: the notification stays in the inbox only.
    expect(dispute).toMatchObject({ ledgerId: null, confirmation: "confirming" });
    expect(await ledgerOf(named.transaction.id)).toHaveLength(0);
  });

  it("lists a transaction's events in time order, redacted", async () => {
    const { listNotificationsForTransaction } = await import("@/lib/notifications/queries");
    const id = `tx_${randomUUID()}`;
    const identifier = `ord-${randomUUID().slice(0, 8)}`;
    await receive(paymentPayload({ id, identifier, event: "TRANSACTION_CREATED", status: "OK", payedAt: null }));
    await receive(paymentPayload({ id, identifier }));
    await receive(paymentPayload({ id, identifier }));
    gatewaySays(id, identifier, "COMPLETED");
    await confirm();
    const [row] = await ledgerOf(id);
    const events = await listNotificationsForTransaction(accountId, row.id);
    expect(events.map((e) => [e.event, e.deliveries])).toEqual([
      ["TRANSACTION_CREATED", 1],
      ["TRANSACTION_PAID", 2],
    ]);
    expect(JSON.stringify(events)).not.toContain(TOKEN);
    expect(await listNotificationsForTransaction(tokenlessAccountId, row.id)).toEqual([]);
  });

  it("signals the feed of every console process once a delivery is applied, and at once for a repeat of an applied one", async () => {
    const { subscribeFeed, subscribeStored } = await import("@/lib/feed/bus");
    const { getDbDriver } = await import("@/lib/db/client");
    const seen: FeedNotification[] = [];
    let wakeUps = 0;
    const unsubscribe = await subscribeFeed((e) => seen.push(e));
    const unsubscribeStored = await subscribeStored(() => wakeUps++);
    try {
      const payload = paymentPayload({});
      const mine = () => seen.filter((e) => e.gatewayTransactionId === payload.transaction.id);
      await receive(payload);
      await expect.poll(() => mine().length, { timeout: 5_000 }).toBe(1);
      // A stored delivery waiting for the applier is not a feed event: the browser hears it applied.
      expect(mine()[0]).toMatchObject({ deliveries: 1, applied: true, confirmation: "confirming", known: true });
      // On Postgres the other processes' appliers hear one wake-up per stored group.
      if ((await getDbDriver()) === "postgres") await expect.poll(() => wakeUps, { timeout: 5_000 }).toBeGreaterThan(0);

      await receive(payload);
      await expect.poll(() => mine().length, { timeout: 5_000 }).toBe(2);
      expect(mine()[1]).toMatchObject({ deliveries: 2, applied: true, confirmation: "confirming", id: mine()[0].id });
      expect(mine()[1].seq).toBeGreaterThan(mine()[0].seq);
      // Written by Postgres inside the insert (lib/feed/signal.ts): the same event as the applier's.
      const comparable = (e: FeedNotification) => ({ ...e, seq: 0, deliveries: 0, lastReceivedAt: "", ledgerChanged: false });
      expect(comparable(mine()[1])).toEqual(comparable(mine()[0]));
      expect(Date.parse(mine()[1].lastReceivedAt)).toBeGreaterThanOrEqual(Date.parse(mine()[0].lastReceivedAt));
      expect(JSON.stringify(mine())).not.toContain(TOKEN);
    } finally {
      unsubscribe();
      unsubscribeStored();
    }
  });

  it("refuses bodies over the size limit with 413 before reading them whole", async () => {
    const { handleWebhookRequest } = await import("@/lib/notifications/http");
    const big = JSON.stringify({ ...paymentPayload({}), padding: "x".repeat(300 * 1024) });
    const response = await handleWebhookRequest(
      new Request("http://console.test/api/webhooks/x", { method: "POST", body: big }),
      accountId,
    );
    expect(response.status).toBe(413);
    // A declared length is believed only as far as the bytes that came.
    const understated = new Request("http://console.test/api/webhooks/x", {
      method: "POST",
      body: big,
      headers: { "content-length": "100" },
    });
    expect((await handleWebhookRequest(understated, accountId)).status).toBe(413);
    const ok = await handleWebhookRequest(
      new Request("http://console.test/api/webhooks/x", {
        method: "POST",
        body: JSON.stringify(paymentPayload({})),
        headers: { "x-forwarded-for": "192.0.2.44" },
      }),
      accountId,
    );
    expect(ok.status).toBe(200);
  });
});

async function rejectionsHelper() {
  return {
    recentRejections: async (accountId: string) => {
      const db = await getDb();
      return db.select().from(webhookRejections).where(eq(webhookRejections.accountId, accountId));
    },
  };
}
