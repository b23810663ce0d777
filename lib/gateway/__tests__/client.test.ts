import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createGatewayClient, type GatewayClientOptions } from "../client";
import { GatewayError, isGatewayError, kindForStatus, parseRetryAfter } from "../errors";
import { LookupLimiter } from "../lookup-limiter";
import * as f from "./fixtures";
import { captureLogger, dropConnection, hang, json, raw, startTestServer, type TestServer } from "./test-server";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.reset();
});

function makeClient(overrides: Partial<GatewayClientOptions> = {}) {
  const capture = captureLogger();
  const client = createGatewayClient({
    baseUrl: server.url,
    publicKey: f.PUBLIC_KEY,
    secretKey: f.SECRET_KEY,
    logger: capture.logger,
    retry: { baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 1_000 },
    ...overrides,
  });
  return { client, capture };
}

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    expect(isGatewayError(error)).toBe(true);
    return error as GatewayError;
  }
  throw new Error("expected the call to fail");
}

describe("requests", () => {
  it("sends the key headers, JSON content type and the validated body on POST", async () => {
    server.setHandler(json(200, f.pixChargeResponse));
    const { client } = makeClient({ baseUrl: `${server.url}/` });
    const answer = await client.createPixCharge(f.pixChargeRequest());
    expect(answer.pix.code).toBe(f.pixChargeResponse.pix.code);

    expect(server.requests).toHaveLength(1);
    const [req] = server.requests;
    expect(req.method).toBe("POST");
    expect(req.url).toBe("/api/v1/gateway/pix/receive");
    expect(req.headers["x-public-key"]).toBe(f.PUBLIC_KEY);
    expect(req.headers["x-secret-key"]).toBe(f.SECRET_KEY);
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers.accept).toBe("application/json");
    expect(JSON.parse(req.body)).toEqual(f.pixChargeRequest());
  });

  it("GETs carry the keys, no content type, and the lookup query parameters", async () => {
    server.setHandler(json(200, f.transactionRecord));
    const { client } = makeClient();
    await client.getTransaction({ id: "tx 1/å" });
    await client.getTransaction({ clientIdentifier: "order-pix-1" });
    server.setHandler(json(200, f.producerRecord));
    await client.getProducer();

    const [byId, byIdentifier, producer] = server.requests;
    expect(byId.method).toBe("GET");
    expect(new URL(byId.url, server.url).pathname).toBe("/api/v1/gateway/transactions");
    expect(new URL(byId.url, server.url).searchParams.get("id")).toBe("tx 1/å");
    expect(new URL(byIdentifier.url, server.url).searchParams.get("clientIdentifier")).toBe("order-pix-1");
    expect(new URL(byIdentifier.url, server.url).searchParams.has("id")).toBe(false);
    expect(producer.url).toBe("/api/v1/gateway/producer");
    for (const req of server.requests) {
      expect(req.headers["x-public-key"]).toBe(f.PUBLIC_KEY);
      expect(req.headers["x-secret-key"]).toBe(f.SECRET_KEY);
      expect(req.headers["content-type"]).toBeUndefined();
      expect(req.body).toBe("");
    }
  });

  it.each([
    ["createPixCharge", "/api/v1/gateway/pix/receive", f.pixChargeRequest(), f.pixChargeResponse],
    ["createCardCharge", "/api/v1/gateway/card/receive", f.cardChargeRequest(), f.cardChargeResponse],
    ["createBoletoCharge", "/api/v1/gateway/boleto/receive", f.boletoChargeRequest(), f.boletoChargeResponse],
    ["createCryptoCharge", "/api/v1/gateway/crypto/receive", f.cryptoChargeRequest(), f.cryptoChargeResponse],
    ["createPixDeposit", "/api/v1/gateway/pix/deposit", f.pixDepositRequest(), f.pixDepositResponse],
    ["createPixSubscription", "/api/v1/gateway/pix/subscription", f.pixSubscriptionRequest(), { id: "sub_1", status: "ACTIVE" }],
    ["createCardSubscription", "/api/v1/gateway/card/subscription", f.cardSubscriptionRequest(), { id: "sub_2" }],
    ["createCryptoSubscription", "/api/v1/gateway/crypto/subscription", f.cryptoSubscriptionRequest(), { id: "sub_3" }],
    ["createTransfer", "/api/v1/gateway/transfers", f.transferRequest(), f.transferResponse],
    ["createCheckout", "/api/v1/gateway/checkout", f.checkoutRequest(), f.checkoutResponse],
    ["requestRefund", "/api/v1/gateway/producer/refunds", f.refundRequest(), f.refundRecord],
  ] as const)("%s posts to %s and returns the parsed answer", async (method, path, body, answer) => {
    server.setHandler(json(201, answer));
    const { client } = makeClient();
    const call = client[method] as (b: unknown) => Promise<unknown>;
    await expect(call(body)).resolves.toEqual(answer);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`POST ${path}`]);
  });

  it("rejects an invalid request without any network call", async () => {
    const { client, capture } = makeClient();
    const error = await failure(client.createCardCharge({ ...f.cardChargeRequest(), clientIp: "not-an-ip", amount: -1 }));
    expect(error.kind).toBe("invalid_request");
    expect(error.outcomeUnknown).toBe(false);
    expect(error.issues?.map((i) => i.path).sort()).toEqual(["amount", "clientIp"]);
    const lookup = await failure(client.getTransaction({} as never));
    expect(lookup.kind).toBe("invalid_request");
    expect(server.requests).toHaveLength(0);
    expect(capture.text()).not.toContain(f.CARD_NUMBER);
  });

  it("does not follow redirects (they would resend the keys)", async () => {
    const other = await startTestServer();
    try {
      other.setHandler(json(200, f.producerRecord));
      server.setHandler(raw(302, "", { Location: `${other.url}/api/v1/gateway/producer` }));
      const { client } = makeClient();
      const error = await failure(client.getProducer());
      expect(error.kind).toBe("http");
      expect(error.status).toBe(302);
      expect(other.requests).toHaveLength(0);
    } finally {
      await other.close();
    }
  });
});

