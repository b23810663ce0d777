import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as s from "../schemas";
import * as f from "./fixtures";

function without<T extends object, K extends keyof T>(value: T, key: K): Omit<T, K> {
  const copy = { ...value };
  delete copy[key];
  return copy;
}

const paths = (result: { success: boolean; error?: z.ZodError }) =>
  result.success ? [] : result.error!.issues.map((i) => i.path.join("."));

describe("request schemas accept the interface's example shapes", () => {
  it.each([
    ["pix charge", s.pixChargeRequestSchema, f.pixChargeRequest()],
    ["card charge", s.cardChargeRequestSchema, f.cardChargeRequest()],
    ["boleto charge", s.boletoChargeRequestSchema, f.boletoChargeRequest()],
    ["crypto charge", s.cryptoChargeRequestSchema, f.cryptoChargeRequest()],
    ["pix deposit", s.pixDepositRequestSchema, f.pixDepositRequest()],
    ["pix subscription", s.pixSubscriptionRequestSchema, f.pixSubscriptionRequest()],
    ["card subscription", s.cardSubscriptionRequestSchema, f.cardSubscriptionRequest()],
    ["crypto subscription", s.cryptoSubscriptionRequestSchema, f.cryptoSubscriptionRequest()],
    ["transfer", s.transferRequestSchema, f.transferRequest()],
    ["checkout", s.checkoutRequestSchema, f.checkoutRequest()],
    ["refund", s.refundRequestSchema, f.refundRequest()],
  ] as const)("%s", (_name, schema, value) => {
    const result = (schema as z.ZodType).safeParse(value);
    expect(paths(result)).toEqual([]);
    expect(result.data).toEqual(value);
  });

  it("accepts the minimal bodies (only required fields)", () => {
    expect(s.pixChargeRequestSchema.safeParse({ identifier: "a", amount: 1, client: f.client }).success).toBe(true);
    expect(s.pixDepositRequestSchema.safeParse({ amount: 1 }).success).toBe(true);
    expect(s.refundRequestSchema.safeParse({ transactionId: "t", reason: "r" }).success).toBe(true);
    expect(
      s.checkoutRequestSchema.safeParse({
        product: { externalId: "e", name: "n", offer: { name: "o", price: 1, offerType: "x", currency: "all", lang: "all" } },
      }).success,
    ).toBe(true);
  });
});

