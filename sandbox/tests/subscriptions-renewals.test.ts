/* eslint-disable @typescript-eslint/no-explicit-any -- webhook bodies are inspected loosely */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { sandboxContext } from "../app";
import { ProducerDirectory } from "../context";
import { openDatabase } from "../db/client";
import { subscriptions, transactions } from "../db/schema";
import { ensureOpeningBalances, openingBalanceCents } from "../domain/balance";
import {
  addPeriod,
  chargeDueAt,
  chargeDueRenewals,
  createSubscription,
  RenewalScheduler,
  type SubscriptionInput,
} from "../domain/subscriptions";
import { seedProducers } from "../seed";
import { WebhookWorker } from "../webhooks/worker";
import { api, CLIENT, eventually, postgresReachable, start, startReceiver, uid, withPostgresDatabase } from "./helpers";

const DAY = 86_400_000;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const product = { id: "plano-mensal", name: "Plano mensal", price: 49 };
const monthly = { periodicityType: "MONTHS", periodicity: 1 };
const pixSub = (extra: Record<string, unknown> = {}) => ({
  identifier: uid("sub-pix"),
  amount: 49,
  client: CLIENT,
  product,
  subscription: monthly,
  ...extra,
});
const cardSub = (extra: Record<string, unknown> = {}) => ({
  identifier: uid("sub-card"),
  amount: 97,
  client: CLIENT,
  clientIp: "200.1.2.3",
  card: { number: "4111111111111111", owner: "JOAO DA SILVA", expiresAt: "2035-12", cvv: "123" },
  product: { id: "plano-cartao", name: "Plano cartão", price: 97 },
  subscription: monthly,
  ...extra,
});

