import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import { ledgerTransactions, transfers, gatewayNotifications } from "@/lib/db/schema";
import { testDatabases, useDatabase, type TestDatabase } from "@/lib/testing/databases";
import { startLookupGateway } from "@/lib/testing/lookup-gateway";
import { DEPTH_MARKER, MAX_PAYLOAD_DEPTH } from "@/lib/notifications/sanitize";

process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");
// The tests drive the applier and the reconciler themselves, step by step.
process.env.WEBHOOK_APPLIER = "off";
process.env.RECONCILE_DELAYS_MS = "0";
const gateway = await startLookupGateway();
afterAll(() => gateway.close());

const TOKEN = "wht_hostile_7e2a91c4";
const targets = await testDatabases();

/** A TRANSACTION_PAID as the gateway writes it, as JSON text; `name` is spliced in raw, so it may hold escapes. */
function paidBody(tx: { id: string; identifier: string }, rawName = '"Maria Souza"', extra = "") {
  return `{"event":"TRANSACTION_PAID","token":"${TOKEN}","offerCode":null,"checkoutUrl":"",
    "client":{"id":"cli_1","name":${rawName},"email":"maria@example.com","cpf":"529.982.247-25","cnpj":null},
    "transaction":{"id":"${tx.id}","identifier":"${tx.identifier}","status":"COMPLETED","paymentMethod":"PIX","amount":50,
      "commissionAmount":49.5,"currency":"BRL","createdAt":"2026-11-20T12:00:00.000Z","payedAt":"2026-11-20T12:05:00.000Z"}${extra}}`;
}

