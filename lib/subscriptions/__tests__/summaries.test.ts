import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import { ledgerTransactions, subscriptionCharges, subscriptions } from "@/lib/db/schema";
import { cohorts, periodFigures } from "@/lib/subscriptions/figures";
import { figureInputOf } from "@/lib/subscriptions/views";
import { saoPauloMonth } from "@/lib/subscriptions/periods";
import { STATE_NAMES } from "@/lib/subscriptions/rules";
import { testDatabases, useDatabase, type TestDatabase } from "@/lib/testing/databases";
import { randomRules, randomSubscriptions } from "./random-subscriptions";

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");
const targets = await testDatabases();

const NOW = new Date("2026-11-28T15:00:00Z");

describe.each(targets)("subscription summaries on $name", (target: TestDatabase) => {
  let accountId: string;

  beforeAll(async () => {
    await closeDb();
    useDatabase(target);
    const { createAccount } = await import("@/lib/accounts/queries");
    accountId = (
      await createAccount({ name: "Clube", baseUrl: "http://127.0.0.1:9", publicKey: "pk", secretKey: "sk_1234567890", mode: "test" }, null)
    ).id;
  });
  afterAll(async () => {
    await closeDb();
    await target.drop();
  });

  /** Writes random subscriptions as the console would hold them: rows, links, and the ledger rows the gateway confirmed. */
  async function seed(account: string, seedNumber: number, count: number) {
    const db = await getDb();
    const drawn = randomSubscriptions(seedNumber, count, NOW);
    for (const [i, subscription] of drawn.entries()) {
      const [row] = await db
        .insert(subscriptions)
        .values({
          accountId: account,
          identifier: `s-${seedNumber}-${i}`,
          source: "notification",
          paymentMethod: i % 2 ? "PIX" : "CREDIT_CARD",
          amountCents: subscription.amountCents,
          periodicityType: subscription.periodicity?.type ?? null,
          periodicity: subscription.periodicity?.every ?? null,
          clientName: `Cliente ${i}`,
          startedAt: subscription.startedAt,
          gatewayStatus: subscription.gatewayStatus,
          gatewayRecordAt: subscription.gatewayStatusAt,
        })
        .returning({ id: subscriptions.id });
      for (const charge of subscription.charges) {
        await db.insert(subscriptionCharges).values({
          accountId: account,
          gatewayTransactionId: charge.gatewayTransactionId,
          subscriptionId: row.id,
          chargeNumber: charge.chargeNumber,
        });
        if (charge.dueAt)
          await db.insert(ledgerTransactions).values({
            accountId: account,
            kind: "external",
            origin: "webhook",
            identifier: charge.gatewayTransactionId,
            gatewayTransactionId: charge.gatewayTransactionId,
            status: charge.status,
            paidAt: charge.paidAt,
            amountCents: subscription.amountCents ?? 1000,
            createdAt: charge.dueAt,
          });
      }
    }
  }

  it("adds up in SQL to the figures, cohorts and states the pure rules give, for random subscriptions and rules", async () => {
    const { listSubscriptions, periodFiguresOf, cohortsOf, setSubscriptionRules, settleSummaries } =
      await import("@/lib/subscriptions/queries");
    await seed(accountId, 11, 120);
    for (const rulesSeed of [3, 5]) {
      const rules = randomRules(rulesSeed);
      await setSubscriptionRules(accountId, rules);
      expect(await settleSummaries(accountId, 30_000)).toBe(0);
      const views = await listSubscriptions(accountId, {}, { now: NOW, limit: 10_000 });
      expect(views).toHaveLength(120);
      const inputs = views.map(figureInputOf);
      for (const monthStart of ["2026-11-15T12:00:00Z", "2026-10-15T12:00:00Z", "2026-03-15T12:00:00Z", "2025-12-15T12:00:00Z"]) {
        const period = saoPauloMonth(new Date(monthStart));
        const { subscriptions: count, ...figures } = await periodFiguresOf(accountId, period, NOW);
        expect(count).toBe(120);
        expect(figures, `${JSON.stringify(rules)} ${period.month}`).toEqual(periodFigures(inputs, period, NOW, rules));
      }
      expect(await cohortsOf(accountId, NOW)).toEqual(cohorts(inputs, NOW, rules));
      for (const state of STATE_NAMES) {
        const listed = (await listSubscriptions(accountId, { state }, { now: NOW, limit: 10_000 })).map((view) => view.subscription.id);
        expect(listed, state).toEqual(views.filter((view) => view.state.state === state).map((view) => view.subscription.id));
      }
    }
  });

  it("queues a subscription again when its charge's ledger row changes, and the list follows the payment", async () => {
    const { listSubscriptions, settleSummaries } = await import("@/lib/subscriptions/queries");
    const { createAccount } = await import("@/lib/accounts/queries");
    const other = (
      await createAccount(
        { name: "Outra", baseUrl: "http://127.0.0.1:9", publicKey: "pk2", secretKey: "sk_1234567890", mode: "test" },
        null,
      )
    ).id;
    const db = await getDb();
    const [row] = await db
      .insert(subscriptions)
      .values({
        accountId: other,
        identifier: "pix-mensal",
        source: "notification",
        paymentMethod: "PIX",
        amountCents: 4990,
        periodicityType: "MONTHS",
        periodicity: 1,
        startedAt: new Date("2026-10-20T15:00:00Z"),
      })
      .returning({ id: subscriptions.id });
    const charge = async (n: number, due: string, paid: boolean) => {
      await db.insert(ledgerTransactions).values({
        accountId: other,
        kind: "external",
        origin: "webhook",
        identifier: `pix-mensal-${n}`,
        gatewayTransactionId: `tx-pix-${n}`,
        status: paid ? "COMPLETED" : "PENDING",
        paidAt: paid ? new Date(due) : null,
        amountCents: 4990,
        createdAt: new Date(due),
      });
      await db
        .insert(subscriptionCharges)
        .values({ accountId: other, gatewayTransactionId: `tx-pix-${n}`, subscriptionId: row.id, chargeNumber: n });
    };
    await charge(1, "2026-10-20T15:00:00Z", true);
    await charge(2, "2026-11-20T15:00:00Z", false);
    await settleSummaries(other);
    const states = async () => {
      await settleSummaries(other);
      return (await listSubscriptions(other, { state: "overdue" }, { now: NOW })).length;
    };
    expect(await states()).toBe(1);
    const [renewal] = await db
      .select({ renewal: subscriptionCharges.renewal, dueAt: subscriptionCharges.dueAt })
      .from(subscriptionCharges)
      .where(and(eq(subscriptionCharges.accountId, other), eq(subscriptionCharges.gatewayTransactionId, "tx-pix-2")));
    expect(renewal).toEqual({ renewal: true, dueAt: new Date("2026-11-20T15:00:00Z") });

    // The gateway confirms the payment: the ledger row changes, and only that queues the subscription.
    await db
      .update(ledgerTransactions)
      .set({ status: "COMPLETED", paidAt: new Date("2026-11-28T14:00:00Z") })
      .where(and(eq(ledgerTransactions.accountId, other), eq(ledgerTransactions.gatewayTransactionId, "tx-pix-2")));
    const queued = await db.execute<{ count: number }>(
      sql`select count(*)::int as count from subscription_recalcs where account_id = ${other} and subscription_id = ${row.id}`,
    );
    expect(Number(queued.rows[0].count)).toBe(1);
    expect(await states()).toBe(0);
    expect((await listSubscriptions(other, { state: "active" }, { now: NOW })).map((view) => view.subscription.id)).toEqual([row.id]);
    // A ledger change of no subscription's charge queues nothing.
    await db.insert(ledgerTransactions).values({
      accountId: other,
      kind: "external",
      origin: "webhook",
      identifier: "avulsa",
      gatewayTransactionId: "tx-avulsa",
      status: "COMPLETED",
      paidAt: NOW,
      amountCents: 100,
      createdAt: NOW,
    });
    const none = await db.execute<{ count: number }>(
      sql`select count(*)::int as count from subscription_recalcs where account_id = ${other}`,
    );
    expect(Number(none.rows[0].count)).toBe(0);
  });

  it("records a renewal's confirmed payment and failure once, and each overdue and lost episode once", async () => {
    const { settleSummaries } = await import("@/lib/subscriptions/queries");
    const { announceStates } = await import("@/lib/subscriptions/events");
    const { createAccount } = await import("@/lib/accounts/queries");
    const account = (
      await createAccount(
        { name: "Eventos", baseUrl: "http://127.0.0.1:9", publicKey: "pk3", secretKey: "sk_1234567890", mode: "test" },
        null,
      )
    ).id;
    const db = await getDb();
    const make = async (identifier: string, method: string) =>
      (
        await db
          .insert(subscriptions)
          .values({
            accountId: account,
            identifier,
            source: "notification",
            paymentMethod: method,
            amountCents: 4990,
            periodicityType: "MONTHS",
            periodicity: 1,
            clientName: "Maria Souza",
            startedAt: new Date("2026-09-01T15:00:00Z"),
          })
          .returning({ id: subscriptions.id })
      )[0].id;
    const charge = async (subscriptionId: string, tx: string, n: number, due: string, status: string, paidAt: string | null) => {
      await db.insert(ledgerTransactions).values({
        accountId: account,
        kind: "external",
        origin: "webhook",
        identifier: tx,
        gatewayTransactionId: tx,
        status,
        paidAt: paidAt ? new Date(paidAt) : null,
        amountCents: 4990,
        createdAt: new Date(due),
      });
      await db.insert(subscriptionCharges).values({ accountId: account, gatewayTransactionId: tx, subscriptionId, chargeNumber: n });
    };
    const facts = async () =>
      (
        await db.execute<{
          id: string;
          object_id: string;
          previous_status: string | null;
          status: string;
          snapshot: Record<string, unknown>;
        }>(
          sql`select id, object_id, previous_status, status, snapshot from event_outbox
              where account_id = ${account} and source = 'subscription' order by seq`,
        )
      ).rows.map((row) => ({ ...row, event: (row.snapshot as { event: string }).event }));

    const card = await make("cartao", "CREDIT_CARD");
    await charge(card, "tx-c1", 1, "2026-09-01T15:00:00Z", "COMPLETED", "2026-09-01T15:00:05Z");
    await charge(card, "tx-c2", 2, "2026-10-01T15:00:00Z", "COMPLETED", "2026-10-01T15:00:05Z");
    await charge(card, "tx-c3", 3, "2026-11-01T15:00:00Z", "FAILED", null);
    await settleSummaries(account);
    // The first charge is no renewal; the second is renewed, the third failed.
    expect((await facts()).map((f) => [f.event, (f.snapshot.charge as { gateway_transaction_id: string }).gateway_transaction_id])).toEqual(
      [
        ["renewed", "tx-c2"],
        ["renewal_failed", "tx-c3"],
      ],
    );
    const [renewed] = await facts();
    expect(renewed).toMatchObject({ object_id: card, previous_status: "awaiting_payment", status: "active" });
    expect(renewed.snapshot).toMatchObject({
      subscription: { id: card, identifier: "cartao", amount_cents: 4990, periodicity_type: "MONTHS", client_name: "Maria Souza" },
      charge: { charge_number: 2, status: "COMPLETED", paid_at: "2026-10-01T15:00:05.000Z" },
      state: { state: "active" },
    });
    // Recalculated again (the ledger row touched): nothing new.
    await db
      .update(ledgerTransactions)
      .set({ amountCents: 4990, status: "COMPLETED " })
      .where(eq(ledgerTransactions.gatewayTransactionId, "tx-c2"));
    await settleSummaries(account);
    expect(await facts()).toHaveLength(2);

    // Overdue from 5 Nov (grace 3 days after 1 Nov), lost from 5 Jan (3 periods missed).
    expect(await announceStates({ accountId: account, now: new Date("2026-11-04T12:00:00Z") })).toBe(0);
    expect(await announceStates({ accountId: account, now: new Date("2026-11-06T12:00:00Z") })).toBe(1);
    expect(await announceStates({ accountId: account, now: new Date("2026-11-20T12:00:00Z") })).toBe(0);
    const overdue = (await facts()).at(-1)!;
    expect(overdue).toMatchObject({ event: "overdue", previous_status: "awaiting_payment", status: "overdue" });
    expect(overdue.snapshot).toMatchObject({
      state: { state: "overdue", dueDay: "2026-11-01", days: 4, missedPeriods: 1 },
      charge: { gateway_transaction_id: "tx-c3", charge_number: 3 },
    });
    expect(await announceStates({ accountId: account, now: new Date("2027-01-06T12:00:00Z") })).toBe(1);
    expect(await announceStates({ accountId: account, now: new Date("2027-02-06T12:00:00Z") })).toBe(0);
    expect((await facts()).at(-1)).toMatchObject({ event: "lost", previous_status: "overdue", status: "lost" });
    expect(new Set((await facts()).map((f) => f.id)).size).toBe(4);
  });
});
