import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { auditLog, ledgerTransactions, recoveryMarks } from "@/lib/db/schema";
import type { TransactionRecord } from "@/lib/gateway";
import { bindDatabase } from "@/lib/testing/bind-database";
import { testDatabases } from "@/lib/testing/databases";
import { saoPauloDate } from "@/lib/i18n/format";

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");
// The tests drive the applier themselves.
process.env.WEBHOOK_APPLIER = "off";
process.env.APP_URL = "http://127.0.0.1:9/console";

const targets = await testDatabases();
const TOKEN = "wht_sales_test_9f8e7d";
const actor = { id: "user-sales-test", email: "vendas@example.test" };
const MIN = 60_000;
const DAY = 86_400_000;

type Row = typeof ledgerTransactions.$inferInsert;

async function newAccount(name: string): Promise<string> {
  const { createAccount } = await import("@/lib/accounts/queries");
  const account = await createAccount(
    { name, baseUrl: "http://127.0.0.1:9", publicKey: "pk_sales", secretKey: "sk_sales_0000", webhookToken: TOKEN, mode: "test" },
    null,
  );
  return account.id;
}

/**
 * Ledger rows as the console leaves them, inserted directly: a console charge the gateway answered
 * (`origin: console`, `submission: SUBMITTED`) unless said otherwise. `paidAt` is what only the
 * gateway's creation answer or its lookup sets; a notification alone leaves it null and parks its
 * status in `pendingStatus`.
 */
async function insertRows(accountId: string, rows: (Partial<Row> & { identifier: string })[]): Promise<Record<string, string>> {
  const db = await getDb();
  const inserted = await db
    .insert(ledgerTransactions)
    .values(
      rows.map((row) => ({
        accountId,
        kind: "pix_charge" as const,
        origin: "console" as const,
        submission: "SUBMITTED" as const,
        statusSource: "creation" as const,
        status: "PENDING",
        paymentMethod: "PIX",
        currency: "BRL",
        gatewayTransactionId: `tx_${row.identifier}_${randomUUID().slice(0, 8)}`,
        ...row,
      })),
    )
    .returning({ id: ledgerTransactions.id, identifier: ledgerTransactions.identifier });
  return Object.fromEntries(inserted.map((row) => [row.identifier, row.id]));
}

const at = (iso: string) => new Date(iso);

/** What a charge form leaves after the gateway's 2xx: the console's own recording path, the gateway answer stubbed. */
async function consoleCharge(
  accountId: string,
  request: Record<string, unknown>,
  options: { kind?: "pix_charge" | "boleto_charge"; method?: string; gatewayId?: string } = {},
) {
  const { runOperation } = await import("@/lib/charges/submission");
  const identifier = String(request.identifier);
  const gatewayId = options.gatewayId ?? `tx_${randomUUID()}`;
  const { row } = await runOperation({
    accountId,
    kind: options.kind ?? "pix_charge",
    identifier,
    storedRequest: request,
    summary: {
      amountCents: Math.round(Number(request.amount) * 100),
      currency: "BRL",
      paymentMethod: options.method ?? "PIX",
      clientName: (request.client as { name?: string } | undefined)?.name,
      clientEmail: (request.client as { email?: string } | undefined)?.email,
      clientDocument: (request.client as { document?: string } | undefined)?.document,
    },
    actor,
    send: async () => ({ transactionId: gatewayId, status: "OK", fee: 1.5, order: { id: "ord_1", url: "https://pay.example/o/ord_1" } }),
    read: (answer: { transactionId: string; status: string }) => ({ gatewayTransactionId: answer.transactionId, status: answer.status }),
  });
  return { row, gatewayId };
}

/** The gateway's own lookup says the charge is paid: the one way the console believes a payment. */
async function gatewayConfirmsPaid(ledgerId: string, gatewayId: string, identifier: string, payedAt: Date, amount: number) {
  const { applyLookup } = await import("@/lib/ledger/settle");
  const record = {
    id: gatewayId,
    clientIdentifier: identifier,
    currency: "BRL",
    amount,
    chargeAmount: amount,
    status: "COMPLETED",
    paymentMethod: "PIX",
    payedAt: payedAt.toISOString(),
  } as TransactionRecord;
  return applyLookup({ id: ledgerId }, record);
}

async function deliver(accountId: string, payload: Record<string, unknown>) {
  const { receiveNotification } = await import("@/lib/notifications/ingest");
  const { applyPendingNotifications } = await import("@/lib/notifications/applier");
  const answer = await receiveNotification({ accountId, body: JSON.stringify(payload), sourceIp: "203.0.113.9" });
  expect(answer.status).toBe(200);
  await applyPendingNotifications();
}

