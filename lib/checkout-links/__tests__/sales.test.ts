import { randomBytes, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { checkoutLinks, ledgerTransactions, gatewayNotifications } from "@/lib/db/schema";
import { bindDatabase } from "@/lib/testing/bind-database";
import { testDatabases, type TestDatabase } from "@/lib/testing/databases";
import { checkoutPageOf } from "../sales";

process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");

describe("checkoutPageOf", () => {
  it("is the visited URL without query, fragment or trailing slash", () => {
    expect(checkoutPageOf("https://pay.example/checkout/abc?utm_source=ig&offer=1#top")).toBe("https://pay.example/checkout/abc");
    expect(checkoutPageOf("https://pay.example/checkout/abc/")).toBe("https://pay.example/checkout/abc");
  });
});

const targets = await testDatabases();

describe.each(targets)("checkout links' sales, on $name", (target: TestDatabase) => {
  bindDatabase(target);
  // Opening (and migrating) the database is the slow part: a hook's time, not the test's.
  beforeAll(async () => {
    await getDb();
  });

  it("counts the confirmed sales of each link by its visited page and offer code, and lists pages it did not create as learned", async () => {
    const { createAccount } = await import("@/lib/accounts/queries");
    const { listCheckoutLinksWithSales } = await import("../queries");
    const { checkoutSalesByPage, latestCheckoutSales } = await import("../sales");
    const newAccount = async (name: string) =>
      (
        await createAccount(
          { name, baseUrl: "http://127.0.0.1:9", publicKey: "pk", secretKey: "sk_1234567890", webhookToken: null, mode: "test" },
          null,
        )
      ).id;
    const accountId = await newAccount("Loja");
    const other = await newAccount("Outra");
    const db = await getDb();
    const mine = "https://pay.example/checkout/mine";
    const learned = "https://pay.example/checkout/elsewhere";
    const [link] = await db
      .insert(checkoutLinks)
      .values({
        accountId,
        identifier: randomUUID(),
        submission: "SUBMITTED",
        checkoutUrl: mine,
        productExternalId: "curso-1",
        productName: "Curso de Pix",
        offerName: "Lançamento",
        price: "97",
        currency: "BRL",
        lang: "pt-BR",
        request: {},
      })
      .returning();
    await db.insert(checkoutLinks).values({
      accountId,
      identifier: randomUUID(),
      submission: "SUBMITTED",
      checkoutUrl: "https://pay.example/checkout/unsold",
      productExternalId: "curso-2",
      productName: "Sem vendas",
      offerName: "Oferta",
      price: "10",
      currency: "BRL",
      lang: "pt-BR",
      request: {},
    });

    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 10, 12, minutes));
    /** A ledger row and, when `visited` is given, the payment notification that named the page. */
    const sale = async (
      account: string,
      options: { cents: number; paidAt: Date | null; offerCode?: string; visited?: string; contradicted?: boolean; name?: string },
    ) => {
      const id = randomUUID();
      await db.insert(ledgerTransactions).values({
        id,
        accountId: account,
        kind: "external",
        identifier: `checkout-${id}`,
        origin: "webhook",
        gatewayTransactionId: id,
        status: options.paidAt ? "COMPLETED" : "PENDING",
        paidAt: options.paidAt,
        amountCents: options.cents,
        clientName: options.name ?? "Ana",
        productName: "Curso de Pix",
        offerCode: options.offerCode ?? null,
      });
      if (options.visited !== undefined) {
        await db.insert(gatewayNotifications).values({
          accountId: account,
          dedupeKey: randomUUID(),
          kind: "payment",
          event: "TRANSACTION_PAID",
          ledgerId: id,
          confirmation: options.contradicted ? "contradicted" : "confirmed",
          payload: { event: "TRANSACTION_PAID", checkoutUrl: options.visited, offerCode: options.offerCode ?? null },
        });
      }
      return id;
    };

    await sale(accountId, { cents: 9_700, paidAt: at(1), offerCode: "off_1", visited: `${mine}?utm_source=ig`, name: "Ana" });
    const latest = await sale(accountId, {
      cents: 4_850,
      paidAt: at(5),
      offerCode: "off_1",
      visited: `${mine}/?utm_source=fb`,
      name: "Bia",
    });
    // No URL in its notification: the offer code says where it was sold.
    await sale(accountId, { cents: 1_000, paidAt: at(3), offerCode: "off_1" });
    // Not confirmed money, or a notification the gateway contradicted: not counted.
    await sale(accountId, { cents: 5_000, paidAt: null, offerCode: "off_1", visited: mine });
    await sale(accountId, { cents: 7_000, paidAt: at(4), visited: `${mine}?x=1`, contradicted: true });
    // Sold on a page the console did not create.
    await sale(accountId, { cents: 2_500, paidAt: at(2), offerCode: "off_9", visited: `${learned}?aff=7` });
    // Another account's sale on the same page is never this account's.
    await sale(other, { cents: 99_900, paidAt: at(6), offerCode: "off_1", visited: mine });

    const { created, learned: learnedPages } = await listCheckoutLinksWithSales(accountId);
    const mineRow = created.find((row) => row.id === link!.id)!;
    expect(mineRow.sales).toMatchObject({ salesCount: 3, revenue: [{ currency: "BRL", revenueCents: 15_550 }], offerCode: "off_1" });
    expect(mineRow.sales!.lastSaleAt).toEqual(at(5));
    expect(created.find((row) => row.productName === "Sem vendas")!.sales).toBeNull();
    expect(learnedPages).toMatchObject([
      { page: learned, salesCount: 1, revenue: [{ currency: "BRL", revenueCents: 2_500 }], offerCode: "off_9" },
    ]);

    expect(await checkoutSalesByPage(accountId, `${mine}?anything`)).toMatchObject([{ page: mine, salesCount: 3 }]);
    const sales = await latestCheckoutSales(accountId, mine, 2);
    expect(sales.map((entry) => entry.ledgerId)[0]).toBe(latest);
    expect(sales).toMatchObject([{ clientName: "Bia", amountCents: 4_850, status: "COMPLETED" }, { amountCents: 1_000 }]);
    expect((await listCheckoutLinksWithSales(other)).learned).toMatchObject([{ page: mine, salesCount: 1 }]);
  });
});
