import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import { auditLog, eventOutbox, gatewayChecks, ledgerTransactions, gatewayNotifications } from "@/lib/db/schema";
import { testDatabases, useDatabase, type TestDatabase } from "@/lib/testing/databases";
import { startLookupGateway } from "@/lib/testing/lookup-gateway";

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");
// The tests drive the applier and the reconciler themselves, step by step.
process.env.WEBHOOK_APPLIER = "off";
process.env.RECONCILE_DELAYS_MS = "0";
process.env.RECONCILE_CONCURRENCY = "8";
process.env.GATEWAY_TIMEOUT_MS = "15000";
const gateway = await startLookupGateway();
afterAll(() => gateway.close());

const TOKEN = "wht_unconfirmed_3b9d";
const targets = await testDatabases();

function notification(overrides: {
  id?: string;
  identifier?: string | null;
  event?: string;
  status?: string;
  payedAt?: string | null;
  amount?: number;
  checkoutUrl?: string;
  offerCode?: string | null;
}) {
  return {
    event: overrides.event ?? "TRANSACTION_PAID",
    token: TOKEN,
    offerCode: overrides.offerCode ?? null,
    checkoutUrl: overrides.checkoutUrl ?? "",
    client: { id: "cli_1", name: "Maria Souza", email: "maria@example.com", phone: "(11) 98888-7777", cpf: "529.982.247-25", cnpj: null },
    transaction: {
      id: overrides.id ?? `tx_${randomUUID()}`,
      identifier: overrides.identifier === undefined ? `ord-${randomUUID().slice(0, 8)}` : overrides.identifier,
      status: overrides.status ?? "COMPLETED",
      paymentMethod: "PIX",
      amount: overrides.amount ?? 123.45,
      commissionAmount: 122.23,
      currency: "BRL",
      createdAt: "2026-11-20T12:00:00.000Z",
      payedAt: overrides.payedAt === undefined ? "2026-11-20T12:05:00.000Z" : overrides.payedAt,
    },
    orderItems: [],
    trackProps: { isUpsell: false, ip: null, user_agent: null },
  };
}

