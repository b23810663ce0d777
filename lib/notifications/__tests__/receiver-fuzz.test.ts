import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import { transfers, gatewayNotifications } from "@/lib/db/schema";
import { testDatabases, useDatabase, type TestDatabase } from "@/lib/testing/databases";
import { MAX_WEBHOOK_BYTES } from "@/lib/notifications/ingest";

process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");
// The test runs the applier itself, and checks it swallows whatever the receiver stored.
process.env.WEBHOOK_APPLIER = "off";

const TOKEN = "wht_fuzz_5b7c0d2e9a";
const TRANSFER_TOKEN = "wht_transfer_1f3e5a7c";
const WITHDRAW_ID = "wd_fuzz_1";
const RUNS = Number(process.env.WEBHOOK_FUZZ_RUNS ?? 2_000);
const GROUP = 8;
const targets = await testDatabases();

// ---------------------------------------------------------------------------
// Bodies: JSON text with the account's valid token, of every shape a gateway (or anyone holding the
// token) might send. JSON.stringify writes NUL as \u0000 and a lone surrogate as \ud800, so weird
// strings become exactly the escapes jsonb refuses.
// ---------------------------------------------------------------------------

const weirdString = fc.oneof(
  fc.constantFrom(
    "\u0000",
    "a\u0000b",
    "\ud800",
    "\udfff",
    "x\ud83d",
    "\ude00y",
    "\u{1f600}",
    "\ufffd",
    "\ufeff",
    "\u202e",
    "e\u0301",
    "Zé da Silva",
    "%00",
    "\\u0000",
    "'; drop table gateway_notifications; --",
    "[redacted]",
    "token",
    "TRANSACTION_PAID",
    "COMPLETED",
    "0000-01-01",
    "+275760-09-13T00:00:00.000Z",
    "-271821-04-20T00:00:00.000Z",
    "2026-11-20T12:05:00.000Z",
    "NaN",
    "1e309",
    "9".repeat(400),
    `${"a".repeat(199)}\u{1f600}`,
    "x".repeat(5_000),
  ),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 12 }),
);
const weirdNumber = fc.oneof(
  fc.constantFrom(0, -0, 1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER + 2, 123.45, -50, 0.1 + 0.2, 1e21),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);
const oddKey = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "prototype",
    "",
    "token",
    "webhookToken",
    "a\u0000",
    "\ud800",
    "k".repeat(300),
    "transaction",
    "withdraw",
  ),
  fc.string({ maxLength: 8 }),
);
const leaf = fc.oneof(weirdString, weirdNumber, fc.boolean(), fc.constant(null));
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("node"), { maxLength: 4 }),
    fc.array(fc.tuple(oddKey, tie("node")), { maxLength: 4 }).map((members) => {
      // As JSON.parse would make it: "__proto__" an own member, not the prototype.
      const object: Record<string, unknown> = {};
      for (const [k, v] of members) Object.defineProperty(object, k, { value: v, enumerable: true, writable: true, configurable: true });
      return object;
    }),
  ),
})).node;

/** Replaces a member with something else, or leaves it. */
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(fc.oneof(arb, value), { freq: 3, nil: undefined });

const paymentShaped = fc
  .record({
    event: fc.oneof(fc.constantFrom("TRANSACTION_PAID", "TRANSACTION_CREATED", "TRANSACTION_REFUNDED", "SOMETHING_NEW"), weirdString),
    id: fc.oneof(fc.constantFrom("tx_1", "tx_2"), weirdString),
    identifier: maybe(weirdString),
    status: fc.oneof(fc.constantFrom("COMPLETED", "PENDING", "REFUNDED", "CHARGED_BACK", "???"), weirdString),
    method: fc.oneof(fc.constantFrom("PIX", "CREDIT_CARD", "BOLETO"), weirdString),
    amount: fc.oneof(weirdNumber, weirdString),
    commission: maybe(weirdNumber),
    createdAt: fc.oneof(fc.constant("2026-11-20T12:00:00.000Z"), weirdString),
    payedAt: maybe(weirdString),
    name: weirdString,
    email: maybe(weirdString),
    extra: maybe(value),
  })
  .map((p) => ({
    event: p.event,
    token: TOKEN,
    offerCode: null,
    checkoutUrl: "",
    client: { id: "cli_1", name: p.name, email: p.email, cpf: "529.982.247-25", cnpj: null },
    transaction: {
      id: p.id,
      identifier: p.identifier,
      status: p.status,
      paymentMethod: p.method,
      amount: p.amount,
      commissionAmount: p.commission,
      currency: "BRL",
      createdAt: p.createdAt,
      payedAt: p.payedAt,
      pixInformation: { endToEndId: p.name },
    },
    trackProps: { extra: p.extra },
  }));