describe("responses", () => {
  it("keeps unknown fields and unknown status strings", async () => {
    server.setHandler(
      json(200, {
        ...f.pixChargeResponse,
        status: "AWAITING_SOMETHING",
        brandNew: { x: 1 },
        order: { ...f.pixChargeResponse.order, extra: "y" },
      }),
    );
    const { client } = makeClient();
    const answer = (await client.createPixCharge(f.pixChargeRequest())) as Record<string, unknown>;
    expect(answer.status).toBe("AWAITING_SOMETHING");
    expect(answer.brandNew).toEqual({ x: 1 });
    expect((answer.order as Record<string, unknown>).extra).toBe("y");
  });

  it("garbage 2xx on a POST is malformed with an unknown outcome", async () => {
    server.setHandler(raw(200, "<html>oops</html>", { "Content-Type": "text/html" }));
    const { client } = makeClient();
    const error = await failure(client.createPixCharge(f.pixChargeRequest()));
    expect(error).toMatchObject({ kind: "malformed", status: 200, outcomeUnknown: true });
    expect(server.requests).toHaveLength(1);
  });

  it("a 2xx JSON body of the wrong shape is malformed and names the fields", async () => {
    server.setHandler(json(201, { transactionId: "tx", status: "OK" }));
    const { client } = makeClient();
    const error = await failure(client.createBoletoCharge(f.boletoChargeRequest()));
    expect(error.kind).toBe("malformed");
    expect(error.outcomeUnknown).toBe(true);
    expect(error.issues?.map((i) => i.path)).toEqual(expect.arrayContaining(["fee", "order", "boleto"]));
  });

  it("an empty 2xx body is malformed too", async () => {
    server.setHandler(raw(204, ""));
    const { client } = makeClient();
    expect(await failure(client.requestRefund(f.refundRequest()))).toMatchObject({ kind: "malformed", outcomeUnknown: true });
  });

  it("garbage 2xx on a GET is malformed with a known outcome, and is not retried", async () => {
    server.setHandler(raw(200, "not json"));
    const { client } = makeClient();
    const error = await failure(client.getProducer());
    expect(error).toMatchObject({ kind: "malformed", outcomeUnknown: false });
    expect(server.requests).toHaveLength(1);
  });
});