describe("request schemas enforce what the interface requires", () => {
  it("rejects a missing required field, naming it", () => {
    const noIdentifier = without(f.pixChargeRequest(), "identifier");
    expect(paths(s.pixChargeRequestSchema.safeParse(noIdentifier))).toEqual(["identifier"]);
    const noIp = without(f.cardChargeRequest(), "clientIp");
    expect(paths(s.cardChargeRequestSchema.safeParse(noIp))).toEqual(["clientIp"]);
    const noCallback = without(f.transferRequest(), "callbackUrl");
    expect(paths(s.transferRequestSchema.safeParse(noCallback))).toEqual(["callbackUrl"]);
    const noNetwork = without(f.cryptoChargeRequest(), "network");
    expect(paths(s.cryptoChargeRequestSchema.safeParse(noNetwork))).toEqual(["network"]);
  });

  it("requires the address on the card charge only", () => {
    const card = f.cardChargeRequest();
    const noAddress = { ...card, client: f.client };
    expect(paths(s.cardChargeRequestSchema.safeParse(noAddress))).toEqual(["client.address"]);
    expect(s.pixChargeRequestSchema.safeParse({ ...f.pixChargeRequest(), client: f.client }).success).toBe(true);
    const addressWithoutComplement = without(f.address, "complement");
    expect(s.cardChargeRequestSchema.safeParse({ ...card, client: { ...f.client, address: addressWithoutComplement } }).success).toBe(true);
    const addressWithoutZip = without(f.address, "zipCode");
    expect(paths(s.cardChargeRequestSchema.safeParse({ ...card, client: { ...f.client, address: addressWithoutZip } }))).toEqual([
      "client.address.zipCode",
    ]);
  });

  it("checks formats: dueDate, expiresAt, IPv4, URLs, amounts", () => {
    const pix = f.pixChargeRequest();
    expect(paths(s.pixChargeRequestSchema.safeParse({ ...pix, dueDate: "31/12/2026" }))).toEqual(["dueDate"]);
    expect(paths(s.pixChargeRequestSchema.safeParse({ ...pix, dueDate: "2026-02-30" }))).toEqual(["dueDate"]);
    expect(paths(s.pixChargeRequestSchema.safeParse({ ...pix, callbackUrl: "not a url" }))).toEqual(["callbackUrl"]);
    expect(paths(s.pixChargeRequestSchema.safeParse({ ...pix, callbackUrl: "javascript:alert(1)" }))).toEqual(["callbackUrl"]);
    expect(paths(s.pixChargeRequestSchema.safeParse({ ...pix, amount: 0 }))).toEqual(["amount"]);
    expect(paths(s.pixChargeRequestSchema.safeParse({ ...pix, amount: -5 }))).toEqual(["amount"]);
    expect(paths(s.pixChargeRequestSchema.safeParse({ ...pix, amount: Number.POSITIVE_INFINITY }))).toEqual(["amount"]);
    expect(paths(s.pixChargeRequestSchema.safeParse({ ...pix, amount: Number.NaN }))).toEqual(["amount"]);
    expect(paths(s.pixChargeRequestSchema.safeParse({ ...pix, amount: "150.50" }))).toEqual(["amount"]);

    const card = f.cardChargeRequest();
    expect(paths(s.cardChargeRequestSchema.safeParse({ ...card, card: { ...card.card, expiresAt: "12/30" } }))).toEqual(["card.expiresAt"]);
    expect(paths(s.cardChargeRequestSchema.safeParse({ ...card, card: { ...card.card, expiresAt: "2030-13" } }))).toEqual([
      "card.expiresAt",
    ]);
    expect(paths(s.cardChargeRequestSchema.safeParse({ ...card, clientIp: "2001:db8::1" }))).toEqual(["clientIp"]);
    expect(paths(s.cardChargeRequestSchema.safeParse({ ...card, clientIp: "256.1.1.1" }))).toEqual(["clientIp"]);

    const transfer = f.transferRequest();
    expect(paths(s.transferRequestSchema.safeParse({ ...transfer, owner: { ...transfer.owner, ip: "localhost" } }))).toEqual(["owner.ip"]);
  });

  it("rejects unknown request fields instead of silently dropping them", () => {
    expect(paths(s.pixChargeRequestSchema.safeParse({ ...f.pixChargeRequest(), clientIP: "1.2.3.4" }))).toEqual([""]);
    const card = f.cardChargeRequest();
    expect(paths(s.cardChargeRequestSchema.safeParse({ ...card, products: [{ id: "p", name: "n", price: 1, physical: true }] }))).toEqual([
      "products.0",
    ]);
    expect(s.cryptoChargeRequestSchema.safeParse({ ...f.cryptoChargeRequest(), shippingFee: 1 }).success).toBe(false);
  });

  it("keeps metadata free-form", () => {
    const parsed = s.pixChargeRequestSchema.parse({ ...f.pixChargeRequest(), metadata: { deep: { any: [1, "x", null] } } });
    expect(parsed.metadata).toEqual({ deep: { any: [1, "x", null] } });
  });

  it("accepts the listed and other non-empty transfer pix and document types", () => {
    const t = f.transferRequest();
    for (const type of [...s.PIX_KEY_TYPES, "evp"]) {
      expect(s.transferRequestSchema.safeParse({ ...t, pix: { ...t.pix, type } }).success).toBe(true);
    }
    expect(paths(s.transferRequestSchema.safeParse({ ...t, pix: { ...t.pix, type: "" } }))).toEqual(["pix.type"]);
    expect(s.transferRequestSchema.safeParse({ ...t, owner: { ...t.owner, document: { type: "passport", number: "X1" } } }).success).toBe(
      true,
    );
    expect(paths(s.transferRequestSchema.safeParse({ ...t, owner: { ...t.owner, name: "João" } }))).toEqual(["owner.name"]);
  });

  it("validates subscriptions' recurrence", () => {
    const sub = f.pixSubscriptionRequest();
    for (const periodicityType of s.PERIODICITY_TYPES) {
      expect(s.pixSubscriptionRequestSchema.safeParse({ ...sub, subscription: { periodicityType, periodicity: 3 } }).success).toBe(true);
    }
    expect(paths(s.pixSubscriptionRequestSchema.safeParse({ ...sub, subscription: { periodicityType: "HOURS", periodicity: 1 } }))).toEqual(
      ["subscription.periodicityType"],
    );
    expect(paths(s.pixSubscriptionRequestSchema.safeParse({ ...sub, subscription: { periodicityType: "DAYS", periodicity: 0 } }))).toEqual([
      "subscription.periodicity",
    ]);
    expect(paths(s.cardSubscriptionRequestSchema.safeParse({ ...f.cardSubscriptionRequest(), clientIp: undefined }))).toEqual(["clientIp"]);
  });

  it("checks checkout colors as hex and thankYouPage as URL", () => {
    const c = f.checkoutRequest();
    expect(paths(s.checkoutRequestSchema.safeParse({ ...c, settings: { colors: { primary: "blue" } } }))).toEqual([
      "settings.colors.primary",
    ]);
    expect(paths(s.checkoutRequestSchema.safeParse({ ...c, settings: { thankYouPage: "obrigado" } }))).toEqual(["settings.thankYouPage"]);
    const productWithoutOffer = without(c.product, "offer");
    expect(paths(s.checkoutRequestSchema.safeParse({ ...c, product: productWithoutOffer }))).toEqual(["product.offer"]);
  });

  it("requires id or clientIdentifier for the transaction lookup", () => {
    expect(s.transactionQuerySchema.safeParse({}).success).toBe(false);
    expect(s.transactionQuerySchema.safeParse({ id: "tx" }).success).toBe(true);
    expect(s.transactionQuerySchema.safeParse({ clientIdentifier: "c" }).success).toBe(true);
  });
});

