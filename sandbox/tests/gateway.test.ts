/* eslint-disable @typescript-eslint/no-explicit-any -- responses are inspected loosely; shapes are checked with the zod schemas */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  boletoChargeResponseSchema,
  cardChargeResponseSchema,
  cryptoChargeResponseSchema,
  pixChargeResponseSchema,
  pixDepositResponseSchema,
} from "../../lib/gateway/schemas/charges";
import { checkoutResponseSchema } from "../../lib/gateway/schemas/checkout";
import { gatewayErrorBodySchema } from "../../lib/gateway/schemas/common";
import { producerRecordSchema } from "../../lib/gateway/schemas/producer";
import { refundRecordSchema } from "../../lib/gateway/schemas/refunds";
import { subscriptionResponseSchema } from "../../lib/gateway/schemas/subscriptions";
import { transactionRecordSchema } from "../../lib/gateway/schemas/transactions";
import { transferResponseSchema } from "../../lib/gateway/schemas/transfers";
import { parseBrCode } from "../../lib/br/brcode";
import { digitableLineToBarcode, isValidBarcode, parseBoletoBarcode } from "../../lib/br/boleto";
import type { RunningSandbox } from "../app";
import { api, boletoBody, cardBody, checkoutBody, CLIENT, cryptoBody, pixBody, start, transferBody, uid } from "./helpers";

let sandbox: RunningSandbox;
let demo: ReturnType<typeof api>;

beforeAll(async () => {
  sandbox = await start();
  demo = api(sandbox);
});
afterAll(() => sandbox.close());

function expectError(res: { status: number; json: any }, status: number, fragment?: RegExp) {
  expect(res.status).toBe(status);
  expect(gatewayErrorBodySchema.parse(res.json).statusCode).toBe(status);
  if (fragment) expect(res.json.message).toMatch(fragment);
}