describe.each(targets)("hostile but authentic webhook bodies on $name", (target: TestDatabase) => {
  let accountId: string;

  beforeAll(async () => {
    await closeDb();
    useDatabase(target);
    const { createAccount } = await import("@/lib/accounts/queries");
    accountId = (
      await createAccount(
        { name: "Loja", baseUrl: gateway.baseUrl, publicKey: "pk", secretKey: "sk_1234567890", webhookToken: TOKEN, mode: "test" },
        null,
      )
    ).id;
  });
  afterAll(async () => {
    const { stopFeedListener } = await import("@/lib/feed/bus");
    await stopFeedListener();
    await closeDb();
    await target.drop();
  });

  /** Through the HTTP layer, as the route handler does. */
  const post = async (body: string) => {
    const { handleWebhookRequest } = await import("@/lib/notifications/http");
    const response = await handleWebhookRequest(new Request("http://console.test/api/webhooks/x", { method: "POST", body }), accountId);
    return { status: response.status, body: (await response.json()) as { id?: string; error?: string } };
  };
  const stored = async (id: string) => {
    const db = await getDb();
    const [row] = await db.select().from(gatewayNotifications).where(eq(gatewayNotifications.id, id));
    return row;
  };
  const newTx = () => ({ id: `tx_${randomUUID()}`, identifier: `pix-${randomUUID().slice(0, 8)}` });

  it("stores and acknowledges a paid notification whose client name holds an escaped NUL, and the confirmed payment reaches the ledger", async () => {
    const db = await getDb();
    const tx = newTx();
    // A charge the console created, as in the real flow.
    const [own] = await db
      .insert(ledgerTransactions)
      .values({
        accountId,
        kind: "pix_charge",
        identifier: tx.identifier,
        origin: "console",
        submission: "SUBMITTED",
        status: "OK",
        statusSource: "creation",
        statusAt: new Date(),
        amountCents: 5000,
      })
      .returning();
    const body = paidBody(tx, '"Maria\\u0000 Souza"');
    const answer = await post(body);
    expect(answer.status).toBe(200);
    const row = await stored(answer.body.id!);
    expect(row).toMatchObject({
      kind: "payment",
      sanitized: "characters",
      gatewayTransactionId: tx.id,
      status: "COMPLETED",
      applyState: "pending",
    });
    expect((row.payload as { client: { name: string } }).client.name).toBe("Maria\ufffd Souza");
    // The raw body is kept as sent, escape and all, with the token redacted.
    const raw = row.rawBody!.toString("utf8");
    expect(raw).toBe(body.replace(TOKEN, "[redacted]"));
    expect(raw).toContain("Maria\\u0000 Souza");
    expect(JSON.stringify(row)).not.toContain(TOKEN);

    // A retry is recognised as the same notification.
    expect((await post(body)).body).toMatchObject({ id: row.id, deliveries: 2 });

    const { applyPendingNotifications } = await import("@/lib/notifications/applier");
    await applyPendingNotifications();
    gateway.records.set(tx.id, {
      id: tx.id,
      clientIdentifier: tx.identifier,
      status: "COMPLETED",
      payedAt: "2026-11-20T12:05:00.000Z",
      amount: 50,
    });
    const { runBackgroundWorkOnce } = await import("@/lib/background/serverless");
    await runBackgroundWorkOnce();
    const [ledger] = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, own.id));
    expect(ledger).toMatchObject({ status: "COMPLETED", gatewayTransactionId: tx.id, pendingStatus: null });
    expect(ledger.paidAt?.toISOString()).toBe("2026-11-20T12:05:00.000Z");
    expect((await stored(row.id)).confirmation).toBe("confirmed");
  });

  it("stores a notification of a transaction the ledger does not have with a lone surrogate, and the gateway's confirmation creates its row", async () => {
    const tx = newTx();
    const answer = await post(paidBody(tx, '"Jo\\ud800o \\udfff"', ',"trackProps":{"\\u0000key\\udbff":"x"}'));
    expect(answer.status).toBe(200);
    const row = await stored(answer.body.id!);
    expect(row.sanitized).toBe("characters");
    expect((row.payload as { client: { name: string } }).client.name).toBe("Jo\ufffdo \ufffd");
    expect((row.payload as { trackProps: Record<string, string> }).trackProps).toEqual({ "\ufffdkey\ufffd": "x" });

    const { applyPendingNotifications } = await import("@/lib/notifications/applier");
    await applyPendingNotifications();
    gateway.records.set(tx.id, {
      id: tx.id,
      clientIdentifier: tx.identifier,
      status: "COMPLETED",
      payedAt: "2026-11-20T12:05:00.000Z",
      amount: 50,
    });
    const { runBackgroundWorkOnce } = await import("@/lib/background/serverless");
    await runBackgroundWorkOnce();
    const db = await getDb();
    const [ledger] = await db
      .select()
      .from(ledgerTransactions)
      .where(and(eq(ledgerTransactions.accountId, accountId), eq(ledgerTransactions.gatewayTransactionId, tx.id)));
    expect(ledger).toMatchObject({ status: "COMPLETED", identifier: tx.identifier });
  });

  it("leaves a well-paired escaped emoji alone (not flagged)", async () => {
    const answer = await post(paidBody(newTx(), '"Ana \\ud83d\\ude00"'));
    expect(answer.status).toBe(200);
    const row = await stored(answer.body.id!);
    expect(row.sanitized).toBeNull();
    expect(row.rawBody).toBeNull();
    expect((row.payload as { client: { name: string } }).client.name).toBe("Ana \u{1f600}");
  });

  it.each([10_000, 100_000])("stores a body nested %i deep, cut at the depth limit with a marker", async (depth) => {
    const tx = newTx();
    const body = paidBody(tx, '"Maria"', `,"deep":${"[".repeat(depth)}${"]".repeat(depth)}`);
    expect(Buffer.byteLength(body)).toBeLessThan(256 * 1024);
    const answer = await post(body);
    expect(answer.status).toBe(200);
    const row = await stored(answer.body.id!);
    expect(row).toMatchObject({ kind: "payment", sanitized: "depth", gatewayTransactionId: tx.id });
    // Levels 1 (the body) to MAX_PAYLOAD_DEPTH are kept; the next one is the marker.
    let node = (row.payload as { deep: unknown }).deep;
    for (let level = 2; level <= MAX_PAYLOAD_DEPTH; level++) {
      expect(Array.isArray(node)).toBe(true);
      node = (node as unknown[])[0];
    }
    expect(node).toBe(DEPTH_MARKER);
    expect(row.rawBody!.length).toBe(Buffer.byteLength(body.replace(TOKEN, "[redacted]")));
  });

  it("stores an unknown shape of objects nested 40,000 deep (200 KB)", async () => {
    const depth = 40_000;
    const body = `{"token":"${TOKEN}","a":${'{"b":'.repeat(depth)}1${"}".repeat(depth)}}`;
    const answer = await post(body);
    expect(answer.status).toBe(200);
    expect(await stored(answer.body.id!)).toMatchObject({ kind: "unknown", sanitized: "depth" });
  });

  it("flags both reasons together", async () => {
    const answer = await post(`{"token":"${TOKEN}","n":"\\u0000","d":${"[".repeat(70)}${"]".repeat(70)}}`);
    expect(answer.status).toBe(200);
    expect((await stored(answer.body.id!)).sanitized).toBe("characters,depth");
  });

  it("refuses a sanitisable body with a wrong token, storing nothing", async () => {
    const answer = await post(paidBody(newTx(), '"\\u0000"').replace(TOKEN, "wht_wrong"));
    expect(answer).toEqual({ status: 401, body: { error: "bad_token" } });
  });

  const seedTransfer = async () => {
    const { encryptSecret } = await import("@/lib/crypto/secrets");
    const db = await getDb();
    const transferToken = `wht_${randomUUID()}`;
    const withdrawId = `wd_${randomUUID()}`;
    await db.insert(transfers).values({
      accountId,
      identifier: `tr-${randomUUID().slice(0, 8)}`,
      submission: "SUBMITTED",
      amountCents: 1500,
      discountFeeOfReceiver: true,
      pixKeyType: "email",
      pixKey: "ana@example.com",
      ownerName: "Ana Souza",
      ownerDocumentType: "cpf",
      ownerDocumentNumber: "52998224725",
      ownerIp: "203.0.113.7",
      callbackUrl: "https://console.example/api/webhooks/x",
      withdrawId,
      withdrawStatus: "PENDING",
      withdrawStatusSource: "creation",
      webhookTokenEncrypted: encryptSecret(transferToken),
    });
    return { transferToken, withdrawId };
  };

  it("acknowledges a transfer notification dated beyond what Postgres can store (the date is ignored)", async () => {
    const { transferToken, withdrawId } = await seedTransfer();
    const answer = await post(
      JSON.stringify({
        event: "WITHDRAW_UPDATED",
        token: transferToken,
        withdraw: { id: withdrawId, status: "COMPLETED", updatedAt: "+275760-09-13T00:00:00.000Z" },
      }),
    );
    expect(answer.status).toBe(200);
    // The applier applies it to the transfer.
    const { applyPendingNotifications } = await import("@/lib/notifications/applier");
    while ((await applyPendingNotifications()) > 0);
    const db = await getDb();
    expect((await db.select().from(transfers).where(eq(transfers.withdrawId, withdrawId)))[0]?.withdrawStatus).toBe("COMPLETED");
  });

  it("acknowledges notifications of one transfer arriving at the same moment (on Postgres they can deadlock on its row)", async () => {
    const { transferToken, withdrawId } = await seedTransfer();
    const bodies = Array.from({ length: 12 }, (_, i) =>
      JSON.stringify({
        event: "WITHDRAW_UPDATED",
        token: transferToken,
        withdraw: { id: withdrawId, status: i % 2 ? "PROCESSING" : "PENDING", note: `n\u0000${i}`, seq: i },
      }),
    );
    const answers = await Promise.all(bodies.map(post));
    expect(answers.map((a) => a.status)).toEqual(bodies.map(() => 200));
    // The applier takes them all, each once, onto the transfer's timeline.
    const { applyPendingNotifications } = await import("@/lib/notifications/applier");
    while ((await applyPendingNotifications()) > 0);
    const db = await getDb();
    const ids = answers.map((a) => a.body.id!);
    const events = await db.select().from(gatewayNotifications).where(eq(gatewayNotifications.accountId, accountId));
    expect(events.filter((e) => ids.includes(e.id)).every((e) => e.applyState === "applied")).toBe(true);
  });

  it("answers a body it cannot read with a 4xx", async () => {
    for (const body of ["{", "", "[1,2]", '"text"', "null", "12", `{"token":"${TOKEN}",}`, '{"token":"a\u0000"}', "[".repeat(100_000)]) {
      const answer = await post(body);
      expect(answer.status, body.slice(0, 30)).toBeGreaterThanOrEqual(400);
      expect(answer.status, body.slice(0, 30)).toBeLessThan(500);
    }
  });
});
