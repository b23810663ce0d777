import fc from "fast-check";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../app";
import { checkoutBody, KEYS, start } from "./helpers";

const ROUTES: Array<[string, string]> = [
  ...[
    "/pix/receive",
    "/card/receive",
    "/boleto/receive",
    "/crypto/receive",
    "/pix/deposit",
    "/pix/subscription",
    "/card/subscription",
    "/crypto/subscription",
    "/transfers",
    "/checkout",
    "/producer/refunds",
  ].map((p) => ["POST", `/api/v1/gateway${p}`] as [string, string]),
  ["GET", "/api/v1/gateway/transactions"],
  ["GET", "/api/v1/gateway/producer"],
  ...[
    "/transactions/:id/events",
    "/transactions/:id/notify",
    "/refunds/:id/approve",
    "/refunds/:id/reject",
    "/withdraws/:id/complete",
    "/withdraws/:id/fail",
    "/clock/advance",
  ].map((p) => ["POST", `/sandbox/v1${p}`] as [string, string]),
  ["GET", "/sandbox/v1/deliveries"],
  ["PUT", "/sandbox/v1/settings"],
  ...["/qr/:id", "/boleto/:id", "/pix/:id", "/pay/:id", "/receipt/:id", "/transfer-receipt/:id", "/checkout/:id"].map(
    (p) => ["GET", p] as [string, string],
  ),
  ["POST", "/pay/:id"],
  ["POST", "/checkout/:id"],
];

const nasty = fc.oneof(
  fc.constant("\u0000"),
  fc.constant("a\u0000b"),
  fc.constant("x".repeat(300_000)),
  fc.constant("0000-00-00"),
  fc.constant("9".repeat(400)),
  fc.constant("../../etc/passwd"),
  fc.constant("'; drop table transactions; --"),
  fc.constant("%00"),
  fc.constant("%E0%A4%A"),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
);
const nastyNumber = fc.oneof(
  fc.constant(1e308),
  fc.constant(-1e308),
  fc.constant(1e-9),
  fc.constant(1.005),
  fc.constant(1e15),
  fc.constant(Number.MAX_SAFE_INTEGER + 2),
  fc.constant(-1),
  fc.constant(0),
  fc.double(),
);
const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
const leaf = fc.oneof(nasty, nastyNumber, fc.boolean(), fc.constant(null));
const jsonish = fc.oneof(
  fc.constant(deep(5_000)),
  fc.constant(`{"a":${deep(200)}}`),
  fc.constant('{"identifier": "x'),
  fc
    .dictionary(
      fc.constantFrom(
        "identifier",
        "amount",
        "client",
        "callbackUrl",
        "product",
        "settings",
        "customer",
        "status",
        "event",
        "transactionId",
        "reason",
        "ms",
        "webhookUrl",
        "pix",
        "owner",
      ),
      leaf,
    )
    .map((o) => JSON.stringify(o)),
  fc.tuple(leaf, leaf, nastyNumber, fc.constantFrom(["PIX"], [], ["\u0000"])).map(([email, name, price, methods]) =>
    JSON.stringify(
      checkoutBody({
        customer: { email, name },
        settings: { paymentMethods: methods },
        product: { externalId: "p", name: "n", offer: { name: "o", price, offerType: "ONE_TIME", currency: "BRL", lang: "pt-BR" } },
      }),
    ),
  ),
  fc.anything().map((v) => {
    try {
      return JSON.stringify(v) ?? "null";
    } catch {
      return "null";
    }
  }),
);

const INTERNALS = /\bat [\w.<>]+ \(|node_modules|\/work\/|\bselect\b.+\bfrom\b|\binsert into\b|\bError: |Failed query/i;

describe("sandbox fuzz", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await start();
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it("answers 2,000 bad inputs with no 5xx and no internals", async () => {
    const seen: number[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        nasty,
        jsonish,
        nasty,
        fc.boolean(),
        async ([method, pattern], segment, body, query, raw) => {
          const path = pattern.replace(":id", raw ? segment.replace(/[%?#]/g, "") : encodeURIComponent(segment));
          const url = `${sandbox.url}${path}?clientIdentifier=${encodeURIComponent(query.slice(0, 2_000))}`;
          const headers: Record<string, string> = {
            "x-public-key": KEYS.demo.publicKey,
            "x-secret-key": KEYS.demo.secretKey,
            "content-type": "application/json",
          };
          let res: Response;
          try {
            res = await fetch(url, { method, headers, body: method === "GET" ? undefined : body });
          } catch {
            return; // the URL could not even be sent (an invalid character): nothing reached the server
          }
          const text = await res.text();
          seen.push(res.status);
          expect(res.status, `${method} ${path.slice(0, 80)} ${body.slice(0, 200)} -> ${text.slice(0, 300)}`).toBeLessThan(500);
          expect(text).not.toMatch(INTERNALS);
        },
      ),
      { numRuns: 2_000 },
    );
    expect(seen.length).toBeGreaterThan(1_500);
  }, 300_000);

  it("checkout refuses bad prices, no payment method and invalid e-mails", async () => {
    const post = (body: unknown) =>
      fetch(`${sandbox.url}/api/v1/gateway/checkout`, {
        method: "POST",
        headers: { "x-public-key": KEYS.demo.publicKey, "x-secret-key": KEYS.demo.secretKey, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const offer = (price: number) => ({
      externalId: "p",
      name: "n",
      offer: { name: "o", price, offerType: "ONE_TIME", currency: "BRL", lang: "pt-BR" },
    });
    for (const price of [1e-9, 1.005, 1e15, 0, -5])
      expect([400, 422], String(price)).toContain((await post(checkoutBody({ product: offer(price) }))).status);
    expect((await post(checkoutBody({ settings: { paymentMethods: [] } }))).status).toSatisfy(
      (status: number) => status === 400 || status === 422,
    );
    expect((await post(checkoutBody({ customer: { email: "not-an-email" } }))).status).toSatisfy(
      (status: number) => status === 400 || status === 422,
    );
    expect((await post(checkoutBody({ product: offer(19.9) }))).status).toBeLessThan(300);
  });

  it("keeps a kept-alive connection usable when a request refused for its URL sends its body late", async () => {
    const socket = connect(sandbox.port, "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString("latin1")));
    const answers = () => received.split("HTTP/1.1 ").length - 1;
    const until = async (count: number) => {
      const deadline = Date.now() + 5_000;
      while (answers() < count && !socket.destroyed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    };
    socket.write(
      "POST /api/v1/gateway/pix/receive?x=%00 HTTP/1.1\r\nHost: sandbox\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n",
    );
    // Longer than the 500 ms an answered request's unread body is waited for.
    await new Promise((r) => setTimeout(r, 800));
    socket.write("{}");
    await until(1);
    socket.write("GET /health HTTP/1.1\r\nHost: sandbox\r\n\r\n");
    await until(2);
    socket.destroy();
    expect(received).toMatch(/^HTTP\/1.1 400 /);
    expect(answers()).toBe(2);
    expect(received).toContain('{"ok":true}');
  });
});