const transferShaped = fc
  .record({
    event: fc.oneof(fc.constantFrom("WITHDRAW_COMPLETED", "TRANSFER_FAILED", "WITHDRAW_???"), weirdString),
    id: fc.oneof(fc.constant(WITHDRAW_ID), weirdString),
    token: fc.constantFrom(TRANSFER_TOKEN, TOKEN),
    status: fc.oneof(fc.constantFrom("COMPLETED", "FAILED", "PENDING"), weirdString),
    updatedAt: maybe(weirdString),
    extra: maybe(value),
  })
  .map((t) => ({ event: t.event, token: t.token, withdraw: { id: t.id, status: t.status, updatedAt: t.updatedAt, extra: t.extra } }));

const anyObject = fc.dictionary(oddKey, value, { maxKeys: 6 }).map((object) => ({ ...object, token: TOKEN }));

const objectBody = fc.oneof(paymentShaped, transferShaped, anyObject);

/** Text spliced in after serialisation: what JSON.stringify never writes itself. */
const RAW_NUMBERS = ["1e400", "-1e400", "123456789012345678901234567890", "0.0000000000000000000000000001", "1E+2", "-0.0e-0"];
const deep = (depth: number, open: string, close: string, inner: string) => `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

const body = fc.oneof(
  { weight: 6, arbitrary: objectBody.map((o) => JSON.stringify(o)) },
  // Deep nesting inside an authentic body, up to what fits in 256 KB.
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        objectBody,
        fc.oneof(
          { weight: 4, arbitrary: fc.integer({ min: 60, max: 70 }) },
          { weight: 3, arbitrary: fc.integer({ min: 1_000, max: 10_000 }) },
          { weight: 1, arbitrary: fc.integer({ min: 50_000, max: 100_000 }) },
        ),
        fc.constantFrom(["[", "]"], ['{"a":', "}"], ['[{"b":[', "]}]"]),
      )
      .map(([object, depth, [open, close]]) => {
        const levels = Math.min(depth, Math.floor((250 * 1024) / (open.length + close.length)));
        return JSON.stringify(object).replace(/}$/, `,"deep":${deep(levels, open, close, "1")}}`);
      }),
  },
  // Escapes as a hand-written encoder might put them: upper case, paired, around quotes.
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        objectBody,
        fc.constantFrom(
          "\\u0000",
          "\\uD800",
          "\\uDBFF\\u0041",
          "\\uDC00",
          "\\ud83d\\ude00",
          "\\\\u0000",
          '\\"\\u0000\\"',
          "\\u00e9\\u0000",
        ),
      )
      .map(([object, escape]) => JSON.stringify(object).replace(/}$/, `,"note":"${escape}","${escape}":1}`)),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(objectBody, fc.constantFrom(...RAW_NUMBERS))
      .map(([object, n]) => JSON.stringify(object).replace(/}$/, `,"n":${n},"list":[${n},${n}]}`)),
  },
  // Whitespace and a byte-order mark around an authentic body.
  { weight: 1, arbitrary: objectBody.map((o) => `\ufeff \n${JSON.stringify(o, null, 2)}\r\n`) },
);

describe.each(targets)("webhook receiver under fuzzing with a valid token on $name", (target: TestDatabase) => {
  let accountId: string;

  beforeAll(async () => {
    await closeDb();
    useDatabase(target);
    const { createAccount } = await import("@/lib/accounts/queries");
    const { encryptSecret } = await import("@/lib/crypto/secrets");
    accountId = (
      await createAccount(
        { name: "Loja", baseUrl: "http://127.0.0.1:9", publicKey: "pk", secretKey: "sk_1234567890", webhookToken: TOKEN, mode: "test" },
        null,
      )
    ).id;
    const db = await getDb();
    await db.insert(transfers).values({
      accountId,
      identifier: "tr-fuzz-1",
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
      withdrawId: WITHDRAW_ID,
      withdrawStatus: "PENDING",
      withdrawStatusSource: "creation",
      webhookTokenEncrypted: encryptSecret(TRANSFER_TOKEN),
    });
  });
  afterAll(async () => {
    const { stopFeedListener } = await import("@/lib/feed/bus");
    await stopFeedListener();
    await closeDb();
    await target.drop();
  });

  it(`answers ${RUNS} authentic deliveries of any content with no 5xx, and stores every one it acknowledges`, async () => {
    const { handleWebhookRequest } = await import("@/lib/notifications/http");
    // Every other delivery goes over HTTP to the fast path `npm start` serves on Postgres (lib/notifications/fast-path.ts).
    const { markConsoleReady, serveWebhook } = await import("@/lib/notifications/fast-path");
    markConsoleReady();
    const server = http.createServer((request, response) => {
      if (!serveWebhook(request, response)) response.writeHead(299).end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const fastPath = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/${accountId}`;
    const { applyPendingNotifications } = await import("@/lib/notifications/applier");
    const { isTransferNotification } = await import("@/lib/notifications/transfer-notifications");
    const db = await getDb();
    const tally = { ok: 0, sanitized: 0, transfer401: 0, tooLarge: 0 };
    let runs = 0;
    const acknowledged = new Set<string>();
    const deliver = async (text: string) => {
      runs++;
      const tooLarge = Buffer.byteLength(text) > MAX_WEBHOOK_BYTES;
      let response: Response;
      if (runs % 2 === 0) {
        const sent = await fetch(fastPath, { method: "POST", body: text, headers: { "content-type": "application/json" } }).catch(
          (error: Error) => error,
        );
        // A body over the limit is refused while it is still arriving, and the connection closed: the client may see the close first.
        if (sent instanceof Error && tooLarge) return void tally.tooLarge++;
        if (sent instanceof Error) throw sent;
        response = sent;
      } else
        response = await handleWebhookRequest(new Request("http://console.test/api/webhooks/x", { method: "POST", body: text }), accountId);
      const answer = (await response.json()) as { id?: string; error?: string };
      const context = `${response.status} ${JSON.stringify(answer)} for ${JSON.stringify(text.slice(0, 300))}`;
      expect(response.status, context).toBeLessThan(500);
      if (tooLarge) {
        expect(response.status, context).toBe(413);
        tally.tooLarge++;
        return;
      }
      // A body of the transfer shape is authentic only with its transfer's token and withdraw id.
      if (response.status === 401 && isTransferNotification(JSON.parse(text.replace(/^\ufeff/, "")))) {
        expect(answer.error, context).toMatch(/^(unknown_transfer|bad_token)$/);
        tally.transfer401++;
        return;
      }
      expect(response.status, context).toBe(200);
      expect(answer.id, context).toEqual(expect.any(String));
      acknowledged.add(answer.id!);
      tally.ok++;
    };
    // Deliveries arrive GROUP at a time, as under load: the store writes each group in one
    // statement, sanitised rows beside ordinary ones (and the test takes half the time).
    await fc.assert(
      fc.asyncProperty(fc.array(body, { minLength: GROUP, maxLength: GROUP }), async (texts) => {
        await Promise.all(texts.map(deliver));
        // The applier takes whatever the receiver stored: nothing may stay pending or fail it.
        if (runs % 200 === 0) while ((await applyPendingNotifications()) > 0);
      }),
      { numRuns: RUNS / GROUP },
    );
    while ((await applyPendingNotifications()) > 0);
    await new Promise((resolve) => server.close(resolve));
    const [pending] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(gatewayNotifications)
      .where(eq(gatewayNotifications.applyState, "pending"));
    expect(Number(pending.n)).toBe(0);
    // Every acknowledged delivery is there (checked once at the end: a query per run doubled the test's time).
    const stored = await db
      .select({
        id: gatewayNotifications.id,
        deliveries: gatewayNotifications.deliveries,
        sanitized: gatewayNotifications.sanitized,
        raw: gatewayNotifications.rawBody,
        payload: gatewayNotifications.payload,
      })
      .from(gatewayNotifications)
      .where(eq(gatewayNotifications.accountId, accountId));
    const byId = new Map(stored.map((row) => [row.id, row]));
    for (const id of acknowledged) expect(byId.get(id)?.deliveries).toBeGreaterThanOrEqual(1);
    for (const row of stored) {
      expect(row.sanitized === null).toBe(row.raw === null);
      if (row.sanitized) tally.sanitized++;
      expect(JSON.stringify(row.payload)).not.toMatch(new RegExp(`${TOKEN}|${TRANSFER_TOKEN}`));
      if (row.raw) expect(row.raw.toString("utf8")).not.toMatch(new RegExp(`${TOKEN}|${TRANSFER_TOKEN}`));
    }
    expect(runs).toBe(RUNS);
    // The run exercised what it is about.
    expect(tally.ok).toBeGreaterThan(RUNS / 2);
    expect(tally.sanitized).toBeGreaterThan(RUNS / 20);
    console.log(`${target.name}: ${JSON.stringify(tally)}`);
  }, 600_000);
});
