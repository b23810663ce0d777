import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { ledgerTransactions, recoveryMarks, subscriptionCharges, subscriptions } from "@/lib/db/schema";
import { bindDatabase } from "@/lib/testing/bind-database";
import { testDatabases } from "@/lib/testing/databases";
import { startSandbox } from "@/sandbox/app";

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");
process.env.APP_URL = "http://127.0.0.1:9/console";
process.env.WEBHOOK_APPLIER = "off";

const targets = await testDatabases();

/** recoveredRenewals reads the subscriptions' summaries: settled first, as the page does. */
async function recoveredAfterSettling(accountId: string, period: { from: Date; to: Date }, end: Date) {
  const { settleSummaries } = await import("@/lib/subscriptions/queries");
  const { recoveredRenewals } = await import("@/lib/subscriptions/dunning");
  await settleSummaries(accountId);
  return recoveredRenewals(accountId, period, end);
}
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dataDir: "memory://", webhookRetryMs: 50, quiet: true });
});
afterAll(async () => {
  await sandbox?.close();
});

const actor = { id: "user-dunning-test", email: "cobranca@example.test" };
const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const DELAYS = { pixDelayMs: 15 * MIN, boletoDelayMs: DAY };
const CLIENT = { clientName: "Maria Souza", clientEmail: "maria@example.com", clientDocument: "52998224725" };

type Charge = { n: number; at: Date; status: string; paidAt?: Date; method?: string; amountCents?: number; pixCode?: string };