describe("charges", () => {
  it("creates a Pix charge with a valid dynamic BR Code and sandbox URLs", async () => {
    const res = await demo.post("/pix/receive", pixBody({ amount: 123.45 }));
    expect(res.status).toBe(200);
    const body = pixChargeResponseSchema.parse(res.json);
    expect(body.status).toBe("OK");
    expect(body.pix.base64).toBe("");
    expect(body.pix.image).toBe(`${sandbox.publicUrl}/qr/${body.transactionId}.png`);
    expect(body.order.url).toBe(`${sandbox.publicUrl}/pay/${body.order.id}`);
    expect(body.order.receiptUrl).toBe(`${sandbox.publicUrl}/receipt/${body.order.id}`);
    expect(body.fee).toBeCloseTo(1.22, 2);
    const parsed = parseBrCode(body.pix.code);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(body.pix.code).toContain("5406123.45");
    const host = sandbox.publicUrl.replace(/^https?:\/\//, "");
    expect(body.pix.code).toContain(`${host}/pix/`);
    expect(body.pix.code).not.toContain("http");
  });

  it("creates a boleto with a valid barcode, digitable line, amount and due date", async () => {
    const res = await demo.post("/boleto/receive", boletoBody({ amount: 150.75, dueDate: "2030-01-15" }));
    expect(res.status).toBe(200);
    const body = boletoChargeResponseSchema.parse(res.json);
    expect(body.status).toBe("PENDING");
    expect(isValidBarcode(body.boleto.barcode)).toBe(true);
    expect(digitableLineToBarcode(body.boleto.digitableLine)).toBe(body.boleto.barcode);
    const parsed = parseBoletoBarcode(body.boleto.barcode, new Date("2029-12-01"));
    expect(parsed).toMatchObject({ bankCode: "237", amountCents: 15075, dueDate: "2030-01-15" });
    expect(body.boleto.pdfUrl).toBe(`${sandbox.publicUrl}/boleto/${body.transactionId}.pdf`);
  });

  it("defaults the boleto due date to three days ahead", async () => {
    const body = boletoChargeResponseSchema.parse((await demo.post("/boleto/receive", boletoBody())).json);
    const expected = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    expect(parseBoletoBarcode(body.boleto.barcode)?.dueDate).toBe(expected);
  });

  it("creates crypto charges with network-shaped addresses and the documented rate", async () => {
    const cases = [
      { cryptoCurrency: "USDT", network: "POLYGON", address: /^0x[0-9a-f]{40}$/ },
      { cryptoCurrency: "USDT", network: "TRON", address: /^T[1-9A-HJ-NP-Za-km-z]{33}$/ },
      { cryptoCurrency: "USDC", network: "SOLANA", address: /^[1-9A-HJ-NP-Za-km-z]{44}$/ },
      { cryptoCurrency: "BTC", network: "BITCOIN", address: /^bc1q[02-9ac-hj-np-z]{38}$/ },
    ];
    for (const c of cases) {
      const res = await demo.post("/crypto/receive", cryptoBody({ cryptoCurrency: c.cryptoCurrency, network: c.network }));
      expect(res.status).toBe(200);
      const body = cryptoChargeResponseSchema.parse(res.json);
      expect(body.status).toBe("PENDING");
      expect(body.crypto.address).toMatch(c.address);
      expect(body.crypto.network).toBe(c.network);
      const minutes = (Date.parse(body.crypto.expiresAt) - Date.now()) / 60_000;
      expect(minutes).toBeGreaterThan(29);
      expect(minutes).toBeLessThanOrEqual(30);
    }
    const usdt = cryptoChargeResponseSchema.parse((await demo.post("/crypto/receive", cryptoBody({ amount: 110 }))).json);
    expect(usdt.crypto.amount).toBe(20); // 110 BRL / 5.50
  });

  it("rejects unknown crypto currency/network combinations with a clear message", async () => {
    expectError(await demo.post("/crypto/receive", cryptoBody({ cryptoCurrency: "DOGE" })), 400, /cryptoCurrency/);
    expectError(await demo.post("/crypto/receive", cryptoBody({ cryptoCurrency: "BTC", network: "TRON" })), 400, /network/);
    expectError(await demo.post("/crypto/receive", cryptoBody({ currency: "XYZ" })), 400, /currency/);
  });

  it("creates a Pix deposit without fee and with a 30-minute expiry", async () => {
    const res = await demo.post("/pix/deposit", { amount: 250 });
    expect(res.status).toBe(200);
    const body = pixDepositResponseSchema.parse(res.json);
    expect(body.status).toBe("OK");
    expect("fee" in res.json).toBe(false);
    expect(body.pix.base64).toBe("");
    expect(parseBrCode(body.pix.code).ok).toBe(true);
    const minutes = (Date.parse(body.pix.expiresAt!) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
  });

  it("approves the approving test cards and any other Luhn-valid number", async () => {
    for (const number of ["4111111111111111", "4242424242424242", "5555555555554444"]) {
      const res = await demo.post("/card/receive", cardBody({ card: { number, owner: "X", expiresAt: "2031-01", cvv: "123" } }));
      expect(res.status).toBe(200);
      const body = cardChargeResponseSchema.parse(res.json);
      expect(body.status).toBe("OK");
      const record = await demo.get(`/transactions?id=${body.transactionId}`);
      expect(record.json.status).toBe("COMPLETED");
      expect(record.json.paymentMethod).toBe("CREDIT_CARD");
      expect(JSON.stringify(record.json)).not.toContain(number);
    }
  });

  it("declines 4000000000009995 (insufficient funds), 4000000000000002 and an expired card, in pt-BR", async () => {
    for (const [number, expiresAt, reason] of [
      ["4000000000009995", "2031-01", /^Cartão recusado: saldo insuficiente$/],
      ["4000000000000002", "2031-01", /^Cartão recusado$/],
      ["4111111111111111", "2020-01", /^Cartão expirado$/],
    ] as const) {
      const res = await demo.post("/card/receive", cardBody({ card: { number, owner: "X", expiresAt, cvv: "123" } }));
      expect(res.status).toBe(200);
      expect(res.json.status).toBe("FAILED");
      expect(res.json.errorDescription).toMatch(reason);
      const record = transactionRecordSchema.parse((await demo.get(`/transactions?id=${res.json.transactionId}`)).json);
      expect(record.status).toBe("FAILED");
      expect(record.errorDescription).toMatch(reason);
    }
  });

  it("rejects a non-Luhn card number with 400 naming the field, and never echoes it", async () => {
    const res = await demo.post(
      "/card/receive",
      cardBody({ card: { number: "4111111111111112", owner: "X", expiresAt: "2031-01", cvv: "123" } }),
    );
    expectError(res, 400, /card\.number/);
    expect(res.text).not.toContain("4111111111111112");
  });
});

describe("validation and transport errors", () => {
  it("names the invalid field", async () => {
    expectError(await demo.post("/pix/receive", pixBody({ amount: -1 })), 400, /^amount/);
    expectError(
      await demo.post("/pix/receive", pixBody({ client: { ...CLIENT, email: "nope" } })),
      400,
      /^client\.email: deve ser um e-mail válido$/,
    );
    expectError(await demo.post("/pix/receive", pixBody({ client: { ...CLIENT, document: "111.111.111-11" } })), 400, /client\.document/);
    expectError(await demo.post("/card/receive", cardBody({ clientIp: "::1" })), 400, /clientIp/);
    // Like the family's gateways, an unknown field is ignored (and named in the request log), not refused.
    const extra = await demo.post("/pix/receive", pixBody({ clientIP: "1.2.3.4" }));
    expect(extra.status).toBe(200);
    expect(extra.headers.get("x-sandbox-ignored-fields")).toBe("clientIP");
    expectError(await demo.post("/pix/receive", pixBody({ amount: 10.001 })), 400, /amount/);
  });

  it("answers 400 with the error body on malformed JSON", async () => {
    expectError(await demo.post("/pix/receive", "{not json"), 400, /JSON/);
    expectError(await demo.post("/pix/receive", "[1,2"), 400);
    expectError(await demo.post("/pix/receive", "null"), 400);
  });

  it("answers 413 with the error body for bodies over 1 MB", async () => {
    const huge = JSON.stringify({ ...pixBody(), metadata: { blob: "x".repeat(1_100_000) } });
    expectError(await demo.post("/pix/receive", huge), 413);
  });

  it("never answers 5xx to odd input", async () => {
    const odd = ["", "0", '"string"', "{}", '{"amount":"10"}', '{"identifier":{},"amount":1e309}', "\u0000"];
    for (const body of odd) {
      const res = await demo.post("/pix/receive", body);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });

  it("answers 401 with the error body for missing or wrong keys on every endpoint", async () => {
    const paths: Array<[string, string]> = [
      ["POST", "/api/v1/gateway/pix/receive"],
      ["POST", "/api/v1/gateway/card/receive"],
      ["POST", "/api/v1/gateway/boleto/receive"],
      ["POST", "/api/v1/gateway/crypto/receive"],
      ["POST", "/api/v1/gateway/pix/deposit"],
      ["POST", "/api/v1/gateway/pix/subscription"],
      ["POST", "/api/v1/gateway/card/subscription"],
      ["POST", "/api/v1/gateway/crypto/subscription"],
      ["POST", "/api/v1/gateway/transfers"],
      ["POST", "/api/v1/gateway/checkout"],
      ["POST", "/api/v1/gateway/producer/refunds"],
      ["GET", "/api/v1/gateway/transactions?id=x"],
      ["GET", "/api/v1/gateway/producer"],
      ["POST", "/sandbox/v1/transactions/x/events"],
      ["GET", "/sandbox/v1/deliveries"],
      ["POST", "/sandbox/v1/faults"],
      ["PUT", "/sandbox/v1/settings"],
    ];
    for (const [method, path] of paths) {
      const variants: Array<Record<string, string>> = [
        {},
        { "x-public-key": "pk_sandbox_demo" },
        { "x-public-key": "pk_sandbox_demo", "x-secret-key": "sk_sandbox_company" },
        { "x-public-key": "pk_unknown", "x-secret-key": "sk_sandbox_demo" },
      ];
      for (const headers of variants) {
        const res = await fetch(`${sandbox.url}${path}`, {
          method,
          headers: { ...headers, "content-type": "application/json" },
          body: method === "GET" ? undefined : "{}",
        });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(gatewayErrorBodySchema.parse(await res.json()).errorCode).toBe("GATEWAY_UNAUTHORIZED");
      }
    }
  });
});

describe("idempotency, lookup and isolation", () => {
  it("replays the creation response for a reused identifier, even for 10 concurrent requests", async () => {
    const body = pixBody();
    const results = await Promise.all(Array.from({ length: 10 }, () => demo.post("/pix/receive", body)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const ids = new Set(results.map((r) => r.json.transactionId));
    expect(ids.size).toBe(1);
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    const later = await demo.post("/pix/receive", { ...body, amount: 999 });
    expect(later.json.transactionId).toBe(results[0].json.transactionId);
    expect(later.json.pix.code).toBe(results[0].json.pix.code);
  });

  it("replays deposits by identifier and generates one when absent", async () => {
    const identifier = uid("dep");
    const a = await demo.post("/pix/deposit", { identifier, amount: 20 });
    const b = await demo.post("/pix/deposit", { identifier, amount: 20 });
    expect(b.json).toEqual(a.json);
    const c = await demo.post("/pix/deposit", { amount: 20 });
    const d = await demo.post("/pix/deposit", { amount: 20 });
    expect(c.json.transactionId).not.toBe(d.json.transactionId);
    expect((await demo.get(`/transactions?id=${c.json.transactionId}`)).json.clientIdentifier).toMatch(/^dep_/);
  });

  it("scopes identifiers per kind and per producer", async () => {
    const identifier = uid("shared");
    const pix = await demo.post("/pix/receive", pixBody({ identifier }));
    const boleto = await demo.post("/boleto/receive", boletoBody({ identifier }));
    const other = await api(sandbox, "company").post("/pix/receive", pixBody({ identifier }));
    expect(new Set([pix.json.transactionId, boleto.json.transactionId, other.json.transactionId]).size).toBe(3);
  });

  it("looks up by id, by clientIdentifier, by both (must match) and 400/404 otherwise", async () => {
    const created = await demo.post("/pix/receive", pixBody());
    const id = created.json.transactionId;
    const identifier = (await demo.get(`/transactions?id=${id}`)).json.clientIdentifier;
    const byId = transactionRecordSchema.parse((await demo.get(`/transactions?id=${id}`)).json);
    expect(byId).toMatchObject({ id, status: "PENDING", paymentMethod: "PIX", amount: 10.5, currency: "BRL" });
    expect(byId.pixInformation?.qrCode).toBe(created.json.pix.code);
    expect((await demo.get(`/transactions?clientIdentifier=${identifier}`)).json.id).toBe(id);
    expect((await demo.get(`/transactions?id=${id}&clientIdentifier=${identifier}`)).json.id).toBe(id);
    expectError(await demo.get(`/transactions?id=${id}&clientIdentifier=other`), 404);
    expectError(await demo.get(`/transactions`), 400);
    expectError(await demo.get(`/transactions?id=00000000-0000-0000-0000-000000000000`), 404);
  });

  it("hides other producers' objects (404)", async () => {
    const created = await demo.post("/pix/receive", pixBody());
    const company = api(sandbox, "company");
    expectError(await company.get(`/transactions?id=${created.json.transactionId}`), 404);
    expectError(await company.post("/producer/refunds", { transactionId: created.json.transactionId, reason: "x" }), 404);
    expectError(await company.control("POST", `/transactions/${created.json.transactionId}/events`, { type: "pay" }), 404);
  });
});

describe("producer", () => {
  it("returns the producer record per KYC state", async () => {
    const d = producerRecordSchema.parse((await demo.get("/producer")).json);
    expect(d.phone).toMatch(/^\(\d{2}\) \d{5}-\d{4}$/);
    expect(d.document).toMatch(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/);
    expect(d.address?.zipCode).toMatch(/^\d{5}-\d{3}$/);
    expect(d.legalRepresentative).toBeUndefined();

    const c = producerRecordSchema.parse((await api(sandbox, "company").get("/producer")).json);
    expect(c.document).toMatch(/^\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}$/);
    expect(c.legalRepresentative?.name).toBeTruthy();
    expect(c.legalRepresentative?.address?.zipCode).toMatch(/^\d{5}-\d{3}$/);

    const n = (await api(sandbox, "nokyc").get("/producer")).json;
    expect(producerRecordSchema.parse(n).name).toBeTruthy();
    expect(n).not.toHaveProperty("document");
    expect(n).not.toHaveProperty("address");
    expect(n).not.toHaveProperty("legalRepresentative");
  });
});

describe("transfers", () => {
  it("creates a transfer with a per-transfer webhook token", async () => {
    const res = await demo.post("/transfers", transferBody());
    expect(res.status).toBe(200);
    const body = transferResponseSchema.parse(res.json);
    expect(body.withdraw.status).toBe("PENDING");
    expect(body.withdraw.feeAmount).toBe(1);
    expect(body.payoutAccount).toMatchObject({ status: "ACTIVE", pix: "52998224725", pixType: "cpf", deletedAt: null });
    expect(body.webhookToken).not.toBe((await demo.post("/transfers", transferBody())).json.webhookToken);
    expect(body.receiptUrl).toContain(body.withdraw.id);
    const identifier = uid("tr-fixed");
    const [a, b] = await Promise.all([
      demo.post("/transfers", transferBody({ identifier })),
      demo.post("/transfers", transferBody({ identifier })),
    ]);
    expect(a.json.withdraw.id).toBe(b.json.withdraw.id);
    expect(a.json.webhookToken).toBe(b.json.webhookToken);
  });

  it("accepts owner.ip 127.0.0.1 from a caller on 127.0.0.1 over a real socket (the one-machine demo)", async () => {
    const res = await demo.post(
      "/transfers",
      transferBody({ owner: { ip: "127.0.0.1", name: "Joao", document: { type: "cpf", number: "52998224725" } } }),
    );
    expect(res.status).toBe(200);
  });

  it("validates the Pix key per type, the owner document and accents", async () => {
    expectError(await demo.post("/transfers", transferBody({ pix: { type: "cpf", key: "12345678900" } })), 400, /^pix\.key: CPF inválido/);
    expectError(await demo.post("/transfers", transferBody({ pix: { type: "email", key: "not-an-email" } })), 400, /pix\.key/);
    expectError(await demo.post("/transfers", transferBody({ pix: { type: "random", key: "abc" } })), 400, /pix\.key/);
    const ok = await demo.post("/transfers", transferBody({ pix: { type: "phone", key: "+5511987654321" } }));
    expect(ok.status).toBe(200);
    expectError(
      await demo.post(
        "/transfers",
        transferBody({ owner: { ip: "200.1.2.3", name: "João", document: { type: "cpf", number: "52998224725" } } }),
      ),
      400,
      /sem acentos/,
    );
    expectError(
      await demo.post(
        "/transfers",
        transferBody({ owner: { ip: "200.1.2.3", name: "Joao", document: { type: "cpf", number: "11111111111" } } }),
      ),
      400,
      /^owner\.document\.number: CPF inválido$/,
    );
  });
});

describe("checkout", () => {
  it("creates a checkout URL for a producer with permission and setting", async () => {
    const res = await demo.post("/checkout", checkoutBody());
    expect(res.status).toBe(200);
    const body = checkoutResponseSchema.parse(res.json);
    expect(body.success).toBe(true);
    expect(body.checkoutUrl).toMatch(new RegExp(`^${sandbox.publicUrl}/checkout/chk_`));
  });

  it("answers 403 naming what is missing", async () => {
    expectError(await api(sandbox, "company").post("/checkout", checkoutBody()), 403, /permissão PRODUCER_CHECKOUT/);
    const nokyc = await api(sandbox, "nokyc").post("/checkout", checkoutBody());
    expectError(nokyc, 403, /permissão PRODUCER_CHECKOUT e a configuração da empresa/);
  });
});

describe("refund requests", () => {
  it("creates a PENDING refund for a paid transaction, then 422 on a second request", async () => {
    const card = await demo.post("/card/receive", cardBody());
    const first = await demo.post("/producer/refunds", {
      transactionId: card.json.transactionId,
      reason: "customer asked",
      description: "dup",
    });
    expect(first.status).toBe(200);
    expect(refundRecordSchema.parse(first.json)).toMatchObject({
      status: "PENDING",
      producerId: "prod_demo",
      amount: 99.9,
      reason: "customer asked",
    });
    const second = await demo.post("/producer/refunds", { transactionId: card.json.transactionId, reason: "again" });
    expectError(second, 422);
    expect(second.json.errorCode).toBe("GATEWAY_INVALID_ARGUMENT");
  });

  it("is concurrency-safe: one of several simultaneous requests wins", async () => {
    const card = await demo.post("/card/receive", cardBody());
    const results = await Promise.all(
      Array.from({ length: 6 }, () => demo.post("/producer/refunds", { transactionId: card.json.transactionId, reason: "r" })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 422)).toHaveLength(5);
  });

  it("refuses unpaid transactions (400) and unknown ones (404)", async () => {
    const pix = await demo.post("/pix/receive", pixBody());
    expectError(await demo.post("/producer/refunds", { transactionId: pix.json.transactionId, reason: "r" }), 400, /COMPLETED/);
    expectError(await demo.post("/producer/refunds", { transactionId: "nope", reason: "r" }), 404);
    expectError(await demo.post("/producer/refunds", { reason: "r" }), 400, /transactionId/);
  });
});

describe("subscriptions", () => {
  const recurrence = { periodicityType: "MONTHS", periodicity: 1 };
  const product = { id: "plan-1", name: "Plano mensal", price: 29.9 };

  it("creates Pix, card and crypto subscriptions with a first charge", async () => {
    const pix = await demo.post("/pix/subscription", {
      identifier: uid("sub"),
      amount: 29.9,
      client: CLIENT,
      product,
      subscription: recurrence,
    });
    expect(pix.status).toBe(200);
    subscriptionResponseSchema.parse(pix.json);
    expect(pix.json).toMatchObject({ status: "ACTIVE", paymentMethod: "PIX", amount: 29.9 });
    expect(pix.json.transactionId).toBeTruthy();
    expect(parseBrCode(pix.json.charge.pix.code).ok).toBe(true);

    const card = await demo.post("/card/subscription", {
      identifier: uid("sub"),
      amount: 29.9,
      client: CLIENT,
      clientIp: "200.1.2.3",
      card: { number: "4242424242424242", owner: "X", expiresAt: "2031-01", cvv: "123" },
      product,
      subscription: recurrence,
    });
    expect(card.json).toMatchObject({ status: "ACTIVE", paymentMethod: "CREDIT_CARD" });
    expect((await demo.get(`/transactions?id=${card.json.transactionId}`)).json.status).toBe("COMPLETED");
    expect(JSON.stringify(card.json)).not.toContain("4242424242424242");

    const crypto = await demo.post("/crypto/subscription", {
      identifier: uid("sub"),
      amount: 55,
      cryptoCurrency: "USDC",
      network: "ETHEREUM",
      client: CLIENT,
      product,
      subscription: { periodicityType: "WEEKS", periodicity: 2, firstChargeIn: 1 },
    });
    expect(crypto.json).toMatchObject({ status: "ACTIVE", paymentMethod: "CRYPTO", transactionId: null });
    const days = (Date.parse(crypto.json.nextChargeAt) - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(14);
  });

  it("replays a reused subscription identifier", async () => {
    const body = { identifier: uid("sub"), amount: 10, client: CLIENT, product, subscription: recurrence };
    const [a, b] = await Promise.all([demo.post("/pix/subscription", body), demo.post("/pix/subscription", body)]);
    expect(a.json.subscriptionId).toBe(b.json.subscriptionId);
  });
});
