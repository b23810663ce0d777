import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import { auditLog } from "@/lib/db/schema";
import { testDatabases, useDatabase, type TestDatabase } from "@/lib/testing/databases";

// The server action runs as in Next, the session from here: the permission check is the real role matrix.
const session = vi.hoisted(() => ({ role: "producer" as "admin" | "operator" | "producer" | "viewer", accountId: "" }));
vi.mock("@/lib/auth/session", async () => {
  const { roleCan } = await import("@/lib/auth/permissions");
  class AccessDeniedError extends Error {
    constructor(readonly reason: "unauthenticated" | "forbidden") {
      super(reason);
    }
  }
  const context = () => {
    const account = { id: session.accountId, name: "Clube", mode: "test", role: session.role };
    return {
      user: { id: "user-rules-test", email: "rules@example.test", name: "Rules", role: session.role, locale: "pt-BR" },
      accounts: [account],
      account,
      ip: "203.0.113.51",
    };
  };
  type Context = ReturnType<typeof context>;
  const can = (ctx: Context, permission: Parameters<typeof roleCan>[1], accountId?: string) =>
    roleCan(session.role, permission) && (!accountId || ctx.accounts.some((a) => a.id === accountId));
  return {
    AccessDeniedError,
    can,
    getAccessContext: async () => context(),
    authorize: async (permission: Parameters<typeof roleCan>[1]) => {
      if (!roleCan(session.role, permission)) throw new AccessDeniedError("forbidden");
      return context();
    },
  };
});
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");
const targets = await testDatabases();

describe.each(targets)("the subscription rules action on $name", (target: TestDatabase) => {
  beforeAll(async () => {
    await closeDb();
    useDatabase(target);
    const { createAccount } = await import("@/lib/accounts/queries");
    session.accountId = (
      await createAccount({ name: "Clube", baseUrl: "http://127.0.0.1:9", publicKey: "pk", secretKey: "sk_1234567890", mode: "test" }, null)
    ).id;
  });
  afterAll(async () => {
    await closeDb();
    await target.drop();
  });

  it("saves the account's rules for those who may change them, audited; refuses a viewer and bad values at their field", async () => {
    const { saveSubscriptionRulesAction } = await import("@/app/(dashboard)/[account]/subscriptions/actions");
    const { subscriptionRules } = await import("@/lib/subscriptions/queries");
    const accountId = session.accountId;
    expect(await subscriptionRules(accountId)).toEqual({ graceDays: 3, lostAfterPeriods: 3 });

    session.role = "viewer";
    expect(await saveSubscriptionRulesAction({ accountId, graceDays: "5", lostAfterPeriods: "2" })).toMatchObject({ ok: false });
    expect(await subscriptionRules(accountId)).toEqual({ graceDays: 3, lostAfterPeriods: 3 });

    session.role = "producer";
    expect(await saveSubscriptionRulesAction({ accountId, graceDays: "99", lostAfterPeriods: "2" })).toMatchObject({
      ok: false,
      fieldErrors: { graceDays: ["subscriptions.errors.graceDays"] },
    });
    expect(await saveSubscriptionRulesAction({ accountId, graceDays: "5", lostAfterPeriods: "2" })).toMatchObject({ ok: true });
    expect(await subscriptionRules(accountId)).toEqual({ graceDays: 5, lostAfterPeriods: 2 });
    const db = await getDb();
    const audits = await db.select().from(auditLog).where(eq(auditLog.action, "subscriptions.rules_updated"));
    expect(audits).toMatchObject([{ accountId, userId: "user-rules-test", details: { graceDays: 5, lostAfterPeriods: 2 } }]);
  });
});
