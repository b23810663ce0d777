import { randomBytes, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { closeDb, getDb } from "@/lib/db/client";
import { destinationAttempts, destinationDeliveries, eventDestinations, ledgerTransactions } from "@/lib/db/schema";
import { testDatabases, useDatabase, type TestDatabase } from "@/lib/testing/databases";
import { startReceiver } from "@/lib/testing/webhook-receiver";

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");
process.env.WEBHOOK_APPLIER = "off";
process.env.DESTINATION_RETRY_DELAYS_MS = "0,0,0";
process.env.DESTINATION_TIMEOUT_MS = "800";

let secret: string | null = null;
const receiver = await startReceiver(() => secret);
afterAll(() => receiver.close());
const targets = await testDatabases();
const actor = { id: "u1", email: "admin@example.test" };

describe.each(targets)("delivering events on $name", (target: TestDatabase) => {
  let accountId: string;
  let destinationId: string;

  beforeAll(async () => {
    await closeDb();
    useDatabase(target);
    const { createAccount } = await import("@/lib/accounts/queries");
    accountId = (
      await createAccount({ name: "Loja", baseUrl: "https://gw.example", publicKey: "pk", secretKey: "sk_1234567890", mode: "test" }, null)
    ).id;
    const { createDestination } = await import("../queries");
    const created = await createDestination(accountId, { url: receiver.url, allTypes: true, eventTypes: [] }, actor, null);
    destinationId = created.destination.id;
    secret = created.secret;
  });
  afterAll(async () => {
    const { stopFeedListener } = await import("@/lib/feed/bus");
    await stopFeedListener();
    await closeDb();
    await target.drop();
  });

  /** A confirmed charge: the trigger records the fact, publishing makes its event. */
  async function confirmedCharge(): Promise<string> {
    const db = await getDb();
    const identifier = `ord-${randomUUID().slice(0, 8)}`;
    await db.insert(ledgerTransactions).values({
      accountId,
      kind: "pix_charge",
      identifier,
      origin: "console",
      submission: "SUBMITTED",
      status: "OK",
      statusSource: "creation",
    });
    return identifier;
  }
  const pass = async () => {
    const { runDestinationsOnce } = await import("../work");
    return runDestinationsOnce();
  };
  const forIdentifier = (identifier: string) => receiver.received.filter((r) => r.body.includes(identifier));
  async function attemptsOf(eventId: string) {
    const db = await getDb();
    return db.select().from(destinationAttempts).where(eq(destinationAttempts.eventId, eventId)).orderBy(destinationAttempts.attempt);
  }

  it("retries keep the same webhook-id; each attempt is signed anew and logged", async () => {
    receiver.answer({ status: 500, body: '{"error":"db down"}' }, { status: 503, body: "" });
    const identifier = await confirmedCharge();
    await pass();
    await pass();
    await pass();
    const got = forIdentifier(identifier);
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.id)).size).toBe(1);
    expect(got.every((r) => r.verified !== null)).toBe(true);
    const attempts = await attemptsOf(got[0]!.id);
    expect(attempts.map((a) => [a.attempt, a.httpStatus])).toEqual([
      [1, 500],
      [2, 503],
      [3, 200],
    ]);
    expect(attempts[0]!.responseExcerpt).toBe('{"error":"db down"}');
    expect(attempts[0]!.nextRetryAt).not.toBeNull();
    expect(attempts[2]!.nextRetryAt).toBeNull();
  });

  it("after the last scheduled attempt the delivery has failed; nothing is sent again by itself", async () => {
    receiver.answer({ status: 500 }, { status: 500 }, { status: 500 });
    const identifier = await confirmedCharge();
    for (let i = 0; i < 5; i++) await pass();
    const got = forIdentifier(identifier);
    expect(got).toHaveLength(3);
    const db = await getDb();
    const [delivery] = await db.select().from(destinationDeliveries).where(eq(destinationDeliveries.eventId, got[0]!.id));
    expect(delivery).toMatchObject({ state: "failed", attempts: 3, lastStatus: 500 });

    // "Resend" starts the schedule over, under the same id.
    const { resendEvent } = await import("../queries");
    expect(await resendEvent(accountId, destinationId, got[0]!.id, actor, null)).toBe(true);
    await pass();
    expect(forIdentifier(identifier).map((r) => r.id)).toEqual([got[0]!.id, got[0]!.id, got[0]!.id, got[0]!.id]);
    const [again] = await db.select().from(destinationDeliveries).where(eq(destinationDeliveries.eventId, got[0]!.id));
    expect(again).toMatchObject({ state: "delivered", attempts: 4, roundStart: 3 });
  });

  it("honours 429 and Retry-After: no attempt before the time it asked for", async () => {
    receiver.answer({ status: 429, headers: { "retry-after": "2" } });
    const identifier = await confirmedCharge();
    await pass();
    await pass();
    expect(forIdentifier(identifier)).toHaveLength(1);
    const [first] = await attemptsOf(forIdentifier(identifier)[0]!.id);
    expect(first!.httpStatus).toBe(429);
    expect(first!.nextRetryAt!.getTime() - first!.startedAt.getTime()).toBeGreaterThanOrEqual(1_900);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await pass();
    expect(forIdentifier(identifier)).toHaveLength(2);
  });

  it("follows no redirect and stops waiting at the timeout", async () => {
    const { createDestination, deleteDestination } = await import("../queries");
    const slow = createServer((request, response) => {
      if (request.url === "/moved") response.writeHead(301, { location: receiver.url }).end();
      // /slow never answers
    });
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    const { port } = slow.address() as AddressInfo;
    try {
      const moved = await createDestination(
        accountId,
        { url: `http://127.0.0.1:${port}/moved`, allTypes: true, eventTypes: [] },
        actor,
        null,
      );
      const hanging = await createDestination(
        accountId,
        { url: `http://127.0.0.1:${port}/slow`, allTypes: true, eventTypes: [] },
        actor,
        null,
      );
      const before = receiver.received.length;
      await confirmedCharge();
      const started = Date.now();
      await pass();
      expect(Date.now() - started).toBeLessThan(5_000);
      const db = await getDb();
      const [redirect] = await db.select().from(destinationAttempts).where(eq(destinationAttempts.destinationId, moved.destination.id));
      expect(redirect).toMatchObject({ httpStatus: 301, error: "redirect" });
      const [timeout] = await db.select().from(destinationAttempts).where(eq(destinationAttempts.destinationId, hanging.destination.id));
      expect(timeout).toMatchObject({ httpStatus: null, error: "timeout" });
      expect(timeout!.durationMs).toBeGreaterThanOrEqual(700);
      // The redirect was not followed to the receiver: only the receiver's own destination reached it.
      expect(receiver.received.length - before).toBe(1);
      await deleteDestination(accountId, moved.destination.id, actor, null);
      await deleteDestination(accountId, hanging.destination.id, actor, null);
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });

  it("a 410 disables the destination and its queue stops", async () => {
    const { createDestination } = await import("../queries");
    const gone = await startReceiver(() => null);
    try {
      gone.setFallback({ status: 410, body: "gone" });
      const destination = await createDestination(accountId, { url: gone.url, allTypes: true, eventTypes: [] }, actor, null);
      await confirmedCharge();
      await pass();
      await confirmedCharge();
      await pass();
      expect(gone.received).toHaveLength(1);
      const db = await getDb();
      const [row] = await db.select().from(eventDestinations).where(eq(eventDestinations.id, destination.destination.id));
      expect(row).toMatchObject({ state: "disabled", disabledReason: "gone" });
      const { disabledDestinations } = await import("../queries");
      expect((await disabledDestinations(accountId)).map((d) => d.id)).toContain(row!.id);
    } finally {
      await gone.close();
    }
  });

  it("days of nothing but failures disable a destination; one success resets the count", async () => {
    const { createDestination } = await import("../queries");
    const failing = await startReceiver(() => null);
    try {
      failing.setFallback({ status: 500 });
      const destination = await createDestination(accountId, { url: failing.url, allTypes: true, eventTypes: [] }, actor, null);
      await confirmedCharge();
      await pass();
      const db = await getDb();
      let [row] = await db.select().from(eventDestinations).where(eq(eventDestinations.id, destination.destination.id));
      expect(row!.failingSince).not.toBeNull();
      expect(row!.state).toBe("enabled");
      failing.setFallback({ status: 200 });
      await confirmedCharge();
      await pass();
      [row] = await db.select().from(eventDestinations).where(eq(eventDestinations.id, row!.id));
      expect(row!.failingSince).toBeNull();
      failing.setFallback({ status: 500 });
      await confirmedCharge();
      await pass();
      // Five days later, still failing: the next event's attempts fail too.
      await db
        .update(eventDestinations)
        .set({ failingSince: new Date(Date.now() - 5 * 24 * 3_600_000 - 1_000) })
        .where(eq(eventDestinations.id, row!.id));
      await confirmedCharge();
      await pass();
      [row] = await db.select().from(eventDestinations).where(eq(eventDestinations.id, row!.id));
      expect(row).toMatchObject({ state: "disabled", disabledReason: "failing" });
    } finally {
      await failing.close();
    }
  });

  it("during a rotation's overlap both signatures are sent; either secret verifies", async () => {
    const { rotateSecret } = await import("../queries");
    const old = secret!;
    const rotated = await rotateSecret(accountId, destinationId, 24, actor, null);
    secret = rotated.secret;
    const identifier = await confirmedCharge();
    await pass();
    const [got] = forIdentifier(identifier);
    expect(got!.signature.split(" ")).toHaveLength(2);
    const headers = { "webhook-id": got!.id, "webhook-timestamp": got!.timestamp, "webhook-signature": got!.signature };
    expect(() => new Webhook(old).verify(got!.body, headers)).not.toThrow();
    expect(() => new Webhook(rotated.secret).verify(got!.body, headers)).not.toThrow();
    expect(() => new Webhook(`whsec_${randomBytes(32).toString("base64")}`).verify(got!.body, headers)).toThrow();

    await rotateSecret(accountId, destinationId, 0, actor, null).then((r) => (secret = r.secret));
    const next = await confirmedCharge();
    await pass();
    expect(forIdentifier(next)[0]!.signature.split(" ")).toHaveLength(1);
  });

  it("the answer's excerpt is cut at 1 KB with secrets redacted", async () => {
    receiver.answer({ status: 400, body: `{"secret":"whsec_abcdefghijklmnop","echo":"${secret}","pad":"${"x".repeat(3000)}"}` });
    const identifier = await confirmedCharge();
    await pass();
    const [attempt] = await attemptsOf(forIdentifier(identifier)[0]!.id);
    expect(attempt!.responseExcerpt!.length).toBeLessThanOrEqual(1024);
    expect(attempt!.responseExcerpt).not.toContain("whsec_abcdefghijklmnop");
    expect(attempt!.responseExcerpt).not.toContain(secret!);
  });

  it("resend everything since T: the count first, then each event again under its own id", async () => {
    const { countEventsSince, replaySince } = await import("../queries");
    await new Promise((resolve) => setTimeout(resolve, 20));
    const since = new Date();
    const identifiers = [await confirmedCharge(), await confirmedCharge()];
    await pass();
    const count = await countEventsSince(accountId, destinationId, since);
    expect(count).toBe(2);
    const queued = await replaySince(accountId, destinationId, since, actor, null);
    expect(queued).toBe(2);
    await pass();
    for (const identifier of identifiers) {
      const got = forIdentifier(identifier).filter((r) => r.verified);
      expect(got.length).toBeGreaterThanOrEqual(2);
      expect(new Set(got.map((r) => r.id)).size).toBe(1);
    }
  });

  it("a test event reaches only the destination it was sent to", async () => {
    const { sendTestEvent } = await import("../queries");
    const id = await sendTestEvent(accountId, destinationId, actor, null);
    await pass();
    const got = receiver.received.filter((r) => r.id === id);
    expect(got).toHaveLength(1);
    expect(got[0]!.verified).toMatchObject({ type: "destination.test", data: { destinationId, accountId, mode: "test" } });
  });
});