describe.each(targets)("dunning of subscription renewals on $name", (target) => {
  bindDatabase(target);
  let accountId: string;

  beforeAll(async () => {
    const { createAccount } = await import("@/lib/accounts/queries");
    accountId = (
      await createAccount(
        {
          name: "Clube",
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

  /** A subscription learned from notifications, with its charges as ledger rows the gateway confirmed. */
  async function subscription(method: string, charges: Charge[]) {
    const db = await getDb();
    const identifier = `assin-${randomUUID().slice(0, 8)}`;
    const [row] = await db
      .insert(subscriptions)
      .values({
        accountId,
        identifier,
        source: "notification",
        paymentMethod: method,
        amountCents: 4990,
        periodicityType: "MONTHS",
        periodicity: 1,
        productName: "Clube do livro",
        gatewayStatus: "ACTIVE",
        startedAt: charges[0].at,
        ...CLIENT,
      })
      .returning();
    const ids: string[] = [];
    for (const charge of charges) {
      const gatewayTransactionId = `tx_${randomUUID()}`;
      const [ledger] = await db
        .insert(ledgerTransactions)
        .values({
          accountId,
          kind: "external",
          origin: "webhook",
          identifier: `${identifier}-${charge.n}`,
          gatewayTransactionId,
          status: charge.status,
          statusSource: "lookup",
          paidAt: charge.paidAt ?? null,
          paymentMethod: charge.method ?? method,
          amountCents: charge.amountCents ?? 4990,
          currency: "BRL",
          createdAt: charge.at,
          ...CLIENT,
          productName: "Clube do livro",
          gatewayRecord: charge.pixCode ? { pixInformation: { qrCode: charge.pixCode } } : null,
        })
        .returning({ id: ledgerTransactions.id });
      await db.insert(subscriptionCharges).values({ accountId, gatewayTransactionId, subscriptionId: row.id, chargeNumber: charge.n });
      ids.push(ledger.id);
    }
    return { id: row.id, identifier, charges: ids };
  }

  async function listed() {
    const { recoveryWorklist } = await import("@/lib/sales/queries");
    return (await recoveryWorklist(accountId, { ...DELAYS, limit: 500 })).items;
  }

  const now = Date.now();
  let pixSub: Awaited<ReturnType<typeof subscription>>;
  let cardSub: Awaited<ReturnType<typeof subscription>>;
  let firstOnly: Awaited<ReturnType<typeof subscription>>;

  it("lists a pending Pix renewal and a declined card renewal as renewals; a first charge is not one", async () => {
    pixSub = await subscription("PIX", [
      { n: 1, at: new Date(now - 20 * DAY), status: "COMPLETED", paidAt: new Date(now - 20 * DAY + MIN) },
      { n: 2, at: new Date(now - 2 * HOUR), status: "PENDING", pixCode: "00020101021226pixrenovacao" },
    ]);
    cardSub = await subscription("CREDIT_CARD", [
      { n: 1, at: new Date(now - 25 * DAY), status: "COMPLETED", paidAt: new Date(now - 25 * DAY) },
      { n: 2, at: new Date(now - HOUR), status: "DECLINED" },
    ]);
    firstOnly = await subscription("PIX", [{ n: 1, at: new Date(now - 3 * HOUR), status: "PENDING", pixCode: "00020101pixprimeira" }]);

    const items = await listed();
    const pixRenewal = items.find((item) => item.ledgerId === pixSub.charges[1]);
    expect(pixRenewal).toMatchObject({
      method: "PIX",
      payable: true,
      pixCode: "00020101021226pixrenovacao",
      renewal: { subscriptionId: pixSub.id, subscriptionIdentifier: pixSub.identifier, number: 1 },
    });
    const cardRenewal = items.find((item) => item.ledgerId === cardSub.charges[1]);
    // Declined: listed at once, with nothing to pay.
    expect(cardRenewal).toMatchObject({
      method: "CREDIT_CARD",
      payable: false,
      pixCode: null,
      paymentUrl: null,
      digitableLine: null,
      renewal: { subscriptionId: cardSub.id, number: 1 },
    });
    const first = items.find((item) => item.ledgerId === firstOnly.charges[0]);
    expect(first).toMatchObject({ payable: true, renewal: null });
    // Paid first charges are never listed; a declined charge that is not a renewal is not either.
    expect(items.some((item) => item.ledgerId === pixSub.charges[0] || item.ledgerId === cardSub.charges[0])).toBe(false);
    const lone = await subscription("CREDIT_CARD", [{ n: 1, at: new Date(now - HOUR), status: "DECLINED" }]);
    expect((await listed()).some((item) => item.ledgerId === lone.charges[0])).toBe(false);
  });

  it("the list finds renewals that can no longer be paid through an index of the same spellings", async () => {
    const { spellingsOf, transactionMachine } = await import("@/lib/status/machine");
    const db = await getDb();
    const [index] = (
      await db.execute<{ indexdef: string }>(sql`select indexdef from pg_indexes where indexname = 'ledger_account_unpayable_idx'`)
    ).rows;
    for (const state of ["failed", "canceled", "expired"] as const) {
      for (const spelling of spellingsOf(transactionMachine, state)) expect(index!.indexdef).toContain(`'${spelling}'`);
    }
  });

  it("a renewal of a subscription canceled at the gateway is not worked on once it failed", async () => {
    const canceled = await subscription("CREDIT_CARD", [
      { n: 1, at: new Date(now - 25 * DAY), status: "COMPLETED", paidAt: new Date(now - 25 * DAY) },
      { n: 2, at: new Date(now - HOUR), status: "FAILED" },
    ]);
    const db = await getDb();
    await db.update(subscriptions).set({ gatewayStatus: "CANCELED" }).where(eq(subscriptions.id, canceled.id));
    expect((await listed()).some((item) => item.ledgerId === canceled.charges[1])).toBe(false);
  });

  it("a paid renewal leaves the list", async () => {
    const db = await getDb();
    await db
      .update(ledgerTransactions)
      .set({ status: "COMPLETED", paidAt: new Date() })
      .where(eq(ledgerTransactions.id, pixSub.charges[1]));
    expect((await listed()).some((item) => item.ledgerId === pixSub.charges[1])).toBe(false);
  });

  it("Nova cobrança: a Pix for the renewal's amount and customer, named for it; the same submission twice charges once", async () => {
    const { chargePrefill } = await import("@/lib/charges/prefill");
    const { createCharge } = await import("@/lib/charges/service");
    const prefill = await chargePrefill(accountId, "pix", cardSub.charges[1]);
    expect(prefill).toMatchObject({
      state: "copied",
      renewal: { subscriptionId: cardSub.id, number: 1 },
      values: {
        amount: "49,90",
        client: { name: "Maria Souza", email: "maria@example.com", document: "529.982.247-25" },
      },
    });
    if (prefill.state !== "copied") throw new Error("not copied");
    const db = await getDb();
    const [renewal] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, cardSub.charges[1]));
    expect(prefill.values.metadata).toEqual([{ key: "renovacao", value: renewal.gatewayTransactionId }]);

    const identifier = `pix-renov-${randomUUID().slice(0, 8)}`;
    const values = { ...prefill.values, client: { ...prefill.values.client!, phone: "(11) 98765-4321" }, identifier };
    const context = { accountId, actor, ip: "10.1.2.3" };
    // A double click: both submissions at once, then a retry.
    const [one, two] = await Promise.all([createCharge("pix", values, context), createCharge("pix", values, context)]);
    const three = await createCharge("pix", values, context);
    expect(new Set([one.row.id, two.row.id, three.row.id]).size).toBe(1);
    expect([one.replayed, two.replayed, three.replayed].filter((replayed) => !replayed)).toHaveLength(1);
    expect(three.row.submission).toBe("SUBMITTED");
    const rows = await db
      .select()
      .from(ledgerTransactions)
      .where(and(eq(ledgerTransactions.accountId, accountId), eq(ledgerTransactions.identifier, identifier)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amountCents: 4990, paymentMethod: "PIX", clientName: "Maria Souza" });
    expect((rows[0].request as { metadata?: Record<string, string> }).metadata).toEqual({ renovacao: renewal.gatewayTransactionId });
    // The gateway holds one transaction for it.
    const lookup = await fetch(`${sandbox.url}/api/v1/gateway/transactions?clientIdentifier=${identifier}`, {
      headers: { "x-public-key": "pk_sandbox_demo", "x-secret-key": "sk_sandbox_demo" },
    });
    expect(lookup.status).toBe(200);
    expect((await lookup.json()) as { id: string }).toMatchObject({ id: rows[0].gatewayTransactionId });
  });

  describe("recovered renewals", () => {
    // A month of renewals due, all in the past: [from, to), paid by `end`.
    const from = new Date(now - 30 * DAY);
    const to = new Date(now - 10 * DAY);
    const end = new Date(now - DAY);
    const at = (daysAgo: number) => new Date(now - daysAgo * DAY);
    let other: string;

    async function contacted(ledgerId: string, when: Date) {
      const db = await getDb();
      await db.insert(recoveryMarks).values({ accountId, ledgerId, state: "contacted", byEmail: actor.email, at: when });
    }

    it("counts a renewal paid after a contact, not one paid without a contact or before it", async () => {
      const base = await recoveredAfterSettling(accountId, { from, to }, end);
      expect(base).toEqual({ count: 0, amountCents: 0 });

      // Contacted on day 19, paid on day 18: recovered.
      const a = await subscription("PIX", [
        { n: 1, at: at(50), status: "COMPLETED", paidAt: at(50) },
        { n: 2, at: at(20), status: "COMPLETED", paidAt: at(18), amountCents: 4990 },
      ]);
      await contacted(a.charges[1], at(19));
      // Paid with no contact: not recovered.
      await subscription("PIX", [
        { n: 1, at: at(50), status: "COMPLETED", paidAt: at(50) },
        { n: 2, at: at(20), status: "COMPLETED", paidAt: at(19) },
      ]);
      // Paid on day 19, contacted on day 18 (after): not recovered.
      const c = await subscription("PIX", [
        { n: 1, at: at(50), status: "COMPLETED", paidAt: at(50) },
        { n: 2, at: at(20), status: "COMPLETED", paidAt: at(19) },
      ]);
      await contacted(c.charges[1], at(18));
      // A first charge paid after a contact is a recovered sale, not a recovered renewal.
      const d = await subscription("PIX", [{ n: 1, at: at(20), status: "COMPLETED", paidAt: at(18) }]);
      await contacted(d.charges[0], at(19));
      // Contacted and paid, but paid after `end`: not yet.
      const e = await subscription("PIX", [
        { n: 1, at: at(50), status: "COMPLETED", paidAt: at(50) },
        { n: 2, at: at(15), status: "COMPLETED", paidAt: new Date(now - HOUR) },
      ]);
      await contacted(e.charges[1], at(14));
      // Due outside the period: not counted in it.
      const f = await subscription("PIX", [
        { n: 1, at: at(40), status: "COMPLETED", paidAt: at(40) },
        { n: 2, at: at(5), status: "COMPLETED", paidAt: at(3) },
      ]);
      await contacted(f.charges[1], at(4));

      expect(await recoveredAfterSettling(accountId, { from, to }, end)).toEqual({ count: 1, amountCents: 4990 });
      expect(await recoveredAfterSettling(accountId, { from, to }, new Date(now))).toEqual({ count: 2, amountCents: 9980 });
    });

    it("counts a declined renewal whose fresh charge (Nova cobrança) was paid after a contact, once; the overview agrees", async () => {
      const { salesOverview } = await import("@/lib/sales/queries");
      const { createAccount } = await import("@/lib/accounts/queries");
      // An account of its own, so the overview's recovered revenue is this test's alone.
      other = (
        await createAccount(
          {
            name: "Outro",
            baseUrl: sandbox.url,
            publicKey: "pk_sandbox_demo",
            secretKey: "sk_sandbox_demo",
            webhookToken: null,
            mode: "test",
          },
          null,
        )
      ).id;
      const mine = accountId;
      accountId = other;
      try {
        const g = await subscription("CREDIT_CARD", [
          { n: 1, at: at(45), status: "COMPLETED", paidAt: at(45) },
          { n: 2, at: at(15), status: "DECLINED", amountCents: 9700 },
        ]);
        const db = await getDb();
        const [renewal] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, g.charges[1]));
        await contacted(g.charges[1], at(14));
        // The fresh Pix made for it, paid on day 12: as the console's charge service leaves it once the gateway confirmed.
        await db.insert(ledgerTransactions).values({
          accountId,
          kind: "pix_charge",
          origin: "console",
          submission: "SUBMITTED",
          identifier: `pix-renov-${randomUUID().slice(0, 8)}`,
          gatewayTransactionId: `tx_${randomUUID()}`,
          status: "COMPLETED",
          statusSource: "lookup",
          paidAt: at(12),
          paymentMethod: "PIX",
          amountCents: 9700,
          currency: "BRL",
          createdAt: at(14),
          request: { amount: 97, metadata: { renovacao: renewal.gatewayTransactionId } },
        });
        // A second contact (on the fresh charge's own row) does not count it twice.
        const [fresh] = await db
          .select({ id: ledgerTransactions.id })
          .from(ledgerTransactions)
          .where(and(eq(ledgerTransactions.accountId, accountId), eq(ledgerTransactions.kind, "pix_charge")));
        await contacted(fresh.id, at(13));

        expect(await recoveredAfterSettling(accountId, { from, to }, end)).toEqual({ count: 1, amountCents: 9700 });
        // The declined renewal has left the recovery list: its fresh charge is paid.
        expect((await listed()).some((item) => item.ledgerId === g.charges[1])).toBe(false);
        // The overview's recovered revenue: the fresh charge is a sale paid after a contact (on the renewal and on itself), counted once.
        const day = (d: Date) => new Date(d.getTime() - 3 * HOUR).toISOString().slice(0, 10);
        const overview = await salesOverview(accountId, { from: day(at(20)), to: day(at(2)) });
        const brl = overview.current.byCurrency.find((figures) => figures.currency === "BRL")!;
        expect({ count: brl.recoveredCount, cents: brl.recoveredCents }).toEqual({ count: 1, cents: 9700 });
      } finally {
        accountId = mine;
      }
    });
  });
});
