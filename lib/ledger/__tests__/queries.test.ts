import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "@/lib/db/client";
import { ledgerTransactions } from "@/lib/db/schema";
import { testDatabases, useDatabase, type TestDatabase } from "@/lib/testing/databases";
import { parseLedgerFilters } from "@/lib/ledger/filters";

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");

const targets = await testDatabases();

type Seed = typeof ledgerTransactions.$inferInsert;

/** 2026-03-10 12:00 in São Paulo is 15:00 UTC. */
const base = Date.parse("2026-03-10T15:00:00Z");
const hour = 3_600_000;

function rows(accountId: string): Seed[] {
  const out: Seed[] = [];
  const methods = ["PIX", "CREDIT_CARD", "BOLETO"];
  const statuses = ["OK", "COMPLETED", "PENDING", "SOMETHING_NEW"];
  for (let i = 0; i < 120; i++) {
    out.push({
      accountId,
      kind: "external",
      origin: "webhook",
      identifier: `order-${String(i).padStart(4, "0")}`,
      gatewayTransactionId: `gw_${i}`,
      status: statuses[i % statuses.length],
      paymentMethod: methods[i % methods.length],
      amountCents: 1000 + i * 100,
      clientName: i === 7 ? 'José da Silva; "Zé"' : i === 8 ? '=HYPERLINK("x")\nlinha 2' : `Cliente ${i}`,
      clientEmail: `cliente${i}@example.com`,
      clientDocument: i === 9 ? "529.982.247-25" : null,
      // One row per hour going back; rows 0..3 share a timestamp to exercise the id tie-break.
      createdAt: new Date(base - Math.max(0, i - 3) * hour),
    });
  }
  return out;
}