describe.each(targets)("sales queries on $name", (target) => {
  bindDatabase(target);

  describe("a fixed data set, hand-computed", () => {
    // Current period: São Paulo days 2026-03-02 and 03-03 = [2026-03-02T03:00Z, 2026-03-04T03:00Z).
    // Comparison: 2026-02-28 and 03-01 = [2026-02-28T03:00Z, 2026-03-02T03:00Z).
    const period = { from: "2026-03-02", to: "2026-03-03", compareFrom: "2026-02-28", compareTo: "2026-03-01" };
    let accountId: string;
    let ids: Record<string, string>;

    it("loads the data set", async () => {
      accountId = await newAccount("Loja fixa");
      const other = await newAccount("Outra loja");
      const paid = { status: "COMPLETED", statusSource: "lookup" as const };
      ids = await insertRows(accountId, [
        // s1: Pix, paid 10 min after creation, São Paulo day 03-02.
        {
          identifier: "s1",
          ...paid,
          amountCents: 10_000,
          createdAt: at("2026-03-02T12:00:00Z"),
          paidAt: at("2026-03-02T12:10:00Z"),
          utmSource: "google",
          productName: "Curso A",
          originLabel: "bio-instagram",
        },
        // s2: paid at 02:30 UTC on 03-03, which is 23:30 of 03-02 in São Paulo: a sale of 03-02.
        {
          identifier: "s2",
          ...paid,
          amountCents: 5_000,
          createdAt: at("2026-03-03T02:00:00Z"),
          paidAt: at("2026-03-03T02:30:00Z"),
          utmSource: "facebook",
          productName: "Curso A",
        },
        // s3: card, paid, then refunded (confirmed status).
        {
          identifier: "s3",
          kind: "card_charge",
          paymentMethod: "CREDIT_CARD",
          status: "REFUNDED",
          statusSource: "lookup",
          amountCents: 20_000,
          createdAt: at("2026-03-03T15:00:00Z"),
          paidAt: at("2026-03-03T15:00:00Z"),
          utmSource: "google",
          productName: "Mentoria",
        },
        // s4: boleto created in the comparison period, paid in the current one, then charged back; no origin.
        {
          identifier: "s4",
          kind: "boleto_charge",
          paymentMethod: "BOLETO",
          status: "charged-back",
          statusSource: "lookup",
          amountCents: 8_000,
          createdAt: at("2026-02-28T12:00:00Z"),
          paidAt: at("2026-03-03T13:00:00Z"),
        },
        // s5: a USD card sale: never added to BRL.
        {
          identifier: "s5",
          kind: "card_charge",
          paymentMethod: "CREDIT_CARD",
          currency: "USD",
          ...paid,
          amountCents: 3_000,
          createdAt: at("2026-03-02T20:00:00Z"),
          paidAt: at("2026-03-02T20:00:00Z"),
          utmSource: "google",
        },
        // s6: paid 23:59 of 03-03 in São Paulo (02:59 UTC on 03-04): the period's last minute. No origin.
        {
          identifier: "s6",
          ...paid,
          amountCents: 7_000,
          createdAt: at("2026-03-04T02:50:00Z"),
          paidAt: at("2026-03-04T02:59:00Z"),
        },
        // s7: created in the period, paid at 00:00 of 03-04 in São Paulo: converted, but not a sale of the period.
        {
          identifier: "s7",
          ...paid,
          amountCents: 4_000,
          createdAt: at("2026-03-04T02:55:00Z"),
          paidAt: at("2026-03-04T03:00:00Z"),
          utmSource: "facebook",
        },
        // s8: paid 23:59 of 03-01 in São Paulo: the comparison period's.
        {
          identifier: "s8",
          ...paid,
          amountCents: 6_000,
          createdAt: at("2026-03-02T02:29:00Z"),
          paidAt: at("2026-03-02T02:59:00Z"),
        },
        // s9: a card sale of the comparison period.
        {
          identifier: "s9",
          kind: "card_charge",
          paymentMethod: "CREDIT_CARD",
          ...paid,
          amountCents: 2_500,
          createdAt: at("2026-02-28T10:00:00Z"),
          paidAt: at("2026-02-28T10:00:00Z"),
        },
        // u1: a notification said paid, the gateway has not confirmed it: created, not a sale.
        {
          identifier: "u1",
          status: "PENDING",
          pendingStatus: "COMPLETED",
          pendingStatusAt: at("2026-03-02T10:05:00Z"),
          lastWebhookStatus: "COMPLETED",
          amountCents: 99_900,
          createdAt: at("2026-03-02T10:00:00Z"),
          utmSource: "google",
        },
        // u2: a status spelled like paid with no confirmed payment time: not a sale either.
        { identifier: "u2", status: "PAID", statusSource: "webhook", amountCents: 11_100, createdAt: at("2026-03-02T10:30:00Z") },
        // c1, c2: created, unpaid; c3: a declined card.
        { identifier: "c1", amountCents: 3_000, createdAt: at("2026-03-02T14:00:00Z"), utmSource: "facebook" },
        { identifier: "c2", kind: "boleto_charge", paymentMethod: "BOLETO", amountCents: 4_500, createdAt: at("2026-03-03T10:00:00Z") },
        {
          identifier: "c3",
          kind: "card_charge",
          paymentMethod: "CREDIT_CARD",
          status: "FAILED",
          amountCents: 9_000,
          createdAt: at("2026-03-03T11:00:00Z"),
          utmSource: "google",
        },
        // Not charges the gateway created, or not sales: a rejected submission, a subscription definition, a Pix deposit.
        { identifier: "x1", submission: "REJECTED", status: null, amountCents: 1_000, createdAt: at("2026-03-02T13:00:00Z") },
        {
          identifier: "x2",
          kind: "pix_subscription",
          ...paid,
          amountCents: 1_000,
          createdAt: at("2026-03-02T13:00:00Z"),
          paidAt: at("2026-03-02T13:00:00Z"),
        },
        {
          identifier: "x3",
          kind: "pix_deposit",
          ...paid,
          amountCents: 1_000,
          createdAt: at("2026-03-02T13:00:00Z"),
          paidAt: at("2026-03-02T13:00:00Z"),
        },
      ]);
      // Another account's sale in the period: never counted here.
      await insertRows(other, [
        { identifier: "o1", ...paid, amountCents: 50_000, createdAt: at("2026-03-02T12:00:00Z"), paidAt: at("2026-03-02T12:00:00Z") },
      ]);
      // Marks written directly to place them in time: s1 contacted before it was paid (recovered), s2 after (not),
      // s3 marked lost before it was paid (not a contact).
      const db = await getDb();
      await db.insert(recoveryMarks).values([
        { accountId, ledgerId: ids.s1!, state: "contacted", at: at("2026-03-02T12:05:00Z") },
        { accountId, ledgerId: ids.s2!, state: "contacted", at: at("2026-03-03T02:40:00Z") },
        { accountId, ledgerId: ids.s3!, state: "lost", at: at("2026-03-03T14:00:00Z") },
      ]);
    });

    it("overview: confirmed revenue per currency, São Paulo days, rates, Pix median, recovered revenue", async () => {
      const { salesOverview } = await import("@/lib/sales/queries");
      const { current, comparison } = await salesOverview(accountId, period);
      expect(current.byCurrency.map((c) => c.currency)).toEqual(["BRL", "USD"]);
      const brl = current.byCurrency[0]!;
      // s1 + s2 + s3 + s4 + s6.
      expect(brl).toMatchObject({
        salesCount: 5,
        revenueCents: 50_000,
        averageTicketCents: 10_000,
        refundedCount: 1,
        refundedCents: 20_000,
        refundRate: 0.2,
        chargedBackCount: 1,
        chargedBackCents: 8_000,
        chargebackRate: 0.2,
        // s1 600 s, s2 1,800 s, s6 540 s.
        pixMedianSecondsToPay: 600,
        recoveredCount: 1,
        recoveredCents: 10_000,
      });
      const method = (figures: typeof brl, name: string) => figures.methods.find((m) => m.method === name);
      // Created in the period: s1 s2 s6 s7 u1 c1 (u2 was created too: a status name is not a payment); paid by now: s1 s2 s6 s7.
      expect(method(brl, "PIX")).toMatchObject({
        rateKind: "conversion",
        createdCount: 7,
        paidOfCreatedCount: 4,
        rate: 4 / 7,
        salesCount: 3,
        revenueCents: 22_000,
      });
      expect(method(brl, "CREDIT_CARD")).toMatchObject({
        rateKind: "approval",
        createdCount: 2,
        paidOfCreatedCount: 1,
        rate: 0.5,
        salesCount: 1,
      });
      expect(method(brl, "BOLETO")).toMatchObject({ createdCount: 1, paidOfCreatedCount: 0, rate: 0, salesCount: 1, revenueCents: 8_000 });
      const usd = current.byCurrency[1]!;
      expect(usd).toMatchObject({
        salesCount: 1,
        revenueCents: 3_000,
        averageTicketCents: 3_000,
        pixMedianSecondsToPay: null,
        recoveredCount: 0,
      });
      expect(method(usd, "CREDIT_CARD")).toMatchObject({ createdCount: 1, paidOfCreatedCount: 1, rate: 1 });

      expect(current.daily).toEqual([
        { day: "2026-03-02", currency: "BRL", salesCount: 2, revenueCents: 15_000 },
        { day: "2026-03-03", currency: "BRL", salesCount: 3, revenueCents: 35_000 },
        { day: "2026-03-02", currency: "USD", salesCount: 1, revenueCents: 3_000 },
        { day: "2026-03-03", currency: "USD", salesCount: 0, revenueCents: 0 },
      ]);

      // Comparison: s8 (Pix, 1,800 s) and s9; created in it: s8, s9 and the boleto s4 (paid later).
      expect(comparison.period).toEqual({ from: "2026-02-28", to: "2026-03-01" });
      expect(comparison.byCurrency.map((c) => c.currency)).toEqual(["BRL"]);
      expect(comparison.byCurrency[0]).toMatchObject({
        salesCount: 2,
        revenueCents: 8_500,
        averageTicketCents: 4_250,
        pixMedianSecondsToPay: 1_800,
        refundRate: 0,
        recoveredCount: 0,
      });
      expect(method(comparison.byCurrency[0]!, "BOLETO")).toMatchObject({ createdCount: 1, paidOfCreatedCount: 1, salesCount: 0 });
      expect(comparison.daily.map((d) => [d.day, d.salesCount, d.revenueCents])).toEqual([
        ["2026-02-28", 1, 2_500],
        ["2026-03-01", 1, 6_000],
      ]);
    });

    it("the comparison defaults to the days just before", async () => {
      const { salesOverview } = await import("@/lib/sales/queries");
      const { comparison } = await salesOverview(accountId, { from: "2026-03-02", to: "2026-03-03" });
      expect(comparison.period).toEqual({ from: "2026-02-28", to: "2026-03-01" });
      expect(comparison.byCurrency[0]).toMatchObject({ salesCount: 2, revenueCents: 8_500 });
    });

    it("by origin: every sale has a row, those with no origin under 'direto / desconhecida'", async () => {
      const { salesByOrigin, DIRECT_ORIGIN_LABEL_KEY } = await import("@/lib/sales/queries");
      const rows = await salesByOrigin(accountId, { from: period.from, to: period.to }, { dimension: "utm_source" });
      expect(rows.map((r) => r.value)).toEqual(["google", null, "facebook"]);
      const [google, direct, facebook] = rows;
      // Created: s1 s3 s5 u1 c3; paid by now: s1 s3 s5. Sales: s1 s3 (BRL), s5 (USD); s3 refunded.
      expect(google).toMatchObject({
        labelKey: null,
        createdCount: 5,
        paidOfCreatedCount: 3,
        conversionRate: 0.6,
        salesCount: 3,
        refundedCount: 1,
        refundRate: 1 / 3,
        chargedBackCount: 0,
        chargebackRate: 0,
      });
      // Rows written straight into the ledger have no fee reported: nothing taken off, each counted (net-revenue.test.ts has fees).
      const noFees = { feesCents: 0, netRevenueCents: 30_000, feesUntoldCount: 2 };
      const notBrl = { feesCents: null, netRevenueCents: null, feesUntoldCount: null };
      expect(google!.byCurrency).toEqual([
        { currency: "BRL", salesCount: 2, revenueCents: 30_000, refundedCount: 1, chargedBackCount: 0, ...noFees },
        { currency: "USD", salesCount: 1, revenueCents: 3_000, refundedCount: 0, chargedBackCount: 0, ...notBrl },
      ]);
      // No origin: s4 (created earlier) and s6 sold; created in the period: s6, u2 and c2.
      expect(direct).toMatchObject({
        labelKey: DIRECT_ORIGIN_LABEL_KEY,
        createdCount: 3,
        paidOfCreatedCount: 1,
        salesCount: 2,
        chargedBackCount: 1,
        chargebackRate: 0.5,
      });
      expect(direct!.byCurrency).toEqual([
        { currency: "BRL", salesCount: 2, revenueCents: 15_000, refundedCount: 0, chargedBackCount: 1, ...noFees, netRevenueCents: 15_000 },
      ]);
      // Created: s2 s7 c1; paid: s2 s7; sold in the period: s2.
      expect(facebook).toMatchObject({
        createdCount: 3,
        paidOfCreatedCount: 2,
        salesCount: 1,
        byCurrency: [expect.objectContaining({ revenueCents: 5_000 })],
      });
      // Every sale of the period is in exactly one row: the rows add up to the overview.
      const brlRevenue = rows
        .flatMap((r) => r.byCurrency)
        .filter((c) => c.currency === "BRL")
        .reduce((sum, c) => sum + c.revenueCents, 0);
      expect(brlRevenue).toBe(50_000);

      const products = await salesByOrigin(accountId, { from: period.from, to: period.to }, { dimension: "product" });
      expect(products.map((r) => [r.value, r.salesCount])).toEqual([
        [null, 3],
        ["Curso A", 2],
        ["Mentoria", 1],
      ]);
      const labels = await salesByOrigin(accountId, { from: period.from, to: period.to }, { dimension: "origin_label" });
      expect(labels.find((r) => r.value === "bio-instagram")).toMatchObject({ salesCount: 1, createdCount: 1 });
      expect(labels.reduce((sum, r) => sum + r.salesCount, 0)).toBe(6);
    });

    it("refuses periods that are not real São Paulo days", async () => {
      const { salesOverview, salesByOrigin } = await import("@/lib/sales/queries");
      await expect(salesOverview(accountId, { from: "2026-03-03", to: "2026-03-02" })).rejects.toThrow(/invalid sales period/);
      await expect(salesByOrigin(accountId, { from: "2026-02-30", to: "2026-03-02" }, { dimension: "offer" })).rejects.toThrow(/invalid/);
    });
  });

  describe("recovery", () => {
    // 2026-03-10 12:00 in São Paulo.
    const now = at("2026-03-10T15:00:00Z");
    const delays = { pixDelayMs: 15 * MIN, boletoDelayMs: DAY, now };
    let accountId: string;
    let ids: Record<string, string>;

    it("lists unpaid Pix after the delay and boletos a day after their due date, nothing else", async () => {
      accountId = await newAccount("Recuperação");
      const other = await newAccount("Outra");
      const ago = (ms: number) => new Date(now.getTime() - ms);
      const boleto = { kind: "boleto_charge" as const, paymentMethod: "BOLETO" };
      ids = await insertRows(accountId, [
        {
          identifier: "pix-late",
          amountCents: 15_000,
          createdAt: ago(20 * MIN),
          clientName: "Ana Lima",
          productName: "Curso A",
          utmSource: "google",
        },
        { identifier: "pix-early", createdAt: ago(10 * MIN) },
        { identifier: "pix-canceled", status: "CANCELED", statusSource: "lookup", createdAt: ago(60 * MIN) },
        { identifier: "pix-expired", status: "EXPIRED", statusSource: "lookup", createdAt: ago(60 * MIN) },
        {
          identifier: "pix-paid",
          status: "COMPLETED",
          statusSource: "lookup",
          createdAt: ago(60 * MIN),
          paidAt: ago(50 * MIN),
        },
        // The gateway is being asked about a paid notification: not a customer to chase.
        { identifier: "pix-confirming", pendingStatus: "COMPLETED", pendingStatusAt: ago(30 * MIN), createdAt: ago(60 * MIN) },
        { identifier: "pix-old", createdAt: ago(40 * DAY) },
        { identifier: "pix-unknown-outcome", submission: "UNKNOWN", status: null, createdAt: ago(60 * MIN) },
        { identifier: "deposit", kind: "pix_deposit", createdAt: ago(60 * MIN) },
        // Due 03-09: listed from 03-10 00:00 in São Paulo.
        { identifier: "boleto-due-yesterday", ...boleto, request: { dueDate: "2026-03-09" }, createdAt: ago(5 * DAY) },
        { identifier: "boleto-due-today", ...boleto, request: { dueDate: "2026-03-10" }, createdAt: ago(5 * DAY) },
        // No due date in the request: the gateway's record has it.
        {
          identifier: "boleto-gateway-due",
          ...boleto,
          origin: "webhook",
          kind: "external",
          submission: null,
          gatewayRecord: { boletoInformation: { dueDate: "2026-03-08", pdfUrl: "https://gw.example/boleto.pdf" } },
          createdAt: ago(6 * DAY),
        },
        // No due date anywhere: creation (03-08 in São Paulo) + 3 days = 03-11, not yet.
        { identifier: "boleto-default-due", ...boleto, createdAt: at("2026-03-08T12:00:00Z") },
        // A malformed date in a gateway's record does not fail the list.
        {
          identifier: "boleto-bad-due",
          ...boleto,
          gatewayRecord: { boletoInformation: { dueDate: "2026-02-31" } },
          createdAt: ago(20 * DAY),
        },
      ]);
      await insertRows(other, [{ identifier: "pix-other", createdAt: ago(20 * MIN) }]);

      const { recoveryWorklist } = await import("@/lib/sales/queries");
      const list = await recoveryWorklist(accountId, delays);
      expect(list.items.map((i) => i.identifier)).toEqual(["pix-late", "boleto-due-yesterday", "boleto-gateway-due", "boleto-bad-due"]);
      expect(list.total).toBe(4);
      expect(list.nextCursor).toBeNull();
      const late = list.items[0]!;
      expect(late).toMatchObject({
        method: "PIX",
        amountCents: 15_000,
        currency: "BRL",
        customer: { name: "Ana Lima" },
        product: "Curso A",
        origin: { utmSource: "google", originLabel: null },
        ageMs: 20 * MIN,
        dueDate: null,
      });
      expect(list.items[1]).toMatchObject({ method: "BOLETO", dueDate: "2026-03-09" });
      expect(list.items[2]).toMatchObject({ dueDate: "2026-03-08", paymentUrl: "https://gw.example/boleto.pdf" });

      // Pages by cursor.
      const first = await recoveryWorklist(accountId, { ...delays, limit: 2 });
      expect(first.items.map((i) => i.identifier)).toEqual(["pix-late", "boleto-due-yesterday"]);
      const second = await recoveryWorklist(accountId, { ...delays, limit: 2, cursor: first.nextCursor });
      expect(second.items.map((i) => i.identifier)).toEqual(["boleto-gateway-due", "boleto-bad-due"]);
      expect(second.total).toBe(4);
      // A cursor from the address bar with a time Postgres refuses (year 0) or no time at all is the first page, not an error.
      for (const bad of [
        ["0000-01-01 00:00:00+00", "x"],
        ["not a time", "x"],
        ["2026-03-09 10:00:00+00", "bad id!"],
      ]) {
        const cursor = Buffer.from(JSON.stringify(bad)).toString("base64url");
        expect((await recoveryWorklist(accountId, { ...delays, limit: 2, cursor })).items.map((i) => i.identifier)).toEqual(
          first.items.map((i) => i.identifier),
        );
      }

      // Settings move the thresholds: a one-minute Pix delay lists the early one; two days hide yesterday's boleto.
      const tighter = await recoveryWorklist(accountId, { pixDelayMs: MIN, boletoDelayMs: 2 * DAY, now });
      expect(tighter.items.map((i) => i.identifier)).toEqual(["pix-early", "pix-late", "boleto-gateway-due", "boleto-bad-due"]);
    });

    it("a row leaves the list when paid, cancelled or marked", async () => {
      const { recoveryWorklist, markRecovery, recoveryMarksOf, RecoveryTargetNotFoundError } = await import("@/lib/sales/queries");
      const db = await getDb();
      await db
        .update(ledgerTransactions)
        .set({ status: "COMPLETED", statusSource: "lookup", paidAt: now })
        .where(eq(ledgerTransactions.id, ids["pix-late"]!));
      await db
        .update(ledgerTransactions)
        .set({ status: "CANCELED", statusSource: "lookup" })
        .where(eq(ledgerTransactions.id, ids["boleto-bad-due"]!));
      await markRecovery(accountId, { ledgerId: ids["boleto-due-yesterday"]!, state: "lost", note: "Desistiu da compra" }, actor);
      // The customer's phone of a charge the console did not create comes from its latest notification.
      const [external] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, ids["boleto-gateway-due"]!));
      await deliver(accountId, {
        event: "TRANSACTION_CREATED",
        token: TOKEN,
        offerCode: "OFF-9",
        checkoutUrl: "https://pay.example/c/xyz?utm_source=newsletter",
        client: { name: "Diego Rocha", email: "diego@example.com", phone: "(21) 99876-5432", cpf: "529.982.247-25" },
        transaction: {
          id: external!.gatewayTransactionId,
          identifier: "boleto-gateway-due",
          status: "PENDING",
          paymentMethod: "BOLETO",
          amount: 45,
          currency: "BRL",
          createdAt: external!.createdAt.toISOString(),
          // The notification's transaction becomes the row's latest gateway record: it names the due date too.
          boletoInformation: { dueDate: "2026-03-08", pdfUrl: "https://gw.example/boleto.pdf" },
        },
      });
      const list = await recoveryWorklist(accountId, delays);
      expect(list.items.map((i) => i.identifier)).toEqual(["boleto-gateway-due"]);
      expect(list.items[0]).toMatchObject({
        customer: { name: "Diego Rocha", phone: "(21) 99876-5432" },
        origin: { utmSource: "newsletter", offerCode: "OFF-9" },
        dueDate: "2026-03-08",
        paymentUrl: "https://gw.example/boleto.pdf",
      });
      expect(await recoveryMarksOf(accountId, ids["boleto-due-yesterday"]!)).toMatchObject([
        { state: "lost", note: "Desistiu da compra", byEmail: actor.email },
      ]);
      // Another account's charge cannot be marked from here.
      const other = await newAccount("Terceira");
      await expect(markRecovery(other, { ledgerId: ids["boleto-gateway-due"]!, state: "contacted" }, actor)).rejects.toBeInstanceOf(
        RecoveryTargetNotFoundError,
      );
    });

    it("a Pix made in the console: listed with its phone and link, contacted, then paid: recovered revenue", async () => {
      const { recoveryWorklist, markRecovery, salesOverview } = await import("@/lib/sales/queries");
      const account = await newAccount("Console");
      const identifier = `rec-${randomUUID().slice(0, 8)}`;
      const { row, gatewayId } = await consoleCharge(account, {
        identifier,
        amount: 97,
        client: { name: "Bruno Carvalho", email: "bruno@example.com", phone: "(11) 98765-4321", document: "529.982.247-25" },
        products: [{ id: "p1", name: "Ebook de receitas", quantity: 1, price: 97 }],
        metadata: { origem: "grupo-whatsapp" },
      });
      expect(row).toMatchObject({ submission: "SUBMITTED", productName: "Ebook de receitas", originLabel: "grupo-whatsapp" });
      const later = new Date(row.createdAt.getTime() + 20 * MIN);
      expect(
        (await recoveryWorklist(account, { pixDelayMs: 15 * MIN, boletoDelayMs: DAY, now: new Date(row.createdAt.getTime() + 14 * MIN) }))
          .total,
      ).toBe(0);
      const [item] = (await recoveryWorklist(account, { pixDelayMs: 15 * MIN, boletoDelayMs: DAY, now: later })).items;
      expect(item).toMatchObject({
        ledgerId: row.id,
        customer: { name: "Bruno Carvalho", phone: "(11) 98765-4321", email: "bruno@example.com" },
        product: "Ebook de receitas",
        origin: { originLabel: "grupo-whatsapp" },
        paymentUrl: "https://pay.example/o/ord_1",
      });

      await markRecovery(account, { ledgerId: row.id, state: "contacted", note: "Mandei mensagem" }, actor);
      expect((await recoveryWorklist(account, { pixDelayMs: 15 * MIN, boletoDelayMs: DAY, now: later })).items).toHaveLength(0);

      await gatewayConfirmsPaid(row.id, gatewayId, identifier, new Date(Date.now() + 1_000), 97);
      const today = saoPauloDate(new Date(Date.now() + 1_000));
      const { current } = await salesOverview(account, { from: today, to: today });
      expect(current.byCurrency[0]).toMatchObject({
        currency: "BRL",
        salesCount: 1,
        revenueCents: 9_700,
        recoveredCount: 1,
        recoveredCents: 9_700,
      });
    });
    it("opening WhatsApp with the message records the contact (audited with its channel): paid after it, the sale is recovered", async () => {
      const { recoveryWorklist, recordRecoveryContact, recoveryMarksOf, salesOverview, RecoveryTargetNotFoundError } =
        await import("@/lib/sales/queries");
      const account = await newAccount("Contato");
      const identifier = `rec-${randomUUID().slice(0, 8)}`;
      const { row, gatewayId } = await consoleCharge(account, {
        identifier,
        amount: 45,
        client: { name: "Carla Dias", email: "carla@example.com", phone: "(11) 98765-4321", document: "529.982.247-25" },
      });
      const later = new Date(row.createdAt.getTime() + 20 * MIN);
      expect((await recoveryWorklist(account, { pixDelayMs: 15 * MIN, boletoDelayMs: DAY, now: later })).items).toHaveLength(1);

      await recordRecoveryContact(account, { ledgerId: row.id, channel: "whatsapp" }, actor, "203.0.113.9");
      expect(await recoveryMarksOf(account, row.id)).toMatchObject([{ state: "contacted", note: null, byEmail: actor.email }]);
      expect((await recoveryWorklist(account, { pixDelayMs: 15 * MIN, boletoDelayMs: DAY, now: later })).items).toHaveLength(0);
      const db = await getDb();
      const audit = await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.target, row.id), eq(auditLog.action, "sales.recovery_contacted")));
      expect(audit).toMatchObject([{ accountId: account, details: { channel: "whatsapp" } }]);
      const other = await newAccount("Outra");
      await expect(recordRecoveryContact(other, { ledgerId: row.id, channel: "email" }, actor)).rejects.toBeInstanceOf(
        RecoveryTargetNotFoundError,
      );

      await gatewayConfirmsPaid(row.id, gatewayId, identifier, new Date(Date.now() + 1_000), 45);
      const today = saoPauloDate(new Date(Date.now() + 1_000));
      const { current } = await salesOverview(account, { from: today, to: today });
      expect(current.byCurrency[0]).toMatchObject({ salesCount: 1, recoveredCount: 1, recoveredCents: 4_500 });
    });
  });

  describe("origin facts on the ledger", () => {
    it("the applier fills them from a TRANSACTION_PAID's trackProps and checkout URL, never clearing one; unconfirmed, the sale does not count", async () => {
      const { salesOverview, salesByOrigin } = await import("@/lib/sales/queries");
      const accountId = await newAccount("Origem");
      const identifier = `orig-${randomUUID().slice(0, 8)}`;
      // A console charge without products, with the producer's own "origem".
      const { row, gatewayId } = await consoleCharge(accountId, {
        identifier,
        amount: 150,
        client: { name: "Carla Gomes", email: "carla@example.com", document: "529.982.247-25" },
        metadata: { origem: "live-instagram", pedido: "42" },
      });
      expect(row).toMatchObject({ originLabel: "live-instagram", productName: null, utmSource: null });

      const createdAt = row.createdAt.toISOString();
      const payedAt = new Date(row.createdAt.getTime() + 5 * MIN).toISOString();
      const notification = (event: string, status: string, extra: Record<string, unknown>) => ({
        event,
        token: TOKEN,
        client: { name: "Carla Gomes", email: "carla@example.com", phone: "(21) 99876-5432", cpf: "529.982.247-25" },
        transaction: {
          id: gatewayId,
          identifier,
          status,
          paymentMethod: "PIX",
          amount: 150,
          commissionAmount: 148.5,
          currency: "BRL",
          createdAt,
          payedAt: status === "COMPLETED" ? payedAt : null,
        },
        ...extra,
      });
      await deliver(
        accountId,
        notification("TRANSACTION_PAID", "COMPLETED", {
          offerCode: "OFF-BF-01",
          // trackProps first (camelCase too); what they lack comes from the checkout URL's query.
          checkoutUrl: "https://pay.example/c/abc?utm_source=ignored&utm_campaign=black%20friday&utm_medium=ignored",
          trackProps: { isUpsell: false, ip: "203.0.113.1", user_agent: "Mozilla/5.0", utm_source: "google", utmMedium: "cpc" },
          orderItems: [
            { id: "item_1", price: 150, product: { id: "prod_1", name: "Curso de Pão", externalId: "pao" } },
            { id: "item_2", price: 0, product: { id: "prod_2", name: "Bônus" } },
          ],
        }),
      );
      const db = await getDb();
      const read = async () => (await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, row.id)))[0]!;
      expect(await read()).toMatchObject({
        utmSource: "google",
        utmMedium: "cpc",
        utmCampaign: "black friday",
        productName: "Curso de Pão",
        offerCode: "OFF-BF-01",
        originLabel: "live-instagram",
        // Not believed yet: the gateway's lookup must confirm it.
        pendingStatus: "COMPLETED",
        paidAt: null,
      });

      // A notification the gateway has not confirmed is no sale, in any report.
      const today = saoPauloDate(row.createdAt);
      const before = await salesOverview(accountId, { from: today, to: today });
      expect(before.current.byCurrency[0]).toMatchObject({ salesCount: 0, revenueCents: 0 });
      expect(before.current.byCurrency[0]!.methods).toEqual([
        expect.objectContaining({ method: "PIX", createdCount: 1, paidOfCreatedCount: 0 }),
      ]);

      // A later notification without origin, or with other values, clears and replaces nothing.
      await deliver(
        accountId,
        notification("TRANSACTION_CREATED", "PENDING", { offerCode: null, checkoutUrl: "", trackProps: { utm_source: "bing" } }),
      );
      expect(await read()).toMatchObject({ utmSource: "google", utmMedium: "cpc", utmCampaign: "black friday", offerCode: "OFF-BF-01" });

      await gatewayConfirmsPaid(row.id, gatewayId, identifier, new Date(payedAt), 150);
      const after = await salesOverview(accountId, { from: today, to: today });
      expect(after.current.byCurrency[0]).toMatchObject({ salesCount: 1, revenueCents: 15_000 });
      // The row's creation time has microseconds; the notification's, milliseconds.
      expect(after.current.byCurrency[0]!.pixMedianSecondsToPay).toBeCloseTo(300, 2);
      const campaigns = await salesByOrigin(accountId, { from: today, to: today }, { dimension: "utm_campaign" });
      expect(campaigns).toEqual([
        expect.objectContaining({ value: "black friday", createdCount: 1, paidOfCreatedCount: 1, salesCount: 1 }),
      ]);
    });
  });

  describe("rollups", () => {
    it("kept by the trigger through every write above, they equal a rebuild from the ledger", async () => {
      const db = await getDb();
      const snapshot = async () =>
        (
          await db.execute<Record<string, unknown>>(sql`
            select account_id, cohort, dimension, day::text, value, currency, charges, paid, amount_cents, refunded, refunded_cents,
              charged_back, charged_back_cents, fee_cents, fee_untold
            from sales_daily
            where charges <> 0 or paid <> 0 or amount_cents <> 0 or refunded <> 0 or charged_back <> 0 or fee_cents <> 0 or fee_untold <> 0
            order by 1, 2, 3, 4, 5, 6`)
        ).rows;
      const kept = await snapshot();
      expect(kept.length).toBeGreaterThan(50);
      await db.execute(sql`select sales_rollup_rebuild()`);
      expect(await snapshot()).toEqual(kept);
    });

    it.skipIf(!target.url)("concurrent writers neither deadlock nor lose a count", async () => {
      // Rows created over 12 days: each one's rollup keys differ by day, and the writers below take them in opposite orders,
      // which deadlocked when each row updated its rollups itself (4 of 54 transactions in a trial); folded per statement
      // in key order, none does.
      const accountId = await newAccount("Concorrência");
      await insertRows(
        accountId,
        Array.from({ length: 240 }, (_, i) => ({
          identifier: `cc-${i}`,
          amountCents: 1_000 + i,
          createdAt: new Date(Date.now() - (i % 12) * DAY),
        })),
      );
      const db = await getDb();
      const ids = (
        await db
          .select({ id: ledgerTransactions.id })
          .from(ledgerTransactions)
          .where(eq(ledgerTransactions.accountId, accountId))
          .orderBy(ledgerTransactions.createdAt, ledgerTransactions.id)
      ).map((r) => r.id);
      const pg = (await import("pg")).default;
      const pool = new pg.Pool({ connectionString: target.url, max: 6 });
      const values = ["google", "facebook", "instagram", "tiktok", "youtube", "email"];
      try {
        for (let round = 0; round < 6; round++) {
          await Promise.all(
            Array.from({ length: 6 }, async (_, writer) => {
              const start = round * 40 + (writer % 3) * 12;
              const slice = ids.slice(start, start + 24).filter((_, i) => i % 2 === Math.floor(writer / 3));
              const mine = writer % 2 ? slice.reverse() : slice;
              const client = await pool.connect();
              try {
                await client.query("begin");
                // One statement over its rows in the given order (as the applier's batch), then held open a moment.
                await client.query(
                  `update ledger_transactions l set utm_source = v.source, paid_at = now(), status = 'COMPLETED', status_source = 'lookup'
                   from (select id, ($2::text[])[1 + (n::int % 6)] as source from unnest($1::text[]) with ordinality as u(id, n)) v
                   where l.id = v.id`,
                  [mine, values],
                );
                await client.query("select pg_sleep(0.02)");
                await client.query("commit");
              } catch (error) {
                await client.query("rollback");
                throw error;
              } finally {
                client.release();
              }
            }),
          );
        }
      } finally {
        await pool.end();
      }
      const sums = async () =>
        (
          await db.execute<{ dimension: string; cohort: string; charges: string; paid: string; amount: string }>(sql`
            select dimension, cohort, sum(charges)::text as charges, sum(paid)::text as paid, sum(amount_cents)::text as amount
            from sales_daily where account_id = ${accountId} group by 1, 2 order by 1, 2`)
        ).rows;
      const kept = await sums();
      expect(kept.find((r) => r.dimension === "utm_source" && r.cohort === "created")).toMatchObject({ charges: "240" });
      expect(kept.find((r) => r.dimension === "utm_source" && r.cohort === "paid")!.charges).not.toBe("0");
      await db.execute(sql`select sales_rollup_rebuild(${accountId})`);
      expect(await sums()).toEqual(kept);
    });

    it("read refunded, charged back and awaiting with the status machine's spellings", async () => {
      const { spellingsOf, transactionMachine } = await import("@/lib/status/machine");
      const db = await getDb();
      const [definition] = (
        await db.execute<{ body: string }>(sql`select pg_get_functiondef('sales_contributions(ledger_transactions)'::regprocedure) as body`)
      ).rows;
      for (const spelling of [...spellingsOf(transactionMachine, "refunded"), ...spellingsOf(transactionMachine, "charged_back")]) {
        expect(definition!.body).toContain(`'${spelling}'`);
      }
      // The recovery list's index holds the rows awaiting payment by the same spellings as the list's query.
      const [index] = (
        await db.execute<{ indexdef: string }>(sql`select indexdef from pg_indexes where indexname = 'ledger_account_awaiting_idx'`)
      ).rows;
      for (const spelling of spellingsOf(transactionMachine, "awaiting")) expect(index!.indexdef).toContain(`'${spelling}'`);
    });

    it("a median read from the time-to-pay histogram is within 2.2 %", async () => {
      const { medianFromHistogram } = await import("@/lib/sales/queries");
      const bucketOf = (seconds: number) => (seconds < 1 ? 0 : 1 + Math.floor((16 * Math.log(seconds)) / Math.log(2)));
      const histogram = (values: number[]) => {
        const counts = new Map<number, number>();
        for (const v of values) counts.set(bucketOf(v), (counts.get(bucketOf(v)) ?? 0) + 1);
        return [...counts].map(([bucket, count]) => ({ bucket, count }));
      };
      expect(medianFromHistogram([])).toBeNull();
      for (const values of [[600, 1800, 540], [45], [30, 31, 32, 33, 900, 901], Array.from({ length: 1001 }, (_, i) => 30 + i * 7)]) {
        const sorted = [...values].sort((a, b) => a - b);
        const mid = (sorted.length - 1) / 2;
        const exact = (sorted[Math.floor(mid)]! + sorted[Math.ceil(mid)]!) / 2;
        const read = medianFromHistogram(histogram(values))!;
        expect(Math.abs(read - exact) / exact).toBeLessThan(0.022);
      }
    });
  });

  describe("settings", () => {
    it("defaults until saved; saved values are validated", async () => {
      const { getSalesSettings, saveSalesSettings, DEFAULT_SALES_SETTINGS } = await import("@/lib/sales/queries");
      const accountId = await newAccount("Ajustes");
      expect(await getSalesSettings(accountId)).toMatchObject({ ...DEFAULT_SALES_SETTINGS, isDefault: true });
      expect(DEFAULT_SALES_SETTINGS).toMatchObject({ pixDelayMs: 15 * MIN, boletoDelayMs: DAY });
      const renewalTemplate = "Oi {nome}, renove: {link}";
      await saveSalesSettings(
        accountId,
        { pixDelayMs: 5_000, boletoDelayMs: 2 * DAY, messageTemplate: "Oi {nome}, {link}", renewalTemplate },
        actor,
      );
      expect(await getSalesSettings(accountId)).toMatchObject({
        pixDelayMs: 5_000,
        boletoDelayMs: 2 * DAY,
        messageTemplate: "Oi {nome}, {link}",
        renewalTemplate,
        updatedByEmail: actor.email,
        isDefault: false,
      });
      await expect(
        saveSalesSettings(accountId, { pixDelayMs: 10, boletoDelayMs: DAY, messageTemplate: "x", renewalTemplate }, actor),
      ).rejects.toThrow();
      await expect(
        saveSalesSettings(accountId, { pixDelayMs: 5_000, boletoDelayMs: DAY, messageTemplate: "  ", renewalTemplate }, actor),
      ).rejects.toThrow();
      await expect(
        saveSalesSettings(accountId, { pixDelayMs: 5_000, boletoDelayMs: DAY, messageTemplate: "x", renewalTemplate: " " }, actor),
      ).rejects.toThrow();
    });
  });
});