describe.each(targets)("notifications about transactions the ledger does not have, on $name", (target: TestDatabase) => {
  const newAccount = async (name: string) => {
    const { createAccount } = await import("@/lib/accounts/queries");
    return (
      await createAccount(
        { name, baseUrl: gateway.baseUrl, publicKey: "pk", secretKey: "sk_1234567890", webhookToken: TOKEN, mode: "test" },
        null,
      )
    ).id;
  };

  beforeAll(async () => {
    await closeDb();
    useDatabase(target);
    await newAccount("Aquecimento");
  });
  afterAll(async () => {
    const { stopFeedListener } = await import("@/lib/feed/bus");
    await stopFeedListener();
    await closeDb();
    gateway.records.clear();
    await target.drop();
  });

  const deliver = async (accountId: string, payload: unknown) => {
    const { receiveNotification } = await import("@/lib/notifications/ingest");
    const answer = await receiveNotification({ accountId, body: JSON.stringify(payload), sourceIp: "203.0.113.7" });
    expect(answer.status).toBe(200);
  };
  const applyAll = async () => {
    const { applyPendingNotifications } = await import("@/lib/notifications/applier");
    while ((await applyPendingNotifications()) > 0);
  };
  /** Background passes until no check is due (the schedule is 0 s here). */
  const settle = async (passes = 5) => {
    const { runBackgroundWorkOnce } = await import("@/lib/background/serverless");
    for (let i = 0; i < passes; i++) await runBackgroundWorkOnce();
  };
  const ledgerList = async (accountId: string) => {
    const { listLedger } = await import("@/lib/ledger/queries");
    return (await listLedger(accountId, {}, { limit: 500 })).rows;
  };
  const unconfirmed = async (accountId: string) => {
    const { listUnconfirmedNotifications, countUnconfirmedNotifications } = await import("@/lib/ledger/unconfirmed");
    return { list: await listUnconfirmedNotifications(accountId, { limit: 500 }), counts: await countUnconfirmedNotifications(accountId) };
  };
  const eventsOf = async (gatewayId: string) => {
    const db = await getDb();
    return db.select().from(gatewayNotifications).where(eq(gatewayNotifications.gatewayTransactionId, gatewayId));
  };

  it("a paid notification the gateway denies never reaches the ledger and shows as unconfirmed, then absent", async () => {
    const accountId = await newAccount("Negada");
    const bogus = notification({});
    await deliver(accountId, bogus);
    await applyAll();

    expect(await ledgerList(accountId)).toEqual([]);
    let view = await unconfirmed(accountId);
    expect(view.counts).toMatchObject({ total: 1, waiting: 1 });
    expect(view.list[0]).toMatchObject({
      gatewayTransactionId: bogus.transaction.id,
      event: "TRANSACTION_PAID",
      status: "COMPLETED",
      state: "waiting",
      amountCents: 12345,
    });
    expect(view.list[0]!.nextCheckAt).not.toBeNull();
    const [waiting] = await eventsOf(bogus.transaction.id);
    expect(waiting).toMatchObject({ applyState: "applied", confirmation: "confirming", ledgerId: null, ledgerOutcome: "confirming" });

    await settle();
    expect(await ledgerList(accountId)).toEqual([]);
    view = await unconfirmed(accountId);
    expect(view.counts).toMatchObject({ total: 1, absent: 1, waiting: 0 });
    expect(view.list[0]).toMatchObject({ id: waiting!.id, state: "absent", nextCheckAt: null });
    const [settled] = await eventsOf(bogus.transaction.id);
    expect(settled).toMatchObject({ confirmation: "contradicted", ledgerOutcome: "refused", ledgerId: null });
    const db = await getDb();
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "webhook.contradicted"), eq(auditLog.target, waiting!.id)));
    expect(audits).toHaveLength(1);
    // Asked by its id three times (a miss proves nothing on its own), then no more.
    expect(gateway.lookups.filter((k) => k === bogus.transaction.id)).toHaveLength(3);
    // Nothing reached the event destinations' outbox.
    expect(await db.select().from(eventOutbox).where(eq(eventOutbox.accountId, accountId))).toEqual([]);
  });

  it("a notification the gateway confirms appears in the ledger with the gateway's status, made from its record", async () => {
    const accountId = await newAccount("Confirmada");
    const id = `tx_${randomUUID()}`;
    const identifier = `checkout-${randomUUID().slice(0, 8)}`;
    await deliver(accountId, notification({ id, identifier, event: "TRANSACTION_CREATED", status: "PENDING", payedAt: null }));
    // A hosted checkout's sale: where it came from is in the notification, not in the gateway's record.
    const checkoutUrl = "https://pay.example.com/checkout/ck_1?utm_source=instagram&utm_medium=stories&utm_campaign=black-friday";
    await deliver(accountId, notification({ id, identifier, checkoutUrl, offerCode: "oferta-bf" }));
    await applyAll();
    expect(await ledgerList(accountId)).toEqual([]);
    expect((await unconfirmed(accountId)).counts).toMatchObject({ total: 2, waiting: 2 });

    // The gateway's record says more than the notifications (another amount): the record wins.
    gateway.records.set(id, { id, clientIdentifier: identifier, status: "COMPLETED", payedAt: "2026-11-20T12:06:00.000Z", amount: 120 });
    await settle();
    const rows = await ledgerList(accountId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: "external",
      origin: "webhook",
      identifier,
      gatewayTransactionId: id,
      status: "COMPLETED",
      amountCents: 12000,
      clientName: "Maria Souza",
    });
    expect(rows[0]!.paidAt?.toISOString()).toBe("2026-11-20T12:06:00.000Z");
    const db = await getDb();
    const [row] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, rows[0]!.id));
    expect(row).toMatchObject({
      statusSource: "lookup",
      lastLookupStatus: "COMPLETED",
      pendingStatus: null,
      clientEmail: "maria@example.com",
      clientDocument: "529.982.247-25",
      utmSource: "instagram",
      utmMedium: "stories",
      utmCampaign: "black-friday",
      offerCode: "oferta-bf",
    });
    const events = await eventsOf(id);
    expect(events.map((e) => [e.event, e.confirmation, e.ledgerId])).toEqual(
      expect.arrayContaining([
        ["TRANSACTION_CREATED", "confirmed", row!.id],
        ["TRANSACTION_PAID", "confirmed", row!.id],
      ]),
    );
    expect((await unconfirmed(accountId)).counts.total).toBe(0);
    // The outbox holds the confirmed fact (a lookup's status), which the destinations turn into charge.paid.
    const facts = await db.select().from(eventOutbox).where(eq(eventOutbox.objectId, row!.id));
    expect(facts.map((f) => f.status)).toEqual(["COMPLETED"]);

    // Later notifications about it update the row through the status machines, as for the console's own.
    await deliver(accountId, notification({ id, identifier, event: "TRANSACTION_REFUNDED", status: "REFUNDED" }));
    await applyAll();
    const [parked] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, row!.id));
    expect(parked).toMatchObject({ status: "COMPLETED", pendingStatus: "REFUNDED" });
  });

  it("a notification the gateway contradicts (another status) creates no row and says so", async () => {
    const accountId = await newAccount("Contradita");
    const id = `tx_${randomUUID()}`;
    const identifier = `ord-${randomUUID().slice(0, 8)}`;
    gateway.records.set(id, { id, clientIdentifier: identifier, status: "PENDING", payedAt: null });
    await deliver(accountId, notification({ id, identifier }));
    await applyAll();
    await settle();
    expect(await ledgerList(accountId)).toEqual([]);
    const view = await unconfirmed(accountId);
    expect(view.list).toHaveLength(1);
    expect(view.list[0]).toMatchObject({ state: "different", status: "COMPLETED" });
    expect(gateway.lookups.filter((k) => k === id)).toHaveLength(1);
  });

  // Bursts of concurrent deliveries, paid and created alike; each transaction costs three lookups,
  // so a few dozen prove the rule (400 took over a minute per database).
  const BOGUS = 60;
  const BURST = 20;
  it(`${BOGUS} bogus deliveries with a valid token leave the transactions list of a fresh account empty`, async () => {
    const accountId = await newAccount("Nova");
    for (let i = 0; i < BOGUS; i += BURST) {
      await Promise.all(
        Array.from({ length: BURST }, (_, j) =>
          deliver(
            accountId,
            notification({ event: j % 2 ? "TRANSACTION_CREATED" : "TRANSACTION_PAID", status: j % 2 ? "PENDING" : "COMPLETED" }),
          ),
        ),
      );
    }
    await applyAll();
    expect(await ledgerList(accountId)).toEqual([]);
    const { countLedger } = await import("@/lib/ledger/queries");
    expect(await countLedger(accountId, {})).toBe(0);
    expect((await unconfirmed(accountId)).counts).toMatchObject({ total: BOGUS, waiting: BOGUS });

    await settle(6);
    expect(await ledgerList(accountId)).toEqual([]);
    const view = await unconfirmed(accountId);
    expect(view.counts).toMatchObject({ total: BOGUS, absent: BOGUS });
    const db = await getDb();
    expect(await db.select().from(eventOutbox).where(eq(eventOutbox.accountId, accountId))).toEqual([]);
  });

  // The first check of a submission whose answer was lost is not moved by notifications.
  let pixAccountId: string | null = null;

  /** A Pix charge recorded and sent `ago` ms ago whose process died before the answer: SUBMITTING, with its check due now. */
  async function lostSubmission(ago: number) {
    pixAccountId ??= await newAccount("Pix");
    const accountId = pixAccountId;
    const db = await getDb();
    const identifier = `pix-${randomUUID().slice(0, 8)}`;
    const sent = new Date(Date.now() - ago);
    const [row] = await db
      .insert(ledgerTransactions)
      .values({
        accountId,
        kind: "pix_charge",
        identifier,
        origin: "console",
        submission: "SUBMITTING",
        amountCents: 4250,
        createdAt: sent,
        updatedAt: sent,
      })
      .returning();
    const { enqueueCheck } = await import("@/lib/submissions/checks");
    await enqueueCheck({ accountId, target: "ledger", targetId: row!.id, reason: "unknown", delayMs: 0 });
    await db.execute(
      sql`update gateway_checks set created_at = ${sent.toISOString()}::timestamptz, next_at = now() where target_id = ${row!.id}`,
    );
    return row!;
  }
  const checkOf = async (ledgerId: string) => {
    const db = await getDb();
    const [check] = await db.select().from(gatewayChecks).where(eq(gatewayChecks.targetId, ledgerId));
    return check!;
  };

  it("a late TRANSACTION_CREATED moves the row's updated_at but neither postpones the check nor makes it look in flight", async () => {
    const row = await lostSubmission(30_000);
    const gatewayId = `tx_${randomUUID()}`;
    gateway.records.set(gatewayId, { id: gatewayId, clientIdentifier: row.identifier, status: "PENDING", payedAt: null, amount: 42.5 });
    const dueBefore = (await checkOf(row.id)).nextAt;

    const accountId = row.accountId;
    const { receiveNotification } = await import("@/lib/notifications/ingest");
    const { applyPendingNotifications } = await import("@/lib/notifications/applier");
    const late = notification({
      id: gatewayId,
      identifier: row.identifier,
      event: "TRANSACTION_CREATED",
      status: "PENDING",
      payedAt: null,
      amount: 42.5,
    });
    expect((await receiveNotification({ accountId, body: JSON.stringify(late), sourceIp: null })).status).toBe(200);
    await applyPendingNotifications();
    const db = await getDb();
    const [touched] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, row.id));
    expect(touched!.updatedAt.getTime()).toBeGreaterThan(Date.now() - 5_000);
    expect((await checkOf(row.id)).nextAt.getTime()).toBeLessThanOrEqual(dueBefore.getTime());

    const before = gateway.lookups.length;
    const { runReconcilerOnce } = await import("@/lib/background/jobs/gateway-checks");
    await runReconcilerOnce();
    // The first check asked the gateway (by the console's identifier) and settled the charge.
    expect(gateway.lookups.slice(before)).toEqual([row.identifier]);
    const [settled] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, row.id));
    expect(settled).toMatchObject({ submission: "SUBMITTED", gatewayTransactionId: gatewayId, status: "PENDING" });
    expect(await checkOf(row.id)).toMatchObject({ state: "done", lastOutcome: "found" });
  });

  it("a paid notification brings a scheduled check forward, never back", async () => {
    const row = await lostSubmission(30_000);
    const db = await getDb();
    await db.execute(sql`update gateway_checks set next_at = now() + interval '5 seconds' where target_id = ${row.id}`);
    const dueBefore = (await checkOf(row.id)).nextAt;
    const accountId = row.accountId;
    const { receiveNotification } = await import("@/lib/notifications/ingest");
    const { applyPendingNotifications } = await import("@/lib/notifications/applier");
    const paid = notification({ id: `tx_${randomUUID()}`, identifier: row.identifier, amount: 42.5 });
    expect((await receiveNotification({ accountId, body: JSON.stringify(paid), sourceIp: null })).status).toBe(200);
    await applyPendingNotifications();
    const check = await checkOf(row.id);
    expect(check.nextAt.getTime()).toBeLessThanOrEqual(dueBefore.getTime());
    expect(check.createdAt.getTime()).toBeLessThan(Date.now() - 25_000);
  });

  it("a check that finds the request still in flight comes back when it can no longer be, at the same step of the schedule", async () => {
    const row = await lostSubmission(2_000);
    const { runReconcilerOnce } = await import("@/lib/background/jobs/gateway-checks");
    await runReconcilerOnce();
    expect(gateway.lookups).not.toContain(row.identifier);
    const check = await checkOf(row.id);
    expect(check).toMatchObject({ state: "pending", lastOutcome: "in_flight", attempts: 0 });
    // Sent 2 s ago with a 15 s timeout (+5 s margin): due again about 18 s from now, not a whole step later.
    const wait = check.nextAt.getTime() - Date.now();
    expect(wait).toBeGreaterThan(14_000);
    expect(wait).toBeLessThan(19_000);
  });
});
