/**
 * Contract tests: the typed client against the sandbox gateway, end to end over HTTP.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "@/sandbox/app";
import { createGatewayClient, type GatewayClient } from "../client";
import { GatewayError, isGatewayError } from "../errors";
import { paymentWebhookSchema, type PaymentWebhook } from "../schemas";
import * as f from "./fixtures";

type Keys = { publicKey: string; secretKey: string };
const DEMO: Keys = { publicKey: "pk_sandbox_demo", secretKey: "sk_sandbox_demo" };
const COMPANY: Keys = { publicKey: "pk_sandbox_company", secretKey: "sk_sandbox_company" };
const NOKYC: Keys = { publicKey: "pk_sandbox_nokyc", secretKey: "sk_sandbox_nokyc" };

let sandbox: { url: string; close(): Promise<void> };
let demo: GatewayClient;
let company: GatewayClient;
let nokyc: GatewayClient;

const silent = { log() {} };
const uid = (prefix: string) => `${prefix}-${randomUUID()}`;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

function clientFor(keys: Keys, extra: Partial<Parameters<typeof createGatewayClient>[0]> = {}) {
  return createGatewayClient({
    baseUrl: sandbox.url,
    ...keys,
    logger: silent,
    retry: { baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 1_500 },
    ...extra,
  });
}

async function control(keys: Keys, method: string, path: string, body?: unknown) {
  const res = await fetch(`${sandbox.url}/sandbox/v1${path}`, {
    method,
    headers: {
      "x-public-key": keys.publicKey,
      "x-secret-key": keys.secretKey,
      Accept: "application/json",
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`control ${method} ${path} → ${res.status}: ${text}`);
  return JSON.parse(text) as unknown;
}

const injectFault = (keys: Keys, fault: Record<string, unknown>) => control(keys, "POST", "/faults", { times: 1, ...fault });

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

const pixCharge = (identifier = uid("pix"), callbackUrl?: string) => ({
  ...f.pixChargeRequest(identifier),
  dueDate: inDays(7),
  callbackUrl: callbackUrl ?? "https://console.example.com/api/webhooks/acc_1",
});

// A webhook receiver that refuses the first delivery of every (event, transaction) once.
type Received = { at: number; status: number; body: unknown; headers: http.IncomingHttpHeaders };
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];
const refusedOnce = new Set<string>();

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dataDir: "memory://", webhookRetryMs: 50, quiet: true });
  demo = clientFor(DEMO);
  company = clientFor(COMPANY);
  nokyc = clientFor(NOKYC);

  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body: unknown = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        body = Buffer.concat(chunks).toString("utf8");
      }
      const payload = body as { event?: string; transaction?: { id?: string } };
      const key = `${payload?.event}:${payload?.transaction?.id}`;
      const status = refusedOnce.has(key) ? 200 : 500;
      refusedOnce.add(key);
      received.push({ at: Date.now(), status, body, headers: req.headers });
      res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify({ ok: status === 200 }));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/webhooks/acc_demo`;
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

describe("every endpoint answers the documented shape through the client", () => {
  it("Pix charge", async () => {
    const answer = await demo.createPixCharge(pixCharge());
    expect(answer.transactionId).toEqual(expect.any(String));
    expect(answer.status).toBe("OK");
    expect(answer.fee).toEqual(expect.any(Number));
    expect(answer.order).toMatchObject({ id: expect.any(String), url: expect.any(String) });
    expect(answer.pix.code.length).toBeGreaterThan(20);
    expect(answer.pix.base64).toBe("");
  });

  it("card charge", async () => {
    const answer = await demo.createCardCharge(f.cardChargeRequest(uid("card")));
    expect(answer.transactionId).toEqual(expect.any(String));
    expect(answer.status).toEqual(expect.any(String));
    expect(answer.fee).toEqual(expect.any(Number));
    expect(JSON.stringify(answer)).not.toContain(f.CARD_NUMBER);
  });

  it("boleto charge", async () => {
    const answer = await demo.createBoletoCharge({ ...f.boletoChargeRequest(uid("boleto")), dueDate: inDays(5) });
    expect(answer.status).toBe("PENDING");
    expect(answer.boleto.barcode).toMatch(/^\d{44}$/);
    expect(answer.boleto.digitableLine.replace(/\D/g, "")).toHaveLength(47);
    expect(answer.boleto.pdfUrl).toEqual(expect.any(String));
  });

  it("crypto charge", async () => {
    const answer = await demo.createCryptoCharge(f.cryptoChargeRequest(uid("crypto")));
    expect(answer.status).toBe("PENDING");
    expect(answer.crypto).toMatchObject({ address: expect.any(String), amount: expect.any(Number), network: expect.any(String) });
    expect(Number.isNaN(Date.parse(answer.crypto.expiresAt))).toBe(false);
  });

  it("Pix deposit (no fee)", async () => {
    const answer = await demo.createPixDeposit(f.pixDepositRequest(uid("dep")));
    expect(answer.transactionId).toEqual(expect.any(String));
    expect(answer.pix.code).toEqual(expect.any(String));
    expect("fee" in answer).toBe(false);
  });

  it("the three subscriptions", async () => {
    for (const answer of [
      await demo.createPixSubscription(f.pixSubscriptionRequest(uid("subpix"))),
      await demo.createCardSubscription(f.cardSubscriptionRequest(uid("subcard"))),
      await demo.createCryptoSubscription(f.cryptoSubscriptionRequest(uid("subcrypto"))),
    ]) {
      expect(typeof answer).toBe("object");
      expect(Object.keys(answer).length).toBeGreaterThan(0);
      expect(JSON.stringify(answer)).not.toContain(f.CARD_NUMBER);
    }
  });

  it("transfer", async () => {
    const answer = await demo.createTransfer(f.transferRequest(uid("trf")));
    expect(answer.webhookToken.length).toBeGreaterThan(0);
    expect(answer.withdraw).toMatchObject({ amount: 75, status: "PENDING", currency: expect.any(String) });
    expect(answer.payoutAccount).toMatchObject({ pix: "recebedor@example.com", status: expect.any(String) });
  });

  it("checkout (demo has the permission)", async () => {
    const answer = await demo.createCheckout(f.checkoutRequest());
    expect(answer.success).toBe(true);
    expect(() => new URL(answer.checkoutUrl)).not.toThrow();
  });

  it("transaction lookup by id and by clientIdentifier", async () => {
    const identifier = uid("lookup");
    const created = await demo.createPixCharge(pixCharge(identifier));
    const byId = await demo.getTransaction({ id: created.transactionId });
    const byIdentifier = await demo.getTransaction({ clientIdentifier: identifier });
    expect(byId.id).toBe(created.transactionId);
    expect(byIdentifier.id).toBe(created.transactionId);
    expect(byId).toMatchObject({ clientIdentifier: identifier, paymentMethod: "PIX", amount: 150.5 });
    expect(await demo.findTransaction({ clientIdentifier: uid("never-created") })).toBeNull();
  });

  it("producer data, with and without KYC, with a legal representative for the CNPJ producer", async () => {
    const d = await demo.getProducer();
    expect(d).toMatchObject({ name: expect.any(String), email: expect.any(String), document: expect.any(String) });
    expect(d.address).toBeDefined();
    const n = await nokyc.getProducer();
    expect(n.document).toBeUndefined();
    expect(n.address).toBeUndefined();
    const c = await company.getProducer();
    expect(c.legalRepresentative).toBeDefined();
  });

  it("refund: PENDING at creation, a second request is conflict GATEWAY_INVALID_ARGUMENT", async () => {
    const created = await demo.createPixCharge(pixCharge());
    await control(DEMO, "POST", `/transactions/${created.transactionId}/events`, { type: "pay" });
    const refund = await demo.requestRefund({ transactionId: created.transactionId, reason: "Customer request" });
    expect(refund).toMatchObject({ transactionId: created.transactionId, status: "PENDING", reason: "Customer request" });
    const again = await failure(demo.requestRefund({ transactionId: created.transactionId, reason: "Again" }));
    expect(again).toMatchObject({ kind: "conflict", status: 422, errorCode: "GATEWAY_INVALID_ARGUMENT", outcomeUnknown: false });
    expect(again.gatewayMessage).toEqual(expect.any(String));
  });
});

describe("errors through the client", () => {
  it("wrong keys are kind auth (POST and GET)", async () => {
    const wrong = clientFor({ publicKey: "pk_sandbox_demo", secretKey: "sk_wrong_key" });
    expect(await failure(wrong.createPixCharge(pixCharge()))).toMatchObject({ kind: "auth", status: 401 });
    expect(await failure(wrong.getProducer())).toMatchObject({ kind: "auth", status: 401 });
  });

  it("producers are isolated: company cannot see or refund demo's transaction", async () => {
    const created = await demo.createPixCharge(pixCharge());
    expect(await failure(company.getTransaction({ id: created.transactionId }))).toMatchObject({ kind: "not_found", status: 404 });
    expect(await failure(company.requestRefund({ transactionId: created.transactionId, reason: "x" }))).toMatchObject({
      kind: "not_found",
    });
  });

  it("checkout without the permission is forbidden", async () => {
    expect(await failure(company.createCheckout(f.checkoutRequest()))).toMatchObject({ kind: "forbidden", status: 403 });
  });

  it("a gateway-side validation error is kind validation with the message kept", async () => {
    const error = await failure(demo.createPixCharge({ ...pixCharge(), client: { ...f.client, document: "111.111.111-11" } }));
    expect(error).toMatchObject({ kind: "validation", status: 400 });
    expect(error.gatewayMessage).toContain("document");
  });
});

describe("injected faults", () => {
  it("503 on a POST is server with an unknown outcome (not retried); 503 once on a GET is retried away", async () => {
    await injectFault(DEMO, { status: 503 });
    expect(await failure(demo.createPixCharge(pixCharge()))).toMatchObject({ kind: "server", status: 503, outcomeUnknown: true });

    await injectFault(DEMO, { status: 502 });
    const producer = await demo.getProducer();
    expect(producer.name).toEqual(expect.any(String));
  });

  it("429 is rate_limited with Retry-After", async () => {
    await injectFault(DEMO, { status: 429 });
    const error = await failure(demo.createPixCharge(pixCharge()));
    expect(error).toMatchObject({ kind: "rate_limited", status: 429 });
    expect(error.retryAfterMs).toBeGreaterThanOrEqual(0);
  });

  it("a malformed 2xx body on a POST is malformed with an unknown outcome", async () => {
    await injectFault(DEMO, { malformedBody: true });
    const identifier = uid("malformed");
    const error = await failure(demo.createPixCharge(pixCharge(identifier)));
    expect(error).toMatchObject({ kind: "malformed", outcomeUnknown: true });
    await expect(demo.getTransaction({ clientIdentifier: identifier })).resolves.toMatchObject({ clientIdentifier: identifier });
  });

  it("a dropped connection on a POST: outcome unknown, sent once, and the lookup finds exactly that transaction", async () => {
    let posts = 0;
    const counting = clientFor(DEMO, {
      fetch: (input, init) => {
        if (init?.method === "POST") posts++;
        return fetch(input, init);
      },
    });
    await injectFault(DEMO, { dropConnection: true });
    const identifier = uid("dropped");
    const error = await failure(counting.createPixCharge(pixCharge(identifier)));
    expect(error).toMatchObject({ kind: "network", outcomeUnknown: true });
    expect(posts).toBe(1);

    const found = await counting.getTransaction({ clientIdentifier: identifier });
    expect(found).toMatchObject({ clientIdentifier: identifier, amount: 150.5, paymentMethod: "PIX" });
    const byId = await counting.getTransaction({ id: found.id });
    expect(byId.clientIdentifier).toBe(identifier);
  });

  it("latency beyond the timeout on a POST: timeout, outcome unknown, then found by identifier", async () => {
    await injectFault(DEMO, { latencyMs: 1_000 });
    const identifier = uid("slow");
    const error = await failure(demo.createPixCharge(pixCharge(identifier), { timeoutMs: 200 }));
    expect(error).toMatchObject({ kind: "timeout", outcomeUnknown: true });
    await expect(demo.getTransaction({ clientIdentifier: identifier })).resolves.toMatchObject({ clientIdentifier: identifier });
  });
});

describe("webhook delivery", () => {
  async function waitFor<T>(probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
    const started = Date.now();
    for (;;) {
      const value = probe();
      if (value !== undefined) return value;
      if (Date.now() - started > timeoutMs) throw new Error("timed out waiting");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it("delivers TRANSACTION_PAID to the callbackUrl and retries after a non-2xx answer", async () => {
    const identifier = uid("hook");
    const created = await demo.createPixCharge(pixCharge(identifier, receiverUrl));
    await control(DEMO, "POST", `/transactions/${created.transactionId}/events`, { type: "pay" });

    const paid = (r: Received) => {
      const body = r.body as { event?: string; transaction?: { id?: string } };
      return body?.event === "TRANSACTION_PAID" && body.transaction?.id === created.transactionId;
    };
    const deliveries = await waitFor(() => {
      const list = received.filter(paid);
      return list.some((r) => r.status === 200) ? list : undefined;
    });
    expect(deliveries.length).toBeGreaterThanOrEqual(2);
    expect(deliveries[0].status).toBe(500);
    expect(deliveries.at(-1)!.status).toBe(200);
    expect(deliveries.at(-1)!.at).toBeGreaterThanOrEqual(deliveries[0].at);

    const parsed = paymentWebhookSchema.safeParse(deliveries.at(-1)!.body);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    const payload = parsed.data as PaymentWebhook;
    expect(payload.token).toEqual(expect.any(String));
    expect(payload.token.length).toBeGreaterThan(0);
    expect(payload.transaction).toMatchObject({ id: created.transactionId, paymentMethod: "PIX", status: expect.any(String) });
    expect(payload.transaction.identifier).toBe(identifier);
    expect(deliveries.at(-1)!.headers["content-type"]).toContain("application/json");
    // The same notification is retried, not a different one.
    const first = deliveries[0].body as PaymentWebhook;
    expect([first.event, first.token, first.transaction.id]).toEqual([payload.event, payload.token, payload.transaction.id]);
  });
});
