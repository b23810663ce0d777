import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { gatewayChecks, ledgerMovements, transfers } from "@/lib/db/schema";
import type { TransactionRecord } from "@/lib/gateway";
import { bindDatabase } from "@/lib/testing/bind-database";
import { testDatabases } from "@/lib/testing/databases";

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");
// The tests drive the applier themselves.
process.env.WEBHOOK_APPLIER = "off";
process.env.APP_URL = "http://127.0.0.1:9/console";

const targets = await testDatabases();
const TOKEN = "wht_balance_test_4c3b2a";
const actor = { id: "user-balance-test", email: "saldo@example.test" };
const at = (iso: string) => new Date(iso);

async function newAccount(name: string): Promise<string> {
  const { createAccount } = await import("@/lib/accounts/queries");
  const account = await createAccount(
    { name, baseUrl: "http://127.0.0.1:9", publicKey: "pk_balance", secretKey: "sk_balance_0000", webhookToken: TOKEN, mode: "test" },
    null,
  );
  return account.id;
}

/** A charge through the console's own recording path, the gateway's creation answer stubbed. */
async function consoleCharge(
  accountId: string,
  options: { amount: number; fee: number; splits?: number[]; kind?: "pix_charge" | "card_charge"; status?: string },
) {
  const { runOperation } = await import("@/lib/charges/submission");
  const identifier = `bal-${randomUUID().slice(0, 8)}`;
  const gatewayId = `tx_${randomUUID()}`;
  const kind = options.kind ?? "pix_charge";
  const { row } = await runOperation({
    accountId,
    kind,
    identifier,
    storedRequest: {
      identifier,
      amount: options.amount,
      ...(options.splits ? { splits: options.splits.map((amount) => ({ producerId: "p_split", amount })) } : {}),
    },
    summary: {
      amountCents: Math.round(options.amount * 100),
      currency: "BRL",
      paymentMethod: kind === "card_charge" ? "CREDIT_CARD" : "PIX",
    },
    actor,
    send: async () => ({ transactionId: gatewayId, status: options.status ?? "OK", fee: options.fee }),
    read: (answer: { transactionId: string; status: string; fee: number }) => ({
      gatewayTransactionId: answer.transactionId,
      status: answer.status,
      feeCents: Math.round(answer.fee * 100),
    }),
  });
  return { ledgerId: row.id, gatewayId, identifier, amount: options.amount };
}

/** The gateway's lookup: the one way the console believes a payment, a release date or a refund. */
async function lookup(
  sale: { ledgerId: string; gatewayId: string; identifier: string; amount: number },
  fields: Partial<TransactionRecord> & { status: string },
) {
  const { applyLookup } = await import("@/lib/ledger/settle");
  return applyLookup({ id: sale.ledgerId }, {
    id: sale.gatewayId,
    clientIdentifier: sale.identifier,
    currency: "BRL",
    amount: sale.amount,
    chargeAmount: sale.amount,
    paymentMethod: "PIX",
    ...fields,
  } as TransactionRecord);
}

async function movementsOf(ledgerId: string) {
  const db = await getDb();
  const rows = await db.select().from(ledgerMovements).where(eq(ledgerMovements.ledgerId, ledgerId));
  return Object.fromEntries(
    rows.map((m) => [m.kind, { available: m.availableCents, pending: m.pendingCents, at: m.occurredAt.toISOString() }]),
  );
}

async function figures(accountId: string, now: string) {
  const { balanceFigures } = await import("@/lib/balance/queries");
  const f = await balanceFigures(accountId, at(now));
  return { available: f.availableCents, pending: f.pendingCents };
}

