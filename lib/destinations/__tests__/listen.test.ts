import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { closeDb, getDb } from "@/lib/db/client";
import { destinationAttempts, destinationDeliveries, ledgerTransactions } from "@/lib/db/schema";
import { testDatabases, useDatabase, type TestDatabase } from "@/lib/testing/databases";

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");
const targets = await testDatabases();
const actor = { id: "u1", email: "admin@example.test" };

describe.each(targets)("npm run listen's session on $name", (target: TestDatabase) => {
  let accountId: string;
  let otherAccountId: string;

  beforeAll(async () => {
    await closeDb();
    useDatabase(target);
    const { createAccount } = await import("@/lib/accounts/queries");
    accountId = (
      await createAccount({ name: "Loja", baseUrl: "https://gw.example", publicKey: "pk", secretKey: "sk_1234567890", mode: "test" }, null)
    ).id;
    otherAccountId = (
      await createAccount(
        { name: "Outra", baseUrl: "https://gw.example", publicKey: "pk2", secretKey: "sk_0987654321", mode: "test" },
        null,
      )
    ).id;
  });
  afterAll(async () => {
    await closeDb();
    await target.drop();
  });

  it("pulls the account's events signed with the session's secret, and reports what the local receiver answered", async () => {
    const { authenticateListen, createListenToken, openListenSession, pullListenDeliveries, reportListenResults, revokeListenToken } =
      await import("../listen");
    const { token, id } = await createListenToken(accountId, actor, null);
    expect(token).toMatch(/^lst_/);
    expect(await authenticateListen(`Bearer ${token}`)).toEqual({ tokenId: id, accountId });
    expect(await authenticateListen(`Bearer lst_${randomBytes(24).toString("base64url")}`)).toBeNull();
    expect(await authenticateListen(token)).toBeNull();

    const ctx = (await authenticateListen(`Bearer ${token}`))!;
    const session = await openListenSession(ctx, "http://localhost:8000/hook");
    expect(session.account).toEqual({ name: "Loja", mode: "test" });

    const db = await getDb();
    const identifier = `ord-${randomUUID()}`;
    await db.insert(ledgerTransactions).values({
      accountId,
      kind: "pix_charge",
      identifier,
      origin: "console",
      submission: "SUBMITTED",
      status: "OK",
      statusSource: "creation",
    });
    // Another account's event never reaches this key's session.
    await db.insert(ledgerTransactions).values({
      accountId: otherAccountId,
      kind: "pix_charge",
      identifier: `other-${identifier}`,
      origin: "console",
      submission: "SUBMITTED",
      status: "OK",
      statusSource: "creation",
    });

    const pulled = (await pullListenDeliveries(ctx, 2_000))!;
    expect(pulled).toHaveLength(1);
    const [delivery] = pulled;
    const verified = new Webhook(session.secret).verify(delivery!.body, delivery!.headers) as {
      type: string;
      data: { identifier: string };
    };
    expect(verified).toMatchObject({ type: "charge.created", data: { identifier } });
    // Claimed: a second pull does not hand it out again while its lease lasts.
    expect(await pullListenDeliveries(ctx, 0)).toEqual([]);

    await reportListenResults(ctx, [
      {
        deliveryId: delivery!.deliveryId,
        attempt: delivery!.attempt,
        roundStart: delivery!.roundStart,
        status: 200,
        durationMs: 12,
        excerpt: "ok whsec_abcdefghijklmnop",
      },
    ]);
    const [logged] = await db.select().from(destinationAttempts).where(eq(destinationAttempts.deliveryId, delivery!.deliveryId));
    expect(logged).toMatchObject({ httpStatus: 200, durationMs: 12 });
    expect(logged!.responseExcerpt).not.toContain("whsec_abcdefghijklmnop");
    const [state] = await db.select().from(destinationDeliveries).where(eq(destinationDeliveries.id, delivery!.deliveryId));
    expect(state!.state).toBe("delivered");

    expect(await revokeListenToken(accountId, id, actor, null)).toBe(true);
    expect(await authenticateListen(`Bearer ${token}`)).toBeNull();
    expect(await db.select().from(destinationAttempts).where(eq(destinationAttempts.deliveryId, delivery!.deliveryId))).toEqual([]);
  });

  it("a report for a delivery of another destination changes nothing", async () => {
    const { authenticateListen, createListenToken, openListenSession, reportListenResults } = await import("../listen");
    const { createDestination, sendTestEvent } = await import("../queries");
    const other = await createDestination(accountId, { url: "http://127.0.0.1:9/hook", allTypes: true, eventTypes: [] }, actor, null);
    await sendTestEvent(accountId, other.destination.id, actor, null);
    const db = await getDb();
    const [victim] = await db.select().from(destinationDeliveries).where(eq(destinationDeliveries.destinationId, other.destination.id));
    const { token } = await createListenToken(accountId, actor, null);
    const ctx = (await authenticateListen(`Bearer ${token}`))!;
    await openListenSession(ctx, "http://localhost:8000/hook");
    await reportListenResults(ctx, [{ deliveryId: victim!.id, attempt: 0, roundStart: 0, status: 200, durationMs: 1 }]);
    const [after] = await db.select().from(destinationDeliveries).where(eq(destinationDeliveries.id, victim!.id));
    expect(after!.state).toBe("pending");
  });
});
