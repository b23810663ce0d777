import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "@/lib/db/client";
import { ledgerMovements } from "@/lib/db/schema";
import { testDatabases, useDatabase, type TestDatabase } from "@/lib/testing/databases";
import { releaseCalendar } from "@/lib/balance/queries";
import { balanceQuery, closingView, entryNote, figureSource, movementsSince, periodOutflow, shiftMonth, upcomingReleases } from "../view";

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");

const TODAY = "2026-03-18";

describe("balanceQuery", () => {
  it("defaults to this month up to today, all kinds, the period's month for the closing", () => {
    const query = balanceQuery({}, TODAY);
    expect(query).toMatchObject({
      period: { from: "2026-03-01", to: TODAY },
      kinds: [],
      cursor: null,
      month: "2026-03",
      problems: [],
      periodRefused: false,
      defaultPeriod: true,
      search: "?from=2026-03-01&to=2026-03-18",
    });
  });

  it("reads kinds repeated or as a comma list, in the kinds' order, and drops unknown ones with a problem", () => {
    expect(balanceQuery({ kind: ["release", "sale"] }, TODAY).kinds).toEqual(["sale", "release"]);
    const query = balanceQuery({ kind: "transfer, sale,nope", from: "2026-02-01", to: "2026-02-28" }, TODAY);
    expect(query.kinds).toEqual(["sale", "transfer"]);
    expect(query.problems).toEqual([{ param: "kind", reason: "choice" }]);
    expect(query.search).toBe("?from=2026-02-01&to=2026-02-28&kind=sale,transfer");
    expect(query.month).toBe("2026-02");
    expect(query.defaultPeriod).toBe(false);
    expect(balanceQuery({ kind: "sale\u0000" }, TODAY).problems).toEqual([{ param: "kind", reason: "choice" }]);
  });

  it("keeps one day given alone, refuses a period that ends before it starts, drops bad cursors and months", () => {
    expect(balanceQuery({ from: "2026-04-02" }, TODAY).period).toEqual({ from: "2026-04-02", to: "2026-04-02" });
    const refused = balanceQuery({ from: "2026-03-10", to: "2026-03-01" }, TODAY);
    expect(refused.periodRefused).toBe(true);
    expect(refused.period).toEqual({ from: "2026-03-01", to: TODAY });
    const bad = balanceQuery({ cursor: "x_1", month: "2026-13", from: "2026-02-30" }, TODAY);
    expect(bad.problems.map((p) => p.param).sort()).toEqual(["cursor", "from", "month"]);
    expect(bad.cursor).toBeNull();
    const cursor = "2026-03-10T12:00:00.000Z_0b7f6f3e-1111-4222-8333-944455556666";
    expect(balanceQuery({ cursor, month: "2026-01" }, TODAY)).toMatchObject({ cursor, month: "2026-01", problems: [] });
  });
});

describe("view of the figures", () => {
  it("shifts months across years", () => {
    expect(shiftMonth("2026-01", -1)).toBe("2025-12");
    expect(shiftMonth("2025-12", 1)).toBe("2026-01");
    expect(shiftMonth("2026-03", 0)).toBe("2026-03");
  });

  it("counts what went out: transfers and their fees, net of what failed transfers gave back", () => {
    expect(
      periodOutflow([
        { kind: "sale", count: 3, availableCents: 0, pendingCents: 30_000 },
        { kind: "transfer", count: 2, availableCents: -15_000, pendingCents: 0 },
        { kind: "transfer_fee", count: 2, availableCents: -200, pendingCents: 0 },
        { kind: "transfer_returned", count: 1, availableCents: 5_000, pendingCents: 0 },
        { kind: "transfer_fee_returned", count: 1, availableCents: 100, pendingCents: 0 },
      ]),
    ).toEqual({ cents: 10_100, transfers: 2, returned: 1 });
    expect(periodOutflow([])).toEqual({ cents: 0, transfers: 0, returned: 0 });
  });

  it("says what the figures start from", () => {
    const readAt = new Date("2026-03-01T12:00:00Z");
    const firstAt = new Date("2026-01-05T12:00:00Z");
    const baseline = { availableCents: 1, pendingCents: 2, entryId: "e", readAt };
    expect(figureSource({ baseline, firstMovementAt: firstAt }, 4)).toEqual({ kind: "entry", readAt, movements: 4 });
    const none = { availableCents: 0, pendingCents: 0, entryId: null, readAt: null };
    expect(figureSource({ baseline: none, firstMovementAt: firstAt }, 0)).toEqual({ kind: "first", firstAt });
    expect(figureSource({ baseline: none, firstMovementAt: null }, 0)).toEqual({ kind: "nothing" });
  });

  it("notes each entry's unexplained difference, none, or that it was the first", () => {
    expect(entryNote({ difference: null })).toEqual({ kind: "first" });
    expect(entryNote({ difference: { availableCents: 0, pendingCents: 0 } })).toEqual({ kind: "none" });
    expect(entryNote({ difference: { availableCents: -150, pendingCents: 0 } })).toEqual({
      kind: "difference",
      availableCents: -150,
      pendingCents: 0,
    });
  });

  it("lays the month's closing out in the kinds' order and checks it adds up to the cent", () => {
    const view = closingView({
      opening: { availableCents: 10_000, pendingCents: 5_000 },
      movements: [
        { kind: "release", count: 1, availableCents: 4_801, pendingCents: -4_801 },
        { kind: "sale", count: 2, availableCents: 0, pendingCents: 20_000 },
        { kind: "fee", count: 2, availableCents: 0, pendingCents: -398 },
      ],
      closing: { availableCents: 14_801, pendingCents: 19_801 },
    });
    expect(view.lines.map((l) => l.kind)).toEqual(["sale", "fee", "release"]);
    expect(view.adds).toBe(true);
    expect(closingView({ ...view, movements: view.lines, closing: { availableCents: 14_800, pendingCents: 19_801 } }).adds).toBe(false);
  });
});

