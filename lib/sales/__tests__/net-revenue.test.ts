import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { TransactionRecord } from "@/lib/gateway";
import { bindDatabase } from "@/lib/testing/bind-database";
import { testDatabases } from "@/lib/testing/databases";

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");
// The tests drive the applier themselves.
process.env.WEBHOOK_APPLIER = "off";
process.env.APP_URL = "http://127.0.0.1:9/console";

const targets = await testDatabases();
const actor = { id: "user-sales-net-test", email: "liquido@example.test" };

async function newAccount(name: string): Promise<string> {
  const { createAccount } = await import("@/lib/accounts/queries");
  const account = await createAccount(
    { name, baseUrl: "http://127.0.0.1:9", publicKey: "pk_net", secretKey: "sk_net_0000", webhookToken: "wht_net_1a2b3c", mode: "test" },
    null,
  );
  return account.id;
}

type SaleSpec = {
  amount: number;
  /** Reais, as the creation answer says it; null when the gateway does not tell it. */
  fee: number | null;
  splits?: number[];
  product?: string;
  origem?: string;
  currency?: string;
  /** The payment time the gateway's lookup confirms; absent: never paid. */
  payedAt?: string;
};

/** A charge through the console's own path (creation answer stubbed, with its fee), then paid by the gateway's lookup. */
async function sale(accountId: string, spec: SaleSpec) {
  const { runOperation } = await import("@/lib/charges/submission");
  const { applyLookup } = await import("@/lib/ledger/settle");
  const identifier = `net-${randomUUID().slice(0, 8)}`;
  const gatewayId = `tx_${randomUUID()}`;
  const currency = spec.currency ?? "BRL";
  const kind = currency === "BRL" ? "pix_charge" : "crypto_charge";
  const method = currency === "BRL" ? "PIX" : "CRYPTO";
  const { row } = await runOperation({
    accountId,
    kind,
    identifier,
    storedRequest: {
      identifier,
      amount: spec.amount,
      ...(spec.product ? { products: [{ id: "p1", name: spec.product, price: spec.amount, quantity: 1 }] } : {}),
      ...(spec.origem ? { metadata: { origem: spec.origem } } : {}),
      ...(spec.splits ? { splits: spec.splits.map((amount) => ({ producerId: "p_split", amount })) } : {}),
    },
    summary: { amountCents: Math.round(spec.amount * 100), currency, paymentMethod: method },
    actor,
    send: async () => ({ transactionId: gatewayId, status: "OK", ...(spec.fee === null ? {} : { fee: spec.fee }) }),
    read: (answer: { transactionId: string; status: string; fee?: number }) => ({
      gatewayTransactionId: answer.transactionId,
      status: answer.status,
      feeCents: answer.fee === undefined ? null : Math.round(answer.fee * 100),
    }),
  });
  if (spec.payedAt) {
    await applyLookup({ id: row.id }, {
      id: gatewayId,
      clientIdentifier: identifier,
      currency,
      amount: spec.amount,
      chargeAmount: spec.amount,
      paymentMethod: method,
      status: "COMPLETED",
      payedAt: spec.payedAt,
    } as TransactionRecord);
  }
  return row.id;
}