describe.each(targets)("ledger queries on $name", (target: TestDatabase) => {
  let accountId = "";
  let otherAccountId = "";

  beforeAll(async () => {
    await closeDb();
    useDatabase(target);
    const { createAccount } = await import("@/lib/accounts/queries");
    const account = await createAccount(
      { name: "Ledger", baseUrl: "https://gw.example", publicKey: "pk", secretKey: "sk_test_123456", webhookToken: null, mode: "test" },
      null,
    );
    const other = await createAccount(
      { name: "Other", baseUrl: "https://gw.example", publicKey: "pk2", secretKey: "sk_test_654321", webhookToken: null, mode: "test" },
      null,
    );
    accountId = account.id;
    otherAccountId = other.id;
    const db = await getDb();
    await db.insert(ledgerTransactions).values(rows(accountId));
    await db.insert(ledgerTransactions).values({
      accountId: otherAccountId,
      kind: "external",
      origin: "webhook",
      identifier: "order-0001",
      status: "OK",
      paymentMethod: "PIX",
      amountCents: 500,
    });
  });
  afterAll(async () => {
    await closeDb();
    await target.drop();
  });

  it("walks every row exactly once with keyset pages, newest first, ties broken by id", async () => {
    const { listLedger } = await import("@/lib/ledger/queries");
    const seen: string[] = [];
    const createdAts: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<typeof listLedger>> = await listLedger(accountId, {}, { limit: 25, cursor });
      seen.push(...page.rows.map((row) => row.identifier));
      createdAts.push(...page.rows.map((row) => row.createdAt.getTime()));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen).toHaveLength(120);
    expect(new Set(seen).size).toBe(120);
    expect(createdAts).toEqual([...createdAts].sort((a, b) => b - a));
  });

  it("keeps rows that share a timestamp down to the microsecond across a page boundary", async () => {
    const { listLedger } = await import("@/lib/ledger/queries");
    const first = await listLedger(accountId, {}, { limit: 2 });
    const second = await listLedger(accountId, {}, { limit: 2, cursor: first.nextCursor });
    const ids = [...first.rows, ...second.rows].map((row) => row.identifier).sort();
    expect(ids).toEqual(["order-0000", "order-0001", "order-0002", "order-0003"]);
  });

  it("filters by status (unknown ones too), method, amount range and São Paulo days", async () => {
    const { countLedger, listLedger } = await import("@/lib/ledger/queries");
    expect(await countLedger(accountId, { status: "SOMETHING_NEW" })).toBe(30);
    expect(await countLedger(accountId, { status: "COMPLETED", method: "PIX" })).toBe(10);
    expect(await countLedger(accountId, { minCents: 1000, maxCents: 1500 })).toBe(6);
    // 2026-03-10 in São Paulo runs 03:00Z..03:00Z next day; base is 15:00Z, rows go back an hour each.
    const day = await listLedger(accountId, { from: "2026-03-10", to: "2026-03-10" }, { limit: 500 });
    expect(day.rows.every((row) => row.createdAt.getTime() >= Date.parse("2026-03-10T03:00:00Z"))).toBe(true);
    expect(day.rows).toHaveLength(4 + 12);
    expect(await countLedger(accountId, { from: "2026-03-09", to: "2026-03-09" })).toBe(24);
    expect(await countLedger(otherAccountId, {})).toBe(1);
  });

  it("searches gateway id, identifier, client name, e-mail and document (with or without punctuation)", async () => {
    const { countLedger, listLedger } = await import("@/lib/ledger/queries");
    expect((await listLedger(accountId, { q: "gw_42" })).rows.map((r) => r.gatewayTransactionId)).toEqual(["gw_42"]);
    expect(await countLedger(accountId, { q: "ORDER-011" })).toBe(10);
    expect((await listLedger(accountId, { q: "josé" })).rows.map((r) => r.identifier)).toEqual(["order-0007"]);
    expect((await listLedger(accountId, { q: "cliente12@example" })).rows.map((r) => r.identifier)).toEqual(["order-0012"]);
    expect((await listLedger(accountId, { q: "52998224725" })).rows.map((r) => r.identifier)).toEqual(["order-0009"]);
    expect((await listLedger(accountId, { q: "529.982.247-25" })).rows.map((r) => r.identifier)).toEqual(["order-0009"]);
    // LIKE wildcards typed by the user are literal.
    expect(await countLedger(accountId, { q: "%" })).toBe(0);
    expect(await countLedger(accountId, { q: "gw\\_1" })).toBe(0);
  });

  it("parses URL filters leniently", () => {
    expect(parseLedgerFilters({ status: "OK", from: "2026-13-01", min: "10,50", max: "abc", q: "  ana " })).toEqual({
      status: "OK",
      minCents: 1050,
      q: "ana",
    });
  });

  it("exports every matching row as Excel-friendly CSV, streamed in batches", async () => {
    const { ledgerCsvChunks, CSV_HEADER } = await import("@/lib/ledger/export");
    let csv = "";
    let chunks = 0;
    for await (const chunk of ledgerCsvChunks(accountId, parseLedgerFilters({ method: "PIX" }), { batchSize: 7 })) {
      csv += chunk;
      chunks++;
    }
    expect(csv.startsWith("\uFEFF")).toBe(true);
    const lines = csv.slice(1).split("\r\n").filter(Boolean);
    expect(lines[0]).toBe(CSV_HEADER.join(";"));
    expect(lines).toHaveLength(1 + 40);
    expect(chunks).toBe(1 + Math.ceil(40 / 7));
    const header = lines[0]!.split(";");
    const first = lines[1]!.split(";");
    expect(first[header.indexOf("metodo")]).toBe('"PIX"');
    const cents = Number(first[header.indexOf("valor_centavos")]);
    expect(first[header.indexOf("valor")]).toBe(`${Math.floor(cents / 100)},${String(cents % 100).padStart(2, "0")}`);

    let all = "";
    for await (const chunk of ledgerCsvChunks(accountId, { q: "josé" })) all += chunk;
    expect(all).toContain(`"José da Silva; ""Zé"""`);
    let formula = "";
    for await (const chunk of ledgerCsvChunks(accountId, { q: "order-0008" })) formula += chunk;
    // Neutralised for Excel, then quoted because of the quotes and the line break.
    expect(formula).toContain(`;"'=HYPERLINK(""x"")\nlinha 2";`);
    expect(formula).toContain(';"BRL";');
    expect(formula).toMatch(/;18,00;1800;;;"BRL";/);
    expect(all).toContain("2026-03-10 08:00:00");
    expect(all).toContain(";2026-03-10T11:00:00Z;");
  });

  it("stops between batches when cancelled", async () => {
    const { ledgerCsvChunks } = await import("@/lib/ledger/export");
    const controller = new AbortController();
    let chunks = 0;
    for await (const chunk of ledgerCsvChunks(accountId, {}, { batchSize: 10, signal: controller.signal })) {
      expect(chunk.length).toBeGreaterThan(0);
      chunks++;
      if (chunks === 3) controller.abort();
    }
    expect(chunks).toBe(3);
  });

  it("lists distinct statuses and methods of the account only", async () => {
    const { listLedgerMethods, listLedgerStatuses } = await import("@/lib/ledger/queries");
    expect(await listLedgerStatuses(accountId)).toEqual(["COMPLETED", "OK", "PENDING", "SOMETHING_NEW"]);
    expect(await listLedgerMethods(accountId)).toEqual(["BOLETO", "CREDIT_CARD", "PIX"]);
    expect(await listLedgerStatuses(otherAccountId)).toEqual(["OK"]);
  });

  it("keeps saved views per user and account, replacing one saved under the same name", async () => {
    const db = await getDb();
    const { users } = await import("@/lib/db/schema");
    const [user] = await db
      .insert(users)
      .values({ email: `v${Date.now()}@example.com`, name: "V", passwordHash: "x", role: "viewer" })
      .returning();
    const { deleteView, listSavedViews, saveView } = await import("@/lib/ledger/saved-views");
    await saveView(user!.id, accountId, "Pix pagos", { status: "COMPLETED", method: "PIX" });
    await saveView(user!.id, accountId, "Pix pagos", { status: "OK", method: "PIX", cursor: "x" } as never);
    const views = await listSavedViews(user!.id, accountId);
    expect(views).toHaveLength(1);
    expect(views[0]!.filters).toEqual({ status: "OK", method: "PIX" });
    expect(await listSavedViews(user!.id, otherAccountId)).toEqual([]);
    expect(await deleteView(user!.id, otherAccountId, views[0]!.id)).toBe(false);
    expect(await deleteView(user!.id, accountId, views[0]!.id)).toBe(true);
  });
});