const targets = await testDatabases();

describe.each(targets)("movementsSince on $name", (target: TestDatabase) => {
  let accountId = "";
  beforeAll(async () => {
    await closeDb();
    useDatabase(target);
    const { createAccount } = await import("@/lib/accounts/queries");
    const account = await createAccount(
      { name: "Saldo", baseUrl: "https://gw.example", publicKey: "pk", secretKey: "sk_test_123456", webhookToken: null, mode: "test" },
      null,
    );
    const other = await createAccount(
      { name: "Outra", baseUrl: "https://gw.example", publicKey: "pk2", secretKey: "sk_test_654321", webhookToken: null, mode: "test" },
      null,
    );
    accountId = account.id;
    const db = await getDb();
    const at = (iso: string) => new Date(iso);
    await db.insert(ledgerMovements).values([
      { accountId, kind: "sale", availableCents: 0, pendingCents: 1000, occurredAt: at("2026-03-01T12:00:00Z") },
      { accountId, kind: "fee", availableCents: 0, pendingCents: -50, occurredAt: at("2026-03-01T12:00:00Z") },
      { accountId, kind: "sale", availableCents: 0, pendingCents: 2000, occurredAt: at("2026-03-02T12:00:00Z") },
      // A release dated in the future counts once its time has come.
      { accountId, kind: "release", availableCents: 950, pendingCents: -950, occurredAt: at("2026-03-31T12:00:00Z") },
      { accountId: other.id, kind: "sale", availableCents: 0, pendingCents: 700, occurredAt: at("2026-03-02T12:00:00Z") },
    ]);
  });
  afterAll(async () => {
    await closeDb();
    await target.drop();
  });

  it("counts the account's movements after the entry (exclusive) up to now", async () => {
    const now = new Date("2026-03-18T12:00:00Z");
    expect(await movementsSince(accountId, new Date("2026-03-01T11:00:00Z"), now)).toBe(3);
    expect(await movementsSince(accountId, new Date("2026-03-01T12:00:00Z"), now)).toBe(1);
    expect(await movementsSince(accountId, new Date("2026-03-01T11:00:00Z"), new Date("2026-04-01T00:00:00Z"))).toBe(4);
  });

  it("sums the releases of each São Paulo day ahead, within the days asked for", async () => {
    const now = new Date("2026-03-18T12:00:00Z");
    expect(await releaseCalendar(accountId, 60, now)).toEqual([{ day: "2026-03-31", amountCents: 950, sales: 1 }]);
    expect(await releaseCalendar(accountId, 12, now)).toEqual([]);
    expect(await releaseCalendar(accountId, 13, now)).toEqual([{ day: "2026-03-31", amountCents: 950, sales: 1 }]);
  });

  it("lists the period's releases still to come, by São Paulo day", async () => {
    const now = new Date("2026-03-18T12:00:00Z");
    const day = await upcomingReleases(accountId, { from: "2026-03-31", to: "2026-03-31" }, now);
    expect(day.map((r) => [r.amountCents, r.occurredAt.toISOString()])).toEqual([[950, "2026-03-31T12:00:00.000Z"]]);
    expect(await upcomingReleases(accountId, { from: "2026-03-01", to: "2026-03-30" }, now)).toEqual([]);
    // Once its time has come it is in the extrato, no longer to come.
    expect(await upcomingReleases(accountId, { from: "2026-03-31", to: "2026-03-31" }, new Date("2026-04-01T00:00:00Z"))).toEqual([]);
  });
});
