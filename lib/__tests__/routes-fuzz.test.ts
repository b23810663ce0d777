import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closeDb } from "@/lib/db/client";
import { testDatabases, useDatabase } from "@/lib/testing/databases";

process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");
process.env.WEBHOOK_APPLIER = "off";
process.env.CRON_SECRET = "cron-secret-for-tests";

const account = { id: "", name: "Loja", mode: "test" as const, role: "viewer" as const, source: "ui" as const };
vi.mock("@/lib/auth/session", async (original) => {
  const real = await original<typeof import("@/lib/auth/session")>();
  return {
    ...real,
    authorize: async () => ({ user: { id: "u1", email: "v@example.com", role: "viewer" }, accounts: [account], account, ip: null }),
    // The extrato's export words its kinds in the user's language.
    getSessionUser: async () => ({ id: "u1", email: "v@example.com", name: "V", role: "viewer", locale: "pt-BR", sessionId: "s1" }),
  };
});

const [target] = await testDatabases();
const INTERNALS = /\bat [\w.<>]+ \(|node_modules|\/work\/|\bselect\b.+\bfrom\b|\binsert into\b|\bError: |Failed query|params:/i;

const nasty = fc.oneof(
  fc.constantFrom(
    "\u0000",
    "a\u0000b",
    "x".repeat(300_000),
    "0000-01-01",
    "275760-09-13",
    "9".repeat(400),
    "1e309",
    "-1",
    "NaN",
    "%00",
    "'; drop table users; --",
  ),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 30 }),
);
const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
const body = fc.oneof(
  fc.constantFrom(deep(10_000), '{"token":"\u0000"}', '{"event":"x","token":"t","transaction":{"id":"\u0000"}}', "{", ""),
  fc
    .dictionary(
      fc.constantFrom("token", "event", "transaction", "withdraw", "identifier", "amount"),
      fc.oneof(nasty, fc.double(), fc.constant(null)),
    )
    .map((o) => JSON.stringify(o)),
  fc.anything().map((v) => JSON.stringify(v) ?? "null"),
);

describe("console route handlers under fuzzing", () => {
  beforeAll(async () => {
    await closeDb();
    useDatabase(target);
    const { createAccount } = await import("@/lib/accounts/queries");
    account.id = (
      await createAccount(
        {
          name: "Loja",
          baseUrl: "http://127.0.0.1:9",
          publicKey: "pk",
          secretKey: "sk_1234567890",
          webhookToken: "wht_tokentoken",
          mode: "test",
        },
        null,
      )
    ).id;
  });
  afterAll(async () => {
    await closeDb();
    await target.drop();
  });

  it("answers 2,000 bad inputs with no 5xx and no internals", async () => {
    const webhook = await import("@/app/api/webhooks/[accountId]/route");
    const transferWebhook = await import("@/app/api/webhooks/[accountId]/[callbackKey]/route");
    const feed = await import("@/app/api/feed/route");
    const exportRoute = await import("@/app/api/transactions/export/route");
    const cron = await import("@/app/api/cron/reconcile/route");
    const payoutTemplate = await import("@/app/(dashboard)/[account]/payouts/template/[format]/route");
    const payoutResults = await import("@/app/(dashboard)/[account]/payouts/[batchId]/results/[format]/route");
    const statementExport = await import("@/app/(dashboard)/[account]/balance/export/[format]/route");
    const subscriptionsExport = await import("@/app/(dashboard)/[account]/subscriptions/export/route");
    const qs = (key: string, value: string) => `${key}=${encodeURIComponent(value.slice(0, 5_000))}`;
    const calls = [
      (seg: string, b: string) =>
        webhook.POST(new Request("http://c.test/api/webhooks/x", { method: "POST", body: b }), {
          params: Promise.resolve({ accountId: seg }),
        }),
      (_seg: string, b: string) =>
        webhook.POST(new Request("http://c.test/api/webhooks/x", { method: "POST", body: b }), {
          params: Promise.resolve({ accountId: account.id }),
        }),
      (seg: string, b: string) =>
        transferWebhook.POST(new Request("http://c.test/api/webhooks/x/y", { method: "POST", body: b }), {
          params: Promise.resolve({ accountId: account.id, callbackKey: seg }),
        }),
      (seg: string) => feed.GET(new Request(`http://c.test/api/feed?${qs("after", seg)}&${qs("account", seg)}`)),
      (seg: string) =>
        exportRoute.GET(
          new Request(
            `http://c.test/api/transactions/export?${qs("from", seg)}&${qs("to", seg)}&${qs("min", seg)}&${qs("max", seg)}&${qs("q", seg)}&${qs("status", seg)}`,
          ),
        ),
      (seg: string) =>
        cron.GET(
          new Request("http://c.test/api/cron/reconcile", {
            headers: { authorization: `Bearer ${seg.replace(/[^\x20-\x7e]/g, "").slice(0, 100)}` },
          }),
        ),
      (seg: string) =>
        payoutTemplate.GET(new Request("http://c.test/x/payouts/template/csv"), {
          params: Promise.resolve({ account: seg.length % 2 ? seg : account.id, format: seg.length % 3 ? seg : "xlsx" }),
        }),
      (seg: string) =>
        payoutResults.GET(new Request("http://c.test/x/payouts/y/results/csv"), {
          params: Promise.resolve({ account: account.id, batchId: seg, format: seg.length % 2 ? "csv" : seg }),
        }),
      (seg: string) =>
        statementExport.GET(new Request(`http://c.test/x/balance/export/csv?${qs("from", seg)}&${qs("to", seg)}&${qs("kind", seg)}`), {
          params: Promise.resolve({ account: seg.length % 2 ? seg : account.id, format: seg.length % 3 ? seg : "csv" }),
        }),
      (seg: string) =>
        subscriptionsExport.GET(
          new Request(
            `http://c.test/x/subscriptions/export?${qs("state", seg)}&${qs("method", seg)}&${qs("product", seg)}&${qs("q", seg)}`,
          ),
          { params: Promise.resolve({ account: seg.length % 2 ? seg : account.id }) },
        ),
    ];
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: calls.length - 1 }), nasty, body, async (which, seg, b) => {
        const response = await calls[which](seg, b);
        const text = response.body ? await new Response(response.body).text().catch(() => "") : "";
        runs++;
        expect(response.status, `${which} ${JSON.stringify(seg).slice(0, 80)} ${b.slice(0, 80)} -> ${text.slice(0, 200)}`).toBeLessThan(
          500,
        );
        expect(text).not.toMatch(INTERNALS);
      }),
      { numRuns: 2_000 },
    );
    expect(runs).toBe(2_000);
  }, 300_000);
});