describe("response schemas", () => {
  it.each([
    ["pix charge", s.pixChargeResponseSchema, f.pixChargeResponse],
    ["card charge", s.cardChargeResponseSchema, f.cardChargeResponse],
    ["boleto charge", s.boletoChargeResponseSchema, f.boletoChargeResponse],
    ["crypto charge", s.cryptoChargeResponseSchema, f.cryptoChargeResponse],
    ["pix deposit", s.pixDepositResponseSchema, f.pixDepositResponse],
    ["transfer", s.transferResponseSchema, f.transferResponse],
    ["checkout", s.checkoutResponseSchema, f.checkoutResponse],
    ["refund", s.refundRecordSchema, f.refundRecord],
    ["transaction", s.transactionRecordSchema, f.transactionRecord],
    ["producer", s.producerRecordSchema, f.producerRecord],
    ["webhook", s.paymentWebhookSchema, f.paymentWebhook],
  ] as const)("%s parses and keeps unknown fields at every level", (_name, schema, value) => {
    const withExtras = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
    withExtras.futureField = { nested: true };
    for (const member of Object.values(withExtras)) {
      if (member && typeof member === "object" && !Array.isArray(member)) (member as Record<string, unknown>).innerExtra = 7;
    }
    const result = (schema as z.ZodType).safeParse(withExtras);
    expect(paths(result)).toEqual([]);
    expect(result.data).toEqual(withExtras);
  });

  it("takes any status string", () => {
    expect(s.pixChargeResponseSchema.parse({ ...f.pixChargeResponse, status: "SOMETHING_NEW" }).status).toBe("SOMETHING_NEW");
    expect(s.transactionRecordSchema.parse({ ...f.transactionRecord, status: "WAITING_FOR_BANK" }).status).toBe("WAITING_FOR_BANK");
  });

  it("enforces the required response fields", () => {
    const noFee = without(f.pixChargeResponse, "fee");
    expect(paths(s.pixChargeResponseSchema.safeParse(noFee))).toEqual(["fee"]);
    const noPix = without(f.pixChargeResponse, "pix");
    expect(paths(s.pixChargeResponseSchema.safeParse(noPix))).toEqual(["pix"]);
    const noBoleto = without(f.boletoChargeResponse, "boleto");
    expect(paths(s.boletoChargeResponseSchema.safeParse(noBoleto))).toEqual(["boleto"]);
    const noToken = without(f.transferResponse, "webhookToken");
    expect(paths(s.transferResponseSchema.safeParse(noToken))).toEqual(["webhookToken"]);
    const noMethod = without(f.transactionRecord, "paymentMethod");
    expect(paths(s.transactionRecordSchema.safeParse(noMethod))).toEqual(["paymentMethod"]);
    expect(paths(s.checkoutResponseSchema.safeParse({ success: true }))).toEqual(["checkoutUrl"]);
  });

  it("deposit has no fee, and its optional fields may be absent", () => {
    const minimal = { transactionId: "t", status: "OK", order: { id: "o" }, pix: { code: "c" } };
    expect(s.pixDepositResponseSchema.parse(minimal)).toEqual(minimal);
    expect("fee" in s.pixDepositResponseSchema.shape).toBe(false);
  });

  it("transaction record: nullable/optional exactly as the table says", () => {
    const minimal = { id: "t", clientIdentifier: "c", currency: "BRL", amount: 1, chargeAmount: 1, status: "OK", paymentMethod: "PIX" };
    expect(s.transactionRecordSchema.safeParse(minimal).success).toBe(true);
    for (const key of [
      "statusDescription",
      "details",
      "errorDescription",
      "webhookUrl",
      "availableAt",
      "refundedAt",
      "payedAt",
      "boletoInformation",
      "pixInformation",
    ]) {
      expect(s.transactionRecordSchema.safeParse({ ...minimal, [key]: null }).success, key).toBe(true);
    }
    for (const key of ["exchangeRate", "producerExtraAmount", "purchaseType", "createdAt", "pixMetadata"]) {
      expect(s.transactionRecordSchema.safeParse({ ...minimal, [key]: null }).success, key).toBe(false);
    }
    expect(s.transactionRecordSchema.safeParse({ ...minimal, amount: null }).success).toBe(false);
  });

  it("producer record without KYC omits document and address", () => {
    const producer = { name: "P", email: "p@example.com", phone: "(11) 99999-9999" };
    expect(s.producerRecordSchema.parse(producer)).toEqual(producer);
  });

  it("subscription responses are kept as any JSON object", () => {
    const body = { id: "sub_1", status: "ACTIVE", anything: { deep: [1] } };
    expect(s.subscriptionResponseSchema.parse(body)).toEqual(body);
    expect(s.subscriptionResponseSchema.safeParse([body]).success).toBe(false);
  });

  it("error body", () => {
    const body = { statusCode: 422, errorCode: "GATEWAY_INVALID_ARGUMENT", message: "Refund already requested" };
    expect(s.gatewayErrorBodySchema.parse(body)).toEqual(body);
  });
});