describe.each(targets)("balance on $name", (target) => {
  bindDatabase(target);

  it("records a sale, its fee and splits as pending, and its release as available at availableAt (São Paulo midnight)", async () => {
    const accountId = await newAccount("Saldo vendas");
    // A card paid in its creation answer: R$ 100,00, fee R$ 4,38, a split of R$ 10,00.
    const sale = await consoleCharge(accountId, { amount: 100, fee: 4.38, splits: [10], kind: "card_charge", status: "COMPLETED" });
    const paidAt = (await movementsOf(sale.ledgerId)).sale.at;
    expect(await movementsOf(sale.ledgerId)).toEqual({
      sale: { available: 0, pending: 10_000, at: paidAt },
      fee: { available: 0, pending: -438, at: paidAt },
      split: { available: 0, pending: -1_000, at: paidAt },
    });
    // No lookup has told its release date yet: one is asked for at once.
    const db = await getDb();
    const [check] = await db
      .select()
      .from(gatewayChecks)
      .where(and(eq(gatewayChecks.targetId, sale.ledgerId), eq(gatewayChecks.state, "pending")));
    expect(check?.reason).toBe("release");
    const { balanceFigures } = await import("@/lib/balance/queries");
    expect((await balanceFigures(accountId)).untold).toEqual({ fee: 0, release: 1 });

    // The lookup tells it: 00:00 of 2099-03-03 in São Paulo (03:00 UTC).
    await lookup(sale, { status: "COMPLETED", payedAt: paidAt, availableAt: "2099-03-03T03:00:00.000Z" });
    expect((await movementsOf(sale.ledgerId)).release).toEqual({ available: 8_562, pending: -8_562, at: "2099-03-03T03:00:00.000Z" });
    expect(await figures(accountId, "2099-03-03T02:59:59.999Z")).toEqual({ available: 0, pending: 8_562 });
    expect(await figures(accountId, "2099-03-03T03:00:00.000Z")).toEqual({ available: 8_562, pending: 0 });
    expect((await balanceFigures(accountId)).untold).toEqual({ fee: 0, release: 0 });

    const { releaseCalendar } = await import("@/lib/balance/queries");
    expect(await releaseCalendar(accountId, 60, at("2099-03-02T12:00:00Z"))).toEqual([{ day: "2099-03-03", amountCents: 8_562, sales: 1 }]);
    // 23:59 of 03-02 in São Paulo is 02:59 UTC of 03-03: the release is still the next day's.
    expect(await releaseCalendar(accountId, 60, at("2099-03-03T02:59:00Z"))).toEqual([{ day: "2099-03-03", amountCents: 8_562, sales: 1 }]);
    expect(await releaseCalendar(accountId, 60, at("2099-03-03T03:00:00Z"))).toEqual([]);
    // The second lookup, at the release date, catches a date that moved: the movement follows it.
    await lookup(sale, { status: "COMPLETED", payedAt: paidAt, availableAt: "2099-03-04T03:00:00.000Z" });
    expect((await movementsOf(sale.ledgerId)).release.at).toBe("2099-03-04T03:00:00.000Z");
  });

  it("a refund before the release cancels it and takes the rest from available; after it, the whole amount", async () => {
    const accountId = await newAccount("Saldo reembolsos");
    const before = await consoleCharge(accountId, { amount: 50, fee: 0.5 });
    await lookup(before, { status: "COMPLETED", payedAt: "2026-03-01T12:00:00Z", availableAt: "2026-03-31T12:00:00Z" });
    await lookup(before, {
      status: "REFUNDED",
      payedAt: "2026-03-01T12:00:00Z",
      availableAt: "2026-03-31T12:00:00Z",
      refundedAt: "2026-03-10T12:00:00Z",
    });
    const b = await movementsOf(before.ledgerId);
    expect(b.release).toBeUndefined();
    expect(b.refund).toEqual({ available: -50, pending: -4_950, at: "2026-03-10T12:00:00.000Z" });

    const after = await consoleCharge(accountId, { amount: 20, fee: 0.2 });
    await lookup(after, { status: "COMPLETED", payedAt: "2026-03-01T12:00:00Z", availableAt: "2026-03-01T12:00:00Z" });
    await lookup(after, { status: "REFUNDED", availableAt: "2026-03-01T12:00:00Z", refundedAt: "2026-03-05T12:00:00Z" });
    expect((await movementsOf(after.ledgerId)).refund).toEqual({ available: -2_000, pending: 0, at: "2026-03-05T12:00:00.000Z" });
    // Sales 50 + 20, fees 0.70, both refunded in full: the fees are the producer's loss.
    expect(await figures(accountId, "2026-04-01T00:00:00Z")).toEqual({ available: -70, pending: 0 });
  });

  it("leaves an unconfirmed notification out, and counts a chargeback once the gateway confirms it", async () => {
    const accountId = await newAccount("Saldo chargeback");
    const sale = await consoleCharge(accountId, { amount: 30, fee: 0.3 });
    await lookup(sale, { status: "COMPLETED", payedAt: "2026-02-01T12:00:00Z", availableAt: "2026-02-01T12:00:00Z" });
    const { receiveNotification } = await import("@/lib/notifications/ingest");
    const { applyPendingNotifications } = await import("@/lib/notifications/applier");
    const answer = await receiveNotification({
      accountId,
      sourceIp: "203.0.113.9",
      body: JSON.stringify({
        event: "TRANSACTION_CHARGED_BACK",
        token: TOKEN,
        checkoutUrl: "",
        client: { id: "c1", name: "Cliente", email: "c@example.test", phone: "", cpf: "52998224725", cnpj: null },
        transaction: {
          id: sale.gatewayId,
          identifier: sale.identifier,
          status: "CHARGED_BACK",
          paymentMethod: "PIX",
          amount: 30,
          currency: "BRL",
          createdAt: "2026-02-01T11:00:00Z",
          updatedAt: "2026-02-20T12:00:00Z",
        },
      }),
    });
    expect(answer.status).toBe(200);
    await applyPendingNotifications();
    // A notification is a hint: nothing moved.
    expect((await movementsOf(sale.ledgerId)).chargeback).toBeUndefined();
    expect(await figures(accountId, "2026-03-01T00:00:00Z")).toEqual({ available: 2_970, pending: 0 });
    await lookup(sale, { status: "CHARGED_BACK", payedAt: "2026-02-01T12:00:00Z", availableAt: "2026-02-01T12:00:00Z" });
    expect((await movementsOf(sale.ledgerId)).chargeback?.available).toBe(-3_000);
    expect(await figures(accountId, "2099-01-01T00:00:00Z")).toEqual({ available: -30, pending: 0 });
  });

  it("a chargeback before the release cancels it and takes fee and splits from available, dated when the gateway said so", async () => {
    const accountId = await newAccount("Saldo chargeback antes");
    const sale = await consoleCharge(accountId, { amount: 100, fee: 4, splits: [10], kind: "card_charge" });
    // The interface tells no chargeback date: the console dates it when it learns it, so the dates here are around now.
    const day = 86_400_000;
    const iso = (offset: number) => new Date(Date.now() + offset).toISOString();
    const paid = { payedAt: iso(-5 * day), availableAt: iso(25 * day) };
    await lookup(sale, { status: "COMPLETED", ...paid });
    // Before the chargeback the net (100 − 4 − 10) waits for its release.
    expect(await figures(accountId, iso(0))).toEqual({ available: 0, pending: 8_600 });
    await lookup(sale, { status: "CHARGED_BACK", ...paid });
    const m = await movementsOf(sale.ledgerId);
    expect(m.release).toBeUndefined();
    expect(m.chargeback?.pending).toBe(-8_600);
    expect(m.chargeback?.available).toBe(-1_400);
    // The release that never happens is not counted after its day either: fee and splits are the producer's loss.
    expect(await figures(accountId, iso(60 * day))).toEqual({ available: -1_400, pending: 0 });
  });

  it("takes a transfer and its fee when the gateway creates it, and gives both back when it fails", async () => {
    const accountId = await newAccount("Saldo transferências");
    const db = await getDb();
    const [transfer] = await db
      .insert(transfers)
      .values({
        accountId,
        identifier: "tr-bal-1",
        submission: "SUBMITTED",
        amountCents: 5_000,
        discountFeeOfReceiver: false,
        pixKeyType: "email",
        pixKey: "r@example.test",
        ownerName: "Joao",
        ownerDocumentType: "cpf",
        ownerDocumentNumber: "52998224725",
        ownerIp: "203.0.113.5",
        callbackUrl: "http://127.0.0.1:9/cb",
        withdrawId: "wd_bal_1",
        withdrawStatus: "PENDING",
        feeCents: 100,
        withdraw: { id: "wd_bal_1", amount: 50, feeAmount: 1, status: "PENDING", createdAt: "2026-05-01T12:00:00Z" },
      })
      .returning();
    const { syncTransferMovements } = await import("@/lib/ledger/movements");
    await db.transaction((tx) => syncTransferMovements(tx, transfer.id));
    expect(await figures(accountId, "2026-05-02T00:00:00Z")).toEqual({ available: -5_100, pending: 0 });
    const { applyTransferNotificationIn } = await import("@/lib/notifications/transfer-notifications");
    await db.transaction((tx) =>
      applyTransferNotificationIn(tx, transfer.id, {
        event: "WITHDRAW_FAILED",
        withdraw: { id: "wd_bal_1", amount: 50, feeAmount: 1, status: "FAILED", updatedAt: "2026-05-01T13:00:00Z" },
      }),
    );
    const kinds = (await db.select().from(ledgerMovements).where(eq(ledgerMovements.transferId, transfer.id))).map((m) => m.kind).sort();
    expect(kinds).toEqual(["transfer", "transfer_fee", "transfer_fee_returned", "transfer_returned"]);
    expect(await figures(accountId, "2026-05-01T12:30:00Z")).toEqual({ available: -5_100, pending: 0 });
    expect(await figures(accountId, "2026-05-01T13:00:00Z")).toEqual({ available: 0, pending: 0 });
  });

  it("carries an entered gateway balance forward, shows the gap at the next entry, and closes a month to the cent", async () => {
    const accountId = await newAccount("Saldo informado");
    const { recordBalanceEntry, listBalanceEntries } = await import("@/lib/balance/entries");
    // Read on the gateway's panel on 2026-06-01 at 09:00 (São Paulo): R$ 1.000,00 available, R$ 200,00 pending.
    await recordBalanceEntry(accountId, { available: "1.000,00", pending: "200,00", readDay: "2026-06-01", readTime: "09:00" }, actor);
    const sale = await consoleCharge(accountId, { amount: 100, fee: 1 });
    await lookup(sale, { status: "COMPLETED", payedAt: "2026-06-10T15:00:00Z", availableAt: "2026-06-20T15:00:00Z" });
    expect(await figures(accountId, "2026-06-15T00:00:00Z")).toEqual({ available: 100_000, pending: 29_900 });
    expect(await figures(accountId, "2026-06-25T00:00:00Z")).toEqual({ available: 109_900, pending: 20_000 });
    // The next reading says R$ 1.090,00 / R$ 200,00: R$ 9,00 the console's movements do not explain.
    await recordBalanceEntry(accountId, { available: "1.090,00", pending: "200,00", readDay: "2026-06-26", readTime: "10:00" }, actor);
    const [latest, first] = await listBalanceEntries(accountId);
    expect(first.difference).toBeNull();
    expect(latest.carried).toEqual({ availableCents: 109_900, pendingCents: 20_000 });
    expect(latest.difference).toEqual({ availableCents: -900, pendingCents: 0 });
    expect(await figures(accountId, "2026-06-27T00:00:00Z")).toEqual({ available: 109_000, pending: 20_000 });

    const { monthClosing } = await import("@/lib/balance/queries");
    const june = await monthClosing(accountId, "2026-06", at("2026-07-15T00:00:00Z"));
    const sum = (key: "availableCents" | "pendingCents") => june.movements.reduce((total, kind) => total + kind[key], 0);
    expect(june.opening).toEqual({ availableCents: 0, pendingCents: 0 });
    expect(june.closing.availableCents).toBe(june.opening.availableCents + sum("availableCents"));
    expect(june.closing.pendingCents).toBe(june.opening.pendingCents + sum("pendingCents"));
    // July opens where the last entry before it left the balance.
    const july = await monthClosing(accountId, "2026-07", at("2026-07-15T00:00:00Z"));
    expect(july.opening).toEqual({ availableCents: 109_000, pendingCents: 20_000 });
    expect(july.closing).toEqual(july.opening);
  });

  it("pages the extrato with a running balance, and the CSV lists every movement of the period", async () => {
    const accountId = await newAccount("Saldo extrato");
    for (let i = 0; i < 3; i++) {
      const sale = await consoleCharge(accountId, { amount: 10 + i, fee: 0.1 });
      await lookup(sale, { status: "COMPLETED", payedAt: `2026-08-0${i + 1}T12:00:00Z`, availableAt: `2026-08-0${i + 1}T12:00:00Z` });
    }
    const { statementPage } = await import("@/lib/balance/queries");
    const period = { from: "2026-08-01", to: "2026-08-31" };
    const first = await statementPage(accountId, { period }, { limit: 4 }, at("2026-09-01T00:00:00Z"));
    expect(first.lines).toHaveLength(4);
    expect(first.opening).toEqual({ availableCents: 0, pendingCents: 0 });
    const second = await statementPage(accountId, { period }, { limit: 100, cursor: first.nextCursor }, at("2026-09-01T00:00:00Z"));
    expect(second.lines).toHaveLength(5);
    expect(second.opening).toEqual(first.lines.at(-1)!.balance);
    expect(second.lines.at(-1)!.balance).toEqual({ availableCents: 1_000 + 1_100 + 1_200 - 30, pendingCents: 0 });
    const releases = await statementPage(accountId, { period, kinds: ["release"] }, {}, at("2026-09-01T00:00:00Z"));
    expect(releases.lines.map((l) => l.kind)).toEqual(["release", "release", "release"]);
    expect(releases.lines[0]!.balance).toBeNull();

    const { statementCsvChunks } = await import("@/lib/balance/export");
    let csv = "";
    const words = {
      sale: "Venda",
      fee: "Taxa",
      split: "Split",
      release: "Liberação",
      refund: "Reembolso",
      chargeback: "Chargeback",
      transfer: "Transferência",
      transfer_fee: "Taxa de transferência",
      transfer_returned: "Devolvida",
      transfer_fee_returned: "Taxa devolvida",
    };
    for await (const chunk of statementCsvChunks(accountId, { period }, words, { batchSize: 2, now: at("2026-09-01T00:00:00Z") }))
      csv += chunk;
    const lines = csv.split("\r\n").filter(Boolean);
    expect(lines[0]!.startsWith("\uFEFFdata;data_utc;tipo;")).toBe(true);
    expect(lines).toHaveLength(1 + 9);
    expect(lines.at(-1)!.split(";").slice(-2)).toEqual(["32,70", "0,00"]);
  });
});