describe.each(targets)("net revenue in Vendas on $name", (target) => {
  bindDatabase(target);

  // Current period: São Paulo days 2026-03-02 and 03-03 = [2026-03-02T03:00Z, 2026-03-04T03:00Z).
  // Comparison: 2026-02-28 and 03-01 = [2026-02-28T03:00Z, 2026-03-02T03:00Z).
  const period = { from: "2026-03-02", to: "2026-03-03", compareFrom: "2026-02-28", compareTo: "2026-03-01" };
  let accountId: string;
  let untoldSale: string;

  it("loads sales with fees and splits told in the creation answer, one without a fee", async () => {
    accountId = await newAccount("Loja líquida");
    const other = await newAccount("Outra loja líquida");
    // n1: R$ 100,00, fee 1,50, a split of 10,00: 11,50 off.
    await sale(accountId, { amount: 100, fee: 1.5, splits: [10], product: "Curso A", origem: "bio", payedAt: "2026-03-02T15:00:00Z" });
    // n2: R$ 50,00, fee 0,75; paid 02:30 UTC of 03-03 = 23:30 of 03-02 in São Paulo.
    await sale(accountId, { amount: 50, fee: 0.75, product: "Curso A", payedAt: "2026-03-03T02:30:00Z" });
    // n3: R$ 200,00, fee 8,38, splits 20,00 + 5,00: 33,38 off.
    await sale(accountId, { amount: 200, fee: 8.38, splits: [20, 5], product: "Mentoria", origem: "bio", payedAt: "2026-03-03T15:00:00Z" });
    // n4: R$ 80,00, the gateway told no fee: nothing off, counted as untold.
    untoldSale = await sale(accountId, { amount: 80, fee: null, product: "Mentoria", payedAt: "2026-03-03T20:00:00Z" });
    // n5: comparison period, R$ 40,00, fee 0,60, a split of 4,00: 4,60 off.
    await sale(accountId, { amount: 40, fee: 0.6, splits: [4], product: "Curso A", payedAt: "2026-03-01T12:00:00Z" });
    // n6: paid at 00:00 of 03-04 in São Paulo: after the period.
    await sale(accountId, { amount: 30, fee: 0.45, product: "Curso A", payedAt: "2026-03-04T03:00:00Z" });
    // n7: never paid: no sale, no fee.
    await sale(accountId, { amount: 60, fee: 0.9, product: "Curso A" });
    // n8: a USD sale with a fee: never taken off the real.
    await sale(accountId, { amount: 25, fee: 1, currency: "USD", product: "Curso A", payedAt: "2026-03-02T18:00:00Z" });
    // Another account's sale.
    await sale(other, { amount: 500, fee: 5, product: "Curso A", payedAt: "2026-03-02T15:00:00Z" });
  }, 120_000);

  it("overview: fees and splits told for the period's BRL sales, net revenue, sales without a fee", async () => {
    const { salesOverview } = await import("@/lib/sales/queries");
    const overview = await salesOverview(accountId, period);
    const brl = overview.current.byCurrency.find((c) => c.currency === "BRL")!;
    // 100 + 50 + 200 + 80 = 430,00; fees 11,50 + 0,75 + 33,38 = 45,63.
    expect(brl).toMatchObject({ salesCount: 4, revenueCents: 43_000, feesCents: 4_563, netRevenueCents: 38_437, feesUntoldCount: 1 });
    const usd = overview.current.byCurrency.find((c) => c.currency === "USD")!;
    expect(usd).toMatchObject({ salesCount: 1, revenueCents: 2_500, feesCents: null, netRevenueCents: null, feesUntoldCount: null });
    const before = overview.comparison.byCurrency.find((c) => c.currency === "BRL")!;
    expect(before).toMatchObject({ salesCount: 1, revenueCents: 4_000, feesCents: 460, netRevenueCents: 3_540, feesUntoldCount: 0 });
    // A period with no sale: nothing off.
    const empty = await salesOverview(accountId, { from: "2026-01-01", to: "2026-01-02" });
    expect(empty.current.byCurrency[0]).toMatchObject({
      currency: "BRL",
      revenueCents: 0,
      feesCents: 0,
      netRevenueCents: 0,
      feesUntoldCount: 0,
    });
  });

  it("by origin: each row's fees and net, the rows adding up to the overview's", async () => {
    const { salesByOrigin } = await import("@/lib/sales/queries");
    const money = (rows: Awaited<ReturnType<typeof salesByOrigin>>) =>
      Object.fromEntries(
        rows.map((row) => [
          row.value ?? "(direto)",
          row.byCurrency.map(({ currency, revenueCents, feesCents, netRevenueCents, feesUntoldCount }) => ({
            currency,
            revenueCents,
            feesCents,
            netRevenueCents,
            feesUntoldCount,
          })),
        ]),
      );
    const byProduct = await salesByOrigin(accountId, period, { dimension: "product" });
    expect(money(byProduct)).toEqual({
      "Curso A": [
        { currency: "BRL", revenueCents: 15_000, feesCents: 1_225, netRevenueCents: 13_775, feesUntoldCount: 0 },
        { currency: "USD", revenueCents: 2_500, feesCents: null, netRevenueCents: null, feesUntoldCount: null },
      ],
      Mentoria: [{ currency: "BRL", revenueCents: 28_000, feesCents: 3_338, netRevenueCents: 24_662, feesUntoldCount: 1 }],
    });
    const byLabel = await salesByOrigin(accountId, period, { dimension: "origin_label" });
    expect(money(byLabel)).toEqual({
      bio: [{ currency: "BRL", revenueCents: 30_000, feesCents: 4_488, netRevenueCents: 25_512, feesUntoldCount: 0 }],
      "(direto)": [
        { currency: "BRL", revenueCents: 13_000, feesCents: 75, netRevenueCents: 12_925, feesUntoldCount: 1 },
        { currency: "USD", revenueCents: 2_500, feesCents: null, netRevenueCents: null, feesUntoldCount: null },
      ],
    });
    // No UTM on console charges: every sale is the direct row.
    const bySource = await salesByOrigin(accountId, period, { dimension: "utm_source" });
    expect(money(bySource)["(direto)"]?.[0]).toEqual({
      currency: "BRL",
      revenueCents: 43_000,
      feesCents: 4_563,
      netRevenueCents: 38_437,
      feesUntoldCount: 1,
    });
  });

  it("a fee reported later moves the figures; they equal the fee and split movements and a rebuild of the rollups", async () => {
    const { getDb } = await import("@/lib/db/client");
    const { ledgerTransactions } = await import("@/lib/db/schema");
    const { syncSaleMovements } = await import("@/lib/ledger/movements");
    const { eq, sql } = await import("drizzle-orm");
    const { salesOverview } = await import("@/lib/sales/queries");
    const db = await getDb();
    // As a confirmed notification fills it (lib/ledger/notifications.ts): the row's fee, then its movements.
    await db.transaction(async (tx) => {
      await tx.update(ledgerTransactions).set({ feeCents: 120 }).where(eq(ledgerTransactions.id, untoldSale));
      await syncSaleMovements(tx, [untoldSale]);
    });
    const brl = async () => (await salesOverview(accountId, period)).current.byCurrency.find((c) => c.currency === "BRL")!;
    expect(await brl()).toMatchObject({ revenueCents: 43_000, feesCents: 4_683, netRevenueCents: 38_317, feesUntoldCount: 0 });
    const [movements] = (
      await db.execute<{ fees: string }>(sql`
        select (-sum(m.pending_cents))::text as fees from ledger_movements m join ledger_transactions l on l.id = m.ledger_id
        where m.account_id = ${accountId} and m.kind in ('fee', 'split') and l.currency = 'BRL'
          and m.occurred_at >= '2026-03-02T03:00:00Z' and m.occurred_at < '2026-03-04T03:00:00Z'`)
    ).rows;
    expect(movements!.fees).toBe("4683");
    await db.execute(sql`select sales_rollup_rebuild(${accountId})`);
    expect(await brl()).toMatchObject({ feesCents: 4_683, feesUntoldCount: 0 });
  });
});