describe("payment webhook", () => {
  it("accepts each known event and unknown ones", () => {
    expect(s.WEBHOOK_EVENTS).toEqual([
      "TRANSACTION_CREATED",
      "TRANSACTION_PAID",
      "TRANSACTION_CANCELED",
      "TRANSACTION_REFUNDED",
      "TRANSACTION_CHARGED_BACK",
    ]);
    for (const event of [...s.WEBHOOK_EVENTS, "TRANSACTION_SOMETHING_NEW"]) {
      expect(s.paymentWebhookSchema.parse({ ...f.paymentWebhook, event }).event).toBe(event);
    }
    expect(s.isKnownWebhookEvent("TRANSACTION_PAID")).toBe(true);
    expect(s.isKnownWebhookEvent("TRANSACTION_SOMETHING_NEW")).toBe(false);
  });

  it("allows cnpj client (cpf null), and a minimal payload", () => {
    const payload = {
      event: "TRANSACTION_CREATED",
      token: "t",
      checkoutUrl: "",
      client: { id: "c", name: "Empresa", email: "e@example.com", phone: "1", cpf: null, cnpj: "11222333000181" },
      transaction: { id: "tx", status: "PENDING", paymentMethod: "PIX", amount: 10, currency: "BRL", createdAt: "2026-11-21T00:00:00Z" },
    };
    expect(s.paymentWebhookSchema.parse(payload)).toEqual(payload);
  });

  it("requires token, checkoutUrl, client and the transaction's required fields", () => {
    const noToken = without(f.paymentWebhook, "token");
    expect(paths(s.paymentWebhookSchema.safeParse(noToken))).toEqual(["token"]);
    const noCheckoutUrl = without(f.paymentWebhook, "checkoutUrl");
    expect(paths(s.paymentWebhookSchema.safeParse(noCheckoutUrl))).toEqual(["checkoutUrl"]);
    const txNoAmount = without(f.paymentWebhook.transaction, "amount");
    expect(paths(s.paymentWebhookSchema.safeParse({ ...f.paymentWebhook, transaction: txNoAmount }))).toEqual(["transaction.amount"]);
  });
});

describe("ENDPOINTS", () => {
  it("lists the 13 endpoints with method and path", () => {
    const table = Object.fromEntries(Object.entries(s.ENDPOINTS).map(([name, e]) => [name, `${e.method} ${e.path}`]));
    expect(table).toEqual({
      createPixCharge: "POST /api/v1/gateway/pix/receive",
      createCardCharge: "POST /api/v1/gateway/card/receive",
      createBoletoCharge: "POST /api/v1/gateway/boleto/receive",
      createCryptoCharge: "POST /api/v1/gateway/crypto/receive",
      createPixDeposit: "POST /api/v1/gateway/pix/deposit",
      createPixSubscription: "POST /api/v1/gateway/pix/subscription",
      createCardSubscription: "POST /api/v1/gateway/card/subscription",
      createCryptoSubscription: "POST /api/v1/gateway/crypto/subscription",
      createTransfer: "POST /api/v1/gateway/transfers",
      createCheckout: "POST /api/v1/gateway/checkout",
      requestRefund: "POST /api/v1/gateway/producer/refunds",
      getTransaction: "GET /api/v1/gateway/transactions",
      getProducer: "GET /api/v1/gateway/producer",
    });
  });

  it("every schema converts to JSON Schema (for the sandbox's OpenAPI)", () => {
    for (const [name, endpoint] of Object.entries(s.ENDPOINTS)) {
      const e = endpoint as s.EndpointDefinition;
      for (const schema of [e.request, e.query, e.response]) {
        if (!schema) continue;
        expect(() => z.toJSONSchema(schema, { io: "input" }), name).not.toThrow();
      }
    }
    const json = z.toJSONSchema(s.cardChargeRequestSchema, { io: "input" }) as { required: string[] };
    expect(json.required).toEqual(expect.arrayContaining(["identifier", "amount", "clientIp", "client", "card"]));
  });
});