describe("error statuses", () => {
  it.each([
    [400, "validation"],
    [401, "auth"],
    [403, "forbidden"],
    [404, "not_found"],
    [409, "http"],
    [413, "http"],
    [422, "conflict"],
    [429, "rate_limited"],
    [500, "server"],
    [502, "server"],
    [503, "server"],
    [504, "server"],
  ] as const)("%i → %s, keeping errorCode and message", async (status, kind) => {
    server.setHandler(json(status, { statusCode: status, errorCode: `CODE_${status}`, message: `message ${status}` }));
    const { client } = makeClient();
    const error = await failure(client.requestRefund(f.refundRequest()));
    expect(error).toMatchObject({
      kind,
      status,
      errorCode: `CODE_${status}`,
      gatewayMessage: `message ${status}`,
      // A POST answered 5xx may have been created before the gateway failed: unknown, never "rejected".
      outcomeUnknown: status >= 500 || status === 409,
    });
    expect(error.message).toContain(`message ${status}`);
    expect(server.requests).toHaveLength(1);
    expect(kindForStatus(status)).toBe(kind);
  });

  it("keeps GATEWAY_INVALID_ARGUMENT on a second refund", async () => {
    server.setHandler(json(422, { statusCode: 422, errorCode: "GATEWAY_INVALID_ARGUMENT", message: "A refund request already exists" }));
    const { client } = makeClient();
    const error = await failure(client.requestRefund(f.refundRequest()));
    expect(error.kind).toBe("conflict");
    expect(error.errorCode).toBe("GATEWAY_INVALID_ARGUMENT");
  });

  it("a 5xx with a garbage body on a POST is server with an unknown outcome", async () => {
    server.setHandler(raw(502, "<h1>Bad Gateway</h1>"));
    const { client } = makeClient();
    const error = await failure(client.createPixCharge(f.pixChargeRequest()));
    expect(error).toMatchObject({ kind: "server", status: 502, outcomeUnknown: true, errorCode: undefined });
  });

  it.each([
    [400, true, false],
    [404, true, false],
    [422, true, false],
    [401, false, false],
    [429, false, false],
    [400, false, true],
    [404, false, true],
    [408, true, true],
    [409, true, true],
    [500, true, true],
    [503, false, true],
    [302, false, true],
  ] as const)("a POST answered %i (readable body: %s) has outcomeUnknown %s", async (status, readable, unknown) => {
    server.setHandler(readable ? json(status, { statusCode: status, errorCode: "X", message: "m" }) : raw(status, "<html>proxy</html>"));
    const { client } = makeClient();
    const error = await failure(client.createPixCharge(f.pixChargeRequest()));
    expect(error.outcomeUnknown).toBe(unknown);
    expect(server.requests).toHaveLength(1);
  });

  it("a GET answered 5xx creates nothing: its outcome is known", async () => {
    server.setHandler(json(503, { statusCode: 503, errorCode: "UNAVAILABLE", message: "down" }));
    const { client } = makeClient({ retry: { maxAttempts: 1, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 1_000 } });
    const error = await failure(client.getTransaction({ clientIdentifier: "x" }));
    expect(error).toMatchObject({ kind: "server", outcomeUnknown: false });
  });

  it("joins NestJS-style message arrays", async () => {
    server.setHandler(json(400, { statusCode: 400, errorCode: "BAD", message: ["amount must be positive", "client is required"] }));
    const { client } = makeClient();
    const error = await failure(client.requestRefund(f.refundRequest()));
    expect(error.gatewayMessage).toBe("amount must be positive; client is required");
  });

  it("parses Retry-After in seconds and as an HTTP date", async () => {
    server.setHandler(json(429, { statusCode: 429, errorCode: "RATE", message: "slow down" }, { "Retry-After": "7" }));
    const { client } = makeClient();
    const error = await failure(client.createPixCharge(f.pixChargeRequest()));
    expect(error.kind).toBe("rate_limited");
    expect(error.retryAfterMs).toBe(7_000);

    const now = Date.parse("2026-11-21T22:00:00Z");
    expect(parseRetryAfter("Sat, 21 Nov 2026 22:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Sat, 21 Nov 2026 21:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe("retries", () => {
  it("retries a GET on 503 and 429 with backoff, then succeeds", async () => {
    server.setSequence([
      json(503, { statusCode: 503, errorCode: "UNAVAILABLE", message: "down" }),
      json(429, { statusCode: 429, errorCode: "RATE", message: "slow" }, { "Retry-After": "0" }),
      json(200, f.transactionRecord),
    ]);
    const { client, capture } = makeClient({ retry: { baseDelayMs: 40, maxDelayMs: 1_000, random: () => 0 } });
    const started = Date.now();
    const record = await client.getTransaction({ id: "tx_123" });
    expect(record.id).toBe("tx_123");
    expect(server.requests).toHaveLength(3);
    // First retry waits at least half of the 40 ms step (jitter floor); the 429 waits Retry-After: 0.
    expect(Date.now() - started).toBeGreaterThanOrEqual(20);
    expect(capture.lines).toHaveLength(1);
    expect(capture.lines[0].fields).toMatchObject({ attempts: 3, status: 200, method: "GET" });
  });

  it("backs off exponentially", async () => {
    server.setHandler(json(500, { statusCode: 500, errorCode: "X", message: "boom" }));
    const { client } = makeClient({ retry: { maxAttempts: 4, baseDelayMs: 20, maxDelayMs: 1_000, random: () => 0.999 } });
    const times: number[] = [];
    server.setHandler((req, res) => {
      times.push(Date.now());
      json(500, { statusCode: 500, errorCode: "X", message: "boom" })(req, res);
    });
    const error = await failure(client.getProducer());
    expect(error).toMatchObject({ kind: "server", attempts: 4 });
    expect(times).toHaveLength(4);
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    // Steps 20, 40, 80 ms with jitter close to the full step.
    expect(gaps[0]).toBeGreaterThanOrEqual(18);
    expect(gaps[1]).toBeGreaterThanOrEqual(38);
    expect(gaps[2]).toBeGreaterThanOrEqual(78);
  });

  it("gives up after maxAttempts and reports the count", async () => {
    server.setHandler(json(503, { statusCode: 503, errorCode: "UNAVAILABLE", message: "down" }));
    const { client } = makeClient();
    const error = await failure(client.getTransaction({ clientIdentifier: "x" }));
    expect(error).toMatchObject({ kind: "server", attempts: 3, outcomeUnknown: false });
    expect(server.requests).toHaveLength(3);
  });

  it("retries a GET after a dropped connection", async () => {
    server.setSequence([dropConnection, json(200, f.producerRecord)]);
    const { client } = makeClient();
    await expect(client.getProducer()).resolves.toMatchObject({ name: f.producerRecord.name });
    expect(server.requests).toHaveLength(2);
  });

  it("does not retry a GET on 404, 401 or 400", async () => {
    for (const status of [404, 401, 400]) {
      server.reset();
      server.setHandler(json(status, { statusCode: status, errorCode: "E", message: "m" }));
      const { client } = makeClient();
      await failure(client.getTransaction({ id: "missing" }));
      expect(server.requests).toHaveLength(1);
    }
  });

  it("does not wait longer than maxRetryAfterMs: a long Retry-After ends the retries", async () => {
    server.setHandler(json(429, { statusCode: 429, errorCode: "RATE", message: "slow" }, { "Retry-After": "3600" }));
    const { client } = makeClient();
    const started = Date.now();
    const error = await failure(client.getProducer());
    expect(error).toMatchObject({ kind: "rate_limited", retryAfterMs: 3_600_000, attempts: 1 });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(1);
  });

  it("a lookup through the limiter waits out 429s in line (Retry-After, no attempt spent), then tells its caller when to come back", async () => {
    const limiter = new LookupLimiter({ rps: null, maxConcurrency: 8 });
    const rateLimited = json(429, { statusCode: 429, errorCode: "RATE", message: "slow" }, { "Retry-After": "0" });
    // Five short 429s and a 503: still within the three attempts of a lookup; the answer arrives.
    server.setSequence([rateLimited, rateLimited, rateLimited, rateLimited, rateLimited, json(503, {}), json(200, f.transactionRecord)]);
    const { client } = makeClient({ lookupLimiter: limiter });
    await expect(client.getTransaction({ id: f.transactionRecord.id })).resolves.toMatchObject({ id: f.transactionRecord.id });
    expect(server.requests).toHaveLength(7);
    // 8 → 4 → 2 → 1 (each 429 answered a lookup sent after the last halving), then +1 for the answer.
    expect(limiter.stats()).toMatchObject({ rateLimited: 5, inFlight: 0, window: 2 });

    // A Retry-After longer than the client waits: one request, the error carries when to come back.
    server.setHandler(json(429, { statusCode: 429, errorCode: "RATE", message: "slow" }, { "Retry-After": "30" }));
    const error = await failure(client.getTransaction({ id: f.transactionRecord.id }));
    expect(error).toMatchObject({ kind: "rate_limited", retryAfterMs: 30_000, outcomeUnknown: false });
    expect(limiter.stats().pausedUntil).toBeGreaterThan(Date.now() + 25_000);
  });

  it("honours a short Retry-After", async () => {
    server.setSequence([
      json(429, { statusCode: 429, errorCode: "RATE", message: "slow" }, { "Retry-After": "1" }),
      json(200, f.producerRecord),
    ]);
    const { client } = makeClient({ retry: { maxRetryAfterMs: 2_000 } });
    const started = Date.now();
    await client.getProducer();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
  });

  it.each([
    ["503", json(503, { statusCode: 503, errorCode: "U", message: "down" })],
    ["429", json(429, { statusCode: 429, errorCode: "R", message: "slow" }, { "Retry-After": "0" })],
    ["dropped connection", dropConnection],
  ] as const)("never retries a POST (%s)", async (_label, handler) => {
    server.setHandler(handler);
    const { client } = makeClient({ retry: { maxAttempts: 5 } });
    await failure(client.createPixCharge(f.pixChargeRequest()));
    expect(server.requests).toHaveLength(1);
  });
});

describe("timeouts and broken connections", () => {
  it("a POST that times out is kind timeout with an unknown outcome, sent exactly once", async () => {
    server.setHandler(hang);
    const { client, capture } = makeClient({ timeoutMs: 150 });
    const started = Date.now();
    const error = await failure(client.createCardCharge(f.cardChargeRequest()));
    expect(error).toMatchObject({ kind: "timeout", outcomeUnknown: true, attempts: 1 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(1);
    expect(capture.lines[0].level).toBe("error");
    expect(capture.lines[0].fields).toMatchObject({ errorKind: "timeout", outcomeUnknown: true });
  });

  it("the per-call timeout overrides the client's", async () => {
    server.setHandler(hang);
    const { client } = makeClient({ timeoutMs: 10_000 });
    const started = Date.now();
    const error = await failure(client.getProducer({ timeoutMs: 100 }));
    expect(error).toMatchObject({ kind: "timeout", outcomeUnknown: false });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("a timeout while the body streams is a timeout too", async () => {
    server.setHandler((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write('{"transactionId":');
    });
    const { client } = makeClient({ timeoutMs: 150 });
    const error = await failure(client.createPixCharge(f.pixChargeRequest()));
    expect(error).toMatchObject({ kind: "timeout", outcomeUnknown: true });
  });

  it("a connection dropped after the body was read is network with an unknown outcome", async () => {
    server.setHandler(dropConnection);
    const { client } = makeClient();
    const error = await failure(client.createPixCharge(f.pixChargeRequest()));
    expect(error).toMatchObject({ kind: "network", outcomeUnknown: true, status: undefined });
    expect(server.requests).toHaveLength(1);
  });

  it("a connection dropped in the middle of a 2xx body is network with an unknown outcome", async () => {
    server.setHandler((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "500" });
      res.write('{"transactionId":"tx');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const { client } = makeClient();
    const error = await failure(client.createPixCharge(f.pixChargeRequest()));
    expect(error).toMatchObject({ kind: "network", outcomeUnknown: true });
  });

  it("a refused connection is network with a known outcome (nothing was sent)", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const { client } = makeClient({ baseUrl: `http://127.0.0.1:${port}` });
    const error = await failure(client.createPixCharge(f.pixChargeRequest()));
    expect(error).toMatchObject({ kind: "network", outcomeUnknown: false });
  });

  it("a caller abort on a POST leaves the outcome unknown", async () => {
    server.setHandler(hang);
    const { client } = makeClient();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await failure(client.createPixDeposit(f.pixDepositRequest(), { signal: controller.signal }));
    expect(error).toMatchObject({ kind: "network", outcomeUnknown: true });
    expect(server.requests).toHaveLength(1);
  });

  it("a call aborted before it starts sends nothing and has a known outcome", async () => {
    const { client } = makeClient();
    const error = await failure(client.createPixCharge(f.pixChargeRequest(), { signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ kind: "network", outcomeUnknown: false });
    expect(server.requests).toHaveLength(0);
  });

  it("refuses a base URL that is not absolute http(s)", () => {
    for (const baseUrl of ["gateway.example.com", "ftp://gateway.example.com", ""]) {
      expect(() => createGatewayClient({ baseUrl, publicKey: "pk", secretKey: "sk" })).toThrow(TypeError);
    }
  });

  it("works with an injected fetch", async () => {
    const calls: { url: string; init?: RequestInit }[] = [];
    const fakeFetch: typeof fetch = async (url, init) => {
      calls.push({ url: String(url), init });
      return new Response(JSON.stringify(f.checkoutResponse), { status: 200 });
    };
    const { client } = makeClient({ baseUrl: "https://gateway.example.com", fetch: fakeFetch });
    await expect(client.createCheckout(f.checkoutRequest())).resolves.toEqual(f.checkoutResponse);
    expect(calls[0].url).toBe("https://gateway.example.com/api/v1/gateway/checkout");
    expect((calls[0].init?.headers as Record<string, string>)["x-secret-key"]).toBe(f.SECRET_KEY);
  });
});

describe("logging and secrets", () => {
  it("logs one line per call with method, path, status, duration and error kind", async () => {
    server.setHandler(json(200, f.producerRecord));
    const { client, capture } = makeClient();
    await client.getProducer();
    server.setHandler(json(404, { statusCode: 404, errorCode: "NOT_FOUND", message: "no" }));
    await failure(client.getTransaction({ id: "x" }));
    expect(capture.lines).toHaveLength(2);
    expect(capture.lines[0]).toMatchObject({
      level: "info",
      fields: { method: "GET", path: "/api/v1/gateway/producer", status: 200, attempts: 1 },
    });
    expect(typeof capture.lines[0].fields?.durationMs).toBe("number");
    expect(capture.lines[1]).toMatchObject({
      level: "warn",
      fields: { method: "GET", path: "/api/v1/gateway/transactions", status: 404, errorKind: "not_found", errorCode: "NOT_FOUND" },
    });
  });

  it("no secret key, card number or CVV reaches a log line or the error's JSON", async () => {
    // A hostile gateway echoing the request back in its error message.
    server.setHandler((req, res) => {
      const echoed = `bad request ${req.body} key=${String(req.headers["x-secret-key"])}`;
      json(400, { statusCode: 400, errorCode: "BAD", message: echoed })(req, res);
    });
    const { client, capture } = makeClient();
    const error = await failure(client.createCardCharge(f.cardChargeRequest()));
    expect(error.gatewayMessage).toContain("bad request");
    expect(error.gatewayMessage).not.toContain(f.SECRET_KEY);
    expect(error.gatewayMessage).not.toContain(f.CARD_NUMBER);

    server.setHandler(dropConnection);
    await failure(client.createCardSubscription(f.cardSubscriptionRequest()));
    await failure(client.createCardCharge({ ...f.cardChargeRequest(), clientIp: "bad" }));

    const logged = capture.text();
    expect(capture.lines.length).toBe(3);
    expect(logged).not.toContain(f.SECRET_KEY);
    expect(logged).not.toContain(f.CARD_NUMBER);
    expect(logged).not.toContain(f.CVV);
    expect(logged).not.toContain(f.PUBLIC_KEY);

    const serialised = JSON.stringify(error);
    expect(serialised).not.toContain(f.CARD_NUMBER);
    expect(serialised).not.toContain(f.CVV);
    expect(serialised).not.toContain(f.SECRET_KEY);
    expect(serialised).toContain("411111******1111");
  });

  it("a throwing logger never breaks a call", async () => {
    server.setHandler(json(200, f.producerRecord));
    const client = createGatewayClient({
      baseUrl: server.url,
      publicKey: f.PUBLIC_KEY,
      secretKey: f.SECRET_KEY,
      logger: {
        log() {
          throw new Error("logger down");
        },
      },
    });
    await expect(client.getProducer()).resolves.toMatchObject({ name: f.producerRecord.name });
  });

  it("findTransaction returns null on 404", async () => {
    server.setHandler(json(404, { statusCode: 404, errorCode: "NOT_FOUND", message: "no" }));
    const { client } = makeClient();
    await expect(client.findTransaction({ clientIdentifier: "nope" })).resolves.toBeNull();
    expect(server.requests).toHaveLength(1);
  });
});

describe("a gateway's 400 names fields the form can show", () => {
  it("maps `path: message` parts onto the form's fields and leaves the rest to the general message", async () => {
    const { fieldErrorsFromGatewayMessage } = await import("../errors");
    const formPath = (path: string) => (path.startsWith("client.") || path === "amount" ? path : null);
    expect(
      fieldErrorsFromGatewayMessage(
        "client.document: CPF ou CNPJ inválido; amount: use no máximo duas casas decimais; offerCode: desconhecido",
        formPath,
      ),
    ).toEqual({
      "client.document": ["CPF ou CNPJ inválido"],
      amount: ["use no máximo duas casas decimais"],
    });
    expect(fieldErrorsFromGatewayMessage("Transação não encontrada", formPath)).toEqual({});
    expect(fieldErrorsFromGatewayMessage(undefined, formPath)).toEqual({});
  });
});