/** A dated creation request (x-sandbox-at), as the demo and the e2e scenario send it. */
async function createDated(sandbox: { url: string }, kind: "pix" | "card", body: Record<string, unknown>, at: Date) {
  const res = await fetch(`${sandbox.url}/api/v1/gateway/${kind}/subscription`, {
    method: "POST",
    headers: {
      "x-public-key": "pk_sandbox_demo",
      "x-secret-key": "sk_sandbox_demo",
      "content-type": "application/json",
      "x-sandbox-at": at.toISOString(),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
}

/** The sandbox's context over its own in-memory database, to call the domain with chosen instants. */
async function inProcess() {
  const opened = await openDatabase({ dataDir: "memory://" });
  await seedProducers(opened.db);
  await ensureOpeningBalances(opened.db, openingBalanceCents());
  const producers = new ProducerDirectory(opened.db);
  await producers.load();
  const log = { info: () => undefined, error: () => undefined };
  const worker = new WebhookWorker(opened.db, { retryBaseMs: 20, log });
  const ctx = sandboxContext(opened, { publicUrl: "http://sandbox.test", producers, worker, log });
  const producer = producers.get("prod_demo")!;
  const chargesOf = async (subscriptionId: string) =>
    ctx.db
      .select({ identifier: transactions.clientIdentifier, status: transactions.status, createdAt: transactions.createdAt })
      .from(transactions)
      .where(and(eq(transactions.producerId, producer.id), eq(transactions.subscriptionId, subscriptionId)));
  return { ctx, producer, chargesOf, close: () => opened.close() };
}

const input = (extra: Partial<SubscriptionInput> = {}): SubscriptionInput => ({
  kind: "pix",
  identifier: uid("sub-dom"),
  amount: 49,
  client: CLIENT,
  product,
  subscription: { periodicityType: "MONTHS", periodicity: 1 },
  ...extra,
});

describe("São Paulo calendar", () => {
  it("keeps the São Paulo time of day and date, clamps month ends without drifting", () => {
    // 23:30 in São Paulo on Jan 31 is 02:30 UTC on Feb 1: the month is São Paulo's January.
    const lateJan31 = new Date("2027-02-01T02:30:00Z");
    expect(addPeriod(lateJan31, "MONTHS", 1).toISOString()).toBe("2027-03-01T02:30:00.000Z"); // Feb 28 23:30 SP
    expect(addPeriod(lateJan31, "MONTHS", 2).toISOString()).toBe("2027-04-01T02:30:00.000Z"); // Mar 31 23:30 SP
    expect(addPeriod(lateJan31, "DAYS", 1).toISOString()).toBe("2027-02-02T02:30:00.000Z");
    expect(addPeriod(new Date("2028-01-31T12:00:00Z"), "MONTHS", 1).toISOString()).toBe("2028-02-29T12:00:00.000Z");
    expect(addPeriod(new Date("2028-02-29T12:00:00Z"), "YEARS", 1).toISOString()).toBe("2029-02-28T12:00:00.000Z");
    expect(addPeriod(new Date("2027-03-15T12:00:00.123Z"), "MONTHS", 3).toISOString()).toBe("2027-06-15T12:00:00.123Z");
    // Each due instant counts from the start: Jan 31 → Feb 28 → Mar 31 → Apr 30 (not Mar 28).
    const sub = { createdAt: new Date("2027-01-31T15:00:00Z"), periodicityType: "MONTHS", periodicity: 1, firstChargeIn: 0 };
    expect([1, 2, 3, 4].map((n) => chargeDueAt(sub, n).toISOString().slice(0, 10))).toEqual([
      "2027-01-31",
      "2027-02-28",
      "2027-03-31",
      "2027-04-30",
    ]);
    // Every p months, every d days, every w weeks, firstChargeIn periods before the first.
    expect(chargeDueAt({ ...sub, periodicity: 3 }, 2).toISOString()).toBe("2027-04-30T15:00:00.000Z");
    expect(chargeDueAt({ ...sub, periodicityType: "DAYS", periodicity: 10 }, 3).toISOString()).toBe("2027-02-20T15:00:00.000Z");
    expect(chargeDueAt({ ...sub, periodicityType: "WEEKS", periodicity: 2, firstChargeIn: 1 }, 1).toISOString()).toBe(
      "2027-02-14T15:00:00.000Z",
    );
    expect(chargeDueAt({ ...sub, periodicityType: "YEARS", periodicity: 1 }, 2).toISOString()).toBe("2028-01-31T15:00:00.000Z");
  });
});

describe("renewals at their due instant (domain)", () => {
  it("charges exactly at the due instant, not one ms before; catches up 3 missed periods, each dated at its own due instant", async () => {
    const { ctx, producer, chargesOf, close } = await inProcess();
    try {
      const start = new Date(Date.now() - 200 * DAY);
      const created: any = await createSubscription(
        ctx,
        producer,
        input({ subscription: { periodicityType: "DAYS", periodicity: 10 } }),
        start,
      );
      const due2 = new Date(start.getTime() + 10 * DAY);
      expect(created.nextChargeAt).toBe(due2.toISOString());

      expect(await chargeDueRenewals(ctx, producer.id, new Date(due2.getTime() - 1))).toEqual([]);
      const atDue = await chargeDueRenewals(ctx, producer.id, due2);
      expect(atDue).toMatchObject([{ chargeNumber: 2, status: "PENDING", dueAt: due2.toISOString() }]);
      expect(await chargeDueRenewals(ctx, producer.id, due2)).toEqual([]);

      // Three more periods missed: three charges, oldest first, each at its own due instant.
      const later = new Date(start.getTime() + 40 * DAY + 5_000);
      const caughtUp = await chargeDueRenewals(ctx, producer.id, later);
      expect(caughtUp.map((c) => [c.chargeNumber, c.dueAt])).toEqual([
        [3, new Date(start.getTime() + 20 * DAY).toISOString()],
        [4, new Date(start.getTime() + 30 * DAY).toISOString()],
        [5, new Date(start.getTime() + 40 * DAY).toISOString()],
      ]);
      const charges = await chargesOf(created.subscriptionId);
      expect(charges).toHaveLength(5);
      for (const charge of charges) {
        const n = Number(charge.identifier.split("-").at(-1));
        expect(charge.createdAt.toISOString()).toBe(new Date(start.getTime() + (n - 1) * 10 * DAY).toISOString());
        expect(charge.status).toBe("PENDING");
      }
      const [sub] = await ctx.db.select().from(subscriptions).where(eq(subscriptions.id, created.subscriptionId));
      expect(sub).toMatchObject({ chargesCount: 5, status: "ACTIVE" });
      expect(sub.nextChargeAt.toISOString()).toBe(new Date(start.getTime() + 50 * DAY).toISOString());
    } finally {
      await close();
    }
  });

  it("never charges a renewal twice when catch-ups run concurrently (timer and advance)", async () => {
    const { ctx, producer, chargesOf, close } = await inProcess();
    try {
      const start = new Date(Date.now() - 100 * DAY);
      const created: any = await createSubscription(ctx, producer, input(), start);
      const scheduler = new RenewalScheduler(ctx, 0);
      const now = ctx.producers.now(producer.id);
      const results = await Promise.all([
        scheduler.runOnce(),
        ...Array.from({ length: 5 }, () => chargeDueRenewals(ctx, producer.id, now).then((c) => c.length)),
        scheduler.runOnce(),
      ]);
      // Monthly from 100 days back: charges 2, 3 and 4 were due, made once in all.
      expect(results.reduce((a, b) => a + b, 0)).toBe(3);
      const identifiers = (await chargesOf(created.subscriptionId)).map((c) => c.identifier).sort();
      expect(identifiers).toEqual([1, 2, 3, 4].map((n) => `${created.identifier}-${n}`).sort());
      await scheduler.stop();
    } finally {
      await close();
    }
  });
});

describe("the e2e scenario: monthly Pix and card subscriptions dated 35 days back", () => {
  it("card: two paid charges; Pix: the renewal awaits payment with its own code and, once paid, is notified as paid", async () => {
    const sandbox = await start({ renewalIntervalMs: 0 });
    const receiver = await startReceiver();
    const demo = api(sandbox);
    try {
      const startAt = new Date(Date.now() - 35 * DAY);
      const pix = await createDated(sandbox, "pix", pixSub({ callbackUrl: receiver.url }), startAt);
      const card = await createDated(sandbox, "card", cardSub({ callbackUrl: receiver.url }), startAt);
      expect(pix.status).toBe(200);
      expect(card.status).toBe(200);
      expect(pix.json).toMatchObject({ status: "ACTIVE", paymentMethod: "PIX", amount: 49, createdAt: startAt.toISOString() });
      const due2 = addPeriod(startAt, "MONTHS", 1);
      expect(pix.json.nextChargeAt).toBe(due2.toISOString());

      const caught = await demo.controlClient().advanceClock(0);
      expect(caught.charges.map((c) => [c.identifier, c.chargeNumber, c.status, c.dueAt]).sort()).toEqual(
        [
          [pix.json.identifier, 2, "PENDING", due2.toISOString()],
          [card.json.identifier, 2, "COMPLETED", due2.toISOString()],
        ].sort(),
      );
      expect((await demo.controlClient().advanceClock(0)).charges).toEqual([]);

      // Card: charges 1 and 2 paid, each dated at its due instant; no third yet.
      const card1 = (await demo.get(`/transactions?clientIdentifier=${card.json.identifier}-1`)).json;
      const card2 = (await demo.get(`/transactions?clientIdentifier=${card.json.identifier}-2`)).json;
      expect(card1).toMatchObject({ status: "COMPLETED", purchaseType: "SUBSCRIPTION", createdAt: startAt.toISOString() });
      expect(card2).toMatchObject({ status: "COMPLETED", createdAt: due2.toISOString(), payedAt: due2.toISOString() });
      expect((await demo.get(`/transactions?clientIdentifier=${card.json.identifier}-3`)).status).toBe(404);

      // Pix: the renewal is a charge of its own, waiting to be paid.
      const pix1 = (await demo.get(`/transactions?clientIdentifier=${pix.json.identifier}-1`)).json;
      const pix2 = (await demo.get(`/transactions?clientIdentifier=${pix.json.identifier}-2`)).json;
      expect(pix2).toMatchObject({ status: "PENDING", paymentMethod: "PIX", amount: 49, createdAt: due2.toISOString(), payedAt: null });
      expect(pix2.pixInformation.qrCode).toMatch(/^000201/);
      expect(pix2.pixInformation.qrCode).not.toBe(pix1.pixInformation.qrCode);

      const created2 = await receiver.waitFor((all) =>
        all.some((h) => h.body.transaction.id === pix2.id && h.body.event === "TRANSACTION_CREATED"),
      );
      const createdHook = created2.find((h) => h.body.transaction.id === pix2.id)!.body;
      expect(createdHook.transaction).toMatchObject({ status: "PENDING", createdAt: due2.toISOString() });
      expect(createdHook.subscription).toEqual({
        id: pix.json.subscriptionId,
        identifier: pix.json.identifier,
        status: "ACTIVE",
        paymentMethod: "PIX",
        amount: 49,
        periodicityType: "MONTHS",
        periodicity: 1,
        chargeNumber: 2,
        nextChargeAt: addPeriod(startAt, "MONTHS", 2).toISOString(),
        createdAt: startAt.toISOString(),
      });
      const cardHook = (
        await receiver.waitFor((all) => all.some((h) => h.body.transaction.id === card2.id && h.body.event === "TRANSACTION_PAID"))
      ).find((h) => h.body.transaction.id === card2.id)!.body;
      expect(cardHook.subscription).toMatchObject({ id: card.json.subscriptionId, paymentMethod: "CREDIT_CARD", chargeNumber: 2 });
      expect(cardHook.transaction).toMatchObject({ status: "COMPLETED", payedAt: due2.toISOString() });

      // Paying the renewal through the control API, like any Pix charge: notified as paid.
      await demo.controlClient().event(pix2.id, "pay");
      const paid = (
        await receiver.waitFor((all) => all.some((h) => h.body.transaction.id === pix2.id && h.body.event === "TRANSACTION_PAID"))
      ).find((h) => h.body.transaction.id === pix2.id && h.body.event === "TRANSACTION_PAID")!.body;
      expect(paid.transaction.status).toBe("COMPLETED");
      expect(paid.subscription).toMatchObject({ id: pix.json.subscriptionId, chargeNumber: 2, status: "ACTIVE" });
    } finally {
      await receiver.close();
      await sandbox.close();
    }
  });
});

describe("card renewals follow the test cards", () => {
  it("a declining card fails its charge (notified as failed) and the subscription stops", async () => {
    const sandbox = await start({ renewalIntervalMs: 0 });
    const receiver = await startReceiver();
    const demo = api(sandbox);
    try {
      const startAt = new Date(Date.now() - 35 * DAY);
      // One month of trial (firstChargeIn 1), then the card declines.
      const declining = await createDated(
        sandbox,
        "card",
        cardSub({
          callbackUrl: receiver.url,
          card: { number: "4000000000009995", owner: "JOAO", expiresAt: "2035-12", cvv: "123" },
          subscription: { ...monthly, firstChargeIn: 1 },
        }),
        startAt,
      );
      expect(declining.json).toMatchObject({ status: "ACTIVE", transactionId: null });
      // An approving card that expires in its first month: paid once, then its renewal declines.
      const local = new Date(startAt);
      const expiresAt = `${local.getFullYear()}-${String(local.getMonth() + 1).padStart(2, "0")}`;
      const expiring = await createDated(
        sandbox,
        "card",
        cardSub({ callbackUrl: receiver.url, card: { number: "4242424242424242", owner: "JOAO", expiresAt, cvv: "123" } }),
        startAt,
      );
      expect(expiring.json.charge).toMatchObject({ status: "OK" });

      const caught = await demo.controlClient().advanceClock(0);
      const byId = Object.fromEntries(caught.charges.map((c) => [c.identifier, c]));
      expect(byId[declining.json.identifier]).toMatchObject({ chargeNumber: 1, status: "FAILED" });
      expect(byId[expiring.json.identifier]).toMatchObject({ chargeNumber: 2, status: "FAILED" });

      const failed = (await demo.get(`/transactions?clientIdentifier=${declining.json.identifier}-1`)).json;
      expect(failed).toMatchObject({ status: "FAILED", errorDescription: "Cartão recusado: saldo insuficiente" });
      const expired = (await demo.get(`/transactions?clientIdentifier=${expiring.json.identifier}-2`)).json;
      expect(expired).toMatchObject({ status: "FAILED", errorDescription: "Cartão expirado" });

      const hooks = await receiver.waitFor((all) => all.filter((h) => h.body.event === "TRANSACTION_CANCELED").length >= 2);
      const hook = hooks.find((h) => h.body.transaction.id === failed.id)!.body;
      expect(hook).toMatchObject({
        event: "TRANSACTION_CANCELED",
        transaction: { status: "FAILED", errorDescription: "Cartão recusado: saldo insuficiente" },
        subscription: { id: declining.json.subscriptionId, status: "FAILED", chargeNumber: 1 },
      });
      // A FAILED subscription is not charged again, however far the clock goes.
      expect((await demo.controlClient().advanceClock(100)).charges).toEqual([]);
    } finally {
      await receiver.close();
      await sandbox.close();
    }
  });
});

describe("the sandbox's own schedule and restarts", () => {
  it("the timer charges due renewals without clock/advance", async () => {
    const sandbox = await start({ renewalIntervalMs: 100 });
    try {
      // x-sandbox-at is checked as on charges: not in the future, at most 400 days back.
      const future = await createDated(sandbox, "pix", pixSub(), new Date(Date.now() + 60_000));
      expect(future).toMatchObject({ status: 400, json: { message: expect.stringMatching(/^x-sandbox-at: /) } });
      const tooOld = await createDated(sandbox, "pix", pixSub(), new Date(Date.now() - 401 * DAY));
      expect(tooOld.status).toBe(400);
      const sub = await createDated(sandbox, "card", cardSub(), new Date(Date.now() - 35 * DAY));
      const renewal = await eventually(async () => {
        const res = await api(sandbox).get(`/transactions?clientIdentifier=${sub.json.identifier}-2`);
        return res.status === 200 ? res.json : undefined;
      });
      expect(renewal).toMatchObject({ status: "COMPLETED", createdAt: sub.json.nextChargeAt });
    } finally {
      await sandbox.close();
    }
  });

  it("renewals are not made again after a restart", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "sandbox-renewals-"));
    dirs.push(dataDir);
    let sandbox = await start({ dataDir, renewalIntervalMs: 0 });
    const body = pixSub();
    try {
      await createDated(sandbox, "pix", body, new Date(Date.now() - 100 * DAY));
      expect((await api(sandbox).controlClient().advanceClock(0)).charges).toHaveLength(3);
      await sandbox.close();

      // Restarted with the timer on: nothing was due, nothing is charged again.
      sandbox = await start({ dataDir, renewalIntervalMs: 50 });
      await new Promise((r) => setTimeout(r, 300));
      expect((await api(sandbox).controlClient().advanceClock(0)).charges).toEqual([]);
      const replay = await createDated(sandbox, "pix", body, new Date(Date.now() - 100 * DAY));
      expect(replay.json.identifier).toBe(body.identifier);
      for (const n of [1, 2, 3, 4])
        expect((await api(sandbox).get(`/transactions?clientIdentifier=${body.identifier}-${n}`)).status).toBe(200);
      expect((await api(sandbox).get(`/transactions?clientIdentifier=${body.identifier}-5`)).status).toBe(404);
    } finally {
      await sandbox.close();
    }
  });
});

describe.skipIf(!(await postgresReachable()))("renewals on Postgres", () => {
  it("six concurrent clock/advance calls make each renewal once (row claimed with a compare-and-set)", async () => {
    await withPostgresDatabase(async (databaseUrl) => {
      const sandbox = await start({ databaseUrl, renewalIntervalMs: 0 });
      try {
        const body = pixSub();
        await createDated(sandbox, "pix", body, new Date(Date.now() - 100 * DAY));
        const answers = await Promise.all(Array.from({ length: 6 }, () => api(sandbox).controlClient().advanceClock(0)));
        expect(answers.flatMap((a) => a.charges.map((c) => c.chargeNumber)).sort()).toEqual([2, 3, 4]);
        const opened = await openDatabase({ databaseUrl });
        try {
          const rows = await opened.db
            .select({ identifier: transactions.clientIdentifier })
            .from(transactions)
            .where(eq(transactions.purchaseType, "SUBSCRIPTION"));
          expect(rows.map((r) => r.identifier).sort()).toEqual([1, 2, 3, 4].map((n) => `${body.identifier}-${n}`).sort());
        } finally {
          await opened.close();
        }
      } finally {
        await sandbox.close();
      }
    });
  });
});
