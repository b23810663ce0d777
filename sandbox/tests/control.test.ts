import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayErrorBodySchema } from "../../lib/gateway/schemas/common";
import { transactionRecordSchema } from "../../lib/gateway/schemas/transactions";
import { paymentWebhookSchema } from "../../lib/gateway/schemas/webhooks";
import type { RunningSandbox } from "../app";
import { SandboxControlError } from "../control-client";
import { api, boletoBody, cardBody, checkoutBody, eventually, KEYS, pixBody, start, startReceiver, transferBody, uid } from "./helpers";

let sandbox: RunningSandbox;
let demo: ReturnType<typeof api>;

beforeAll(async () => {
  sandbox = await start();
  demo = api(sandbox);
});
afterAll(() => sandbox.close());

describe("transitions", () => {
  it("pays a Pix charge and sends TRANSACTION_CREATED then TRANSACTION_PAID with every payload field", async () => {
    const receiver = await startReceiver();
    try {
      const created = await demo.post(
        "/pix/receive",
        pixBody({ callbackUrl: receiver.url, products: [{ id: "p1", name: "Livro", price: 10.5, quantity: 1 }] }),
      );
      const id = created.json.transactionId;
      const record = await demo.controlClient().event(id, "pay");
      expect(transactionRecordSchema.parse(record)).toMatchObject({ id, status: "COMPLETED" });
      expect(record.payedAt).toBeTruthy();
      const hooks = await receiver.waitFor((all) => all.length >= 2);
      expect(hooks.map((h) => h.body.event)).toEqual(["TRANSACTION_CREATED", "TRANSACTION_PAID"]);
      const paid = paymentWebhookSchema.parse(hooks[1].body);
      expect(paid.token).toBe(KEYS.demo.webhookToken);
      expect(paid.checkoutUrl).toBe("");
      expect(paid.offerCode).toBeNull();
      expect(paid.subscription).toBeNull();
      expect(paid.client).toMatchObject({ name: "João da Silva", cpf: "52998224725", cnpj: null });
      expect(Object.keys(paid.client.address!)).toEqual(
        expect.arrayContaining(["country", "zipCode", "state", "city", "neighborhood", "street", "number", "complement"]),
      );
      expect(paid.transaction).toMatchObject({
        id,
        status: "COMPLETED",
        paymentMethod: "PIX",
        amount: 10.5,
        currency: "BRL",
        installments: 1,
      });
      for (const key of [
        "identifier",
        "originalCurrency",
        "originalAmount",
        "commissionAmount",
        "exchangeRate",
        "createdAt",
        "payedAt",
        "pixInformation",
        "boletoInformation",
      ]) {
        expect(paid.transaction, key).toHaveProperty(key);
      }
      expect(paid.transaction.pixInformation?.endToEndId).toMatch(/^E\d{8}\d{12}[A-Z0-9]{11}$/);
      expect(paid.orderItems).toEqual([
        expect.objectContaining({ price: 10.5, product: expect.objectContaining({ id: "p1", name: "Livro" }) }),
      ]);
      expect(paid.trackProps).toHaveProperty("isUpsell", false);
    } finally {
      await receiver.close();
    }
  });

  it("pays concurrent calls together: each gets its own answer, one payment and one TRANSACTION_PAID per charge", async () => {
    const receiver = await startReceiver();
    try {
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push((await demo.post("/pix/receive", pixBody({ callbackUrl: receiver.url }))).json.transactionId);
      const other = (await api(sandbox, "company").post("/pix/receive", pixBody())).json.transactionId;
      // Twelve payments, the first paid twice at once, an unknown id and another producer's charge, all in one tick.
      const calls = await Promise.all([
        ...ids.map((id) => demo.control("POST", `/transactions/${id}/events`, { type: "pay" })),
        demo.control("POST", `/transactions/${ids[0]}/events`, { type: "pay" }),
        demo.control("POST", `/transactions/tx_nobody/events`, { type: "pay" }),
        demo.control("POST", `/transactions/${other}/events`, { type: "pay" }),
      ]);
      const statuses = calls.map((c) => c.status);
      expect(statuses.slice(0, 12).filter((s) => s === 200).length + (statuses[12] === 200 ? 1 : 0)).toBe(12);
      expect([statuses[0], statuses[12]].sort()).toEqual([200, 409]);
      expect(statuses.slice(13)).toEqual([404, 404]);
      for (const call of calls.slice(0, 13).filter((c) => c.status === 200)) {
        expect(call.json).toMatchObject({ status: "COMPLETED" });
        expect(call.json.payedAt).toBeTruthy();
        expect(call.json.availableAt).toBe(call.json.payedAt);
      }
      const hooks = await receiver.waitFor((all) => all.filter((h) => h.body.event === "TRANSACTION_PAID").length >= 12);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const paid = hooks.filter((h) => h.body.event === "TRANSACTION_PAID").map((h) => h.body.transaction.id);
      expect(paid.sort()).toEqual([...ids].sort());
      for (const id of ids) {
        const events = hooks.filter((h) => h.body.transaction.id === id).map((h) => h.body.event);
        expect(events).toEqual(["TRANSACTION_CREATED", "TRANSACTION_PAID"]);
        expect(
          hooks.find((h) => h.body.transaction.id === id && h.body.event === "TRANSACTION_PAID")!.body.transaction.pixInformation
            .endToEndId,
        ).toBeTruthy();
      }
    } finally {
      await receiver.close();
    }
  });

  it("refuses moves the table does not allow with 409 and the error body", async () => {
    const created = await demo.post("/pix/receive", pixBody());
    const id = created.json.transactionId;
    const refund = await demo.control("POST", `/transactions/${id}/events`, { type: "refund" });
    expect(refund.status).toBe(409);
    expect(gatewayErrorBodySchema.parse(refund.json).message).toMatch(/COMPLETED/);
    await demo.controlClient().event(id, "cancel");
    await expect(demo.controlClient().event(id, "pay")).rejects.toMatchObject({ status: 409 });
    const bad = await demo.control("POST", `/transactions/${id}/events`, { type: "explode" });
    expect(bad.status).toBe(400);
  });

  it("fails a boleto with an errorDescription and a TRANSACTION_CANCELED webhook", async () => {
    const receiver = await startReceiver();
    try {
      const created = await demo.post("/boleto/receive", boletoBody({ callbackUrl: receiver.url }));
      const record = await demo.controlClient().event(created.json.transactionId, "fail");
      expect(record).toMatchObject({ status: "FAILED" });
      expect(record.errorDescription).toBeTruthy();
      const hooks = await receiver.waitFor((all) => all.some((h) => h.body.event === "TRANSACTION_CANCELED"));
      expect(hooks.find((h) => h.body.event === "TRANSACTION_CANCELED")!.body.transaction.status).toBe("FAILED");
    } finally {
      await receiver.close();
    }
  });

  it("card approval sends TRANSACTION_PAID with status COMPLETED; chargeback and refund events follow the table", async () => {
    const receiver = await startReceiver();
    try {
      const card = await demo.post("/card/receive", cardBody({ callbackUrl: receiver.url, installments: 3 }));
      expect(card.json.status).toBe("OK");
      const [paid] = await receiver.waitFor((all) => all.length >= 1);
      expect(paid.body).toMatchObject({
        event: "TRANSACTION_PAID",
        transaction: { status: "COMPLETED", paymentMethod: "CREDIT_CARD", installments: 3 },
      });
      expect(JSON.stringify(paid.body)).not.toContain("4111111111111111");
      const record = await demo.controlClient().event(card.json.transactionId, "chargeback");
      expect(record.status).toBe("CHARGED_BACK");
      await receiver.waitFor((all) => all.some((h) => h.body.event === "TRANSACTION_CHARGED_BACK"));
    } finally {
      await receiver.close();
    }
  });

  it("approves a refund request: transaction REFUNDED and TRANSACTION_REFUNDED sent", async () => {
    const receiver = await startReceiver();
    try {
      const card = await demo.post("/card/receive", cardBody({ callbackUrl: receiver.url }));
      const refund = await demo.post("/producer/refunds", { transactionId: card.json.transactionId, reason: "r" });
      const approved = await demo.controlClient().approveRefund(refund.json.id);
      expect(approved.status).toBe("APPROVED");
      expect((await demo.get(`/transactions?id=${card.json.transactionId}`)).json).toMatchObject({ status: "REFUNDED" });
      expect((await demo.get(`/transactions?id=${card.json.transactionId}`)).json.refundedAt).toBeTruthy();
      await receiver.waitFor((all) => all.some((h) => h.body.event === "TRANSACTION_REFUNDED"));
      await expect(demo.controlClient().rejectRefund(refund.json.id)).rejects.toBeInstanceOf(SandboxControlError);

      const other = await demo.post("/card/receive", cardBody());
      const r2 = await demo.post("/producer/refunds", { transactionId: other.json.transactionId, reason: "r" });
      expect((await demo.controlClient().rejectRefund(r2.json.id)).status).toBe("REJECTED");
      expect((await demo.get(`/transactions?id=${other.json.transactionId}`)).json.status).toBe("COMPLETED");
    } finally {
      await receiver.close();
    }
  });

  it("notify re-sends a webhook for the current state without moving it", async () => {
    const receiver = await startReceiver();
    try {
      const created = await demo.post("/pix/receive", pixBody({ callbackUrl: receiver.url }));
      await demo.controlClient().notify(created.json.transactionId, "TRANSACTION_REFUNDED");
      const hooks = await receiver.waitFor((all) => all.some((h) => h.body.event === "TRANSACTION_REFUNDED"));
      expect(hooks.find((h) => h.body.event === "TRANSACTION_REFUNDED")!.body.transaction.status).toBe("PENDING");
      expect((await demo.get(`/transactions?id=${created.json.transactionId}`)).json.status).toBe("PENDING");
    } finally {
      await receiver.close();
    }
  });

  it("status (a test tool) makes a transaction report any status, with no webhook; notify with url sends it elsewhere", async () => {
    const receiver = await startReceiver();
    const elsewhere = await startReceiver();
    try {
      const created = await demo.post("/pix/receive", pixBody({ callbackUrl: receiver.url }));
      const id = created.json.transactionId;
      await receiver.waitFor((all) => all.some((h) => h.body.event === "TRANSACTION_CREATED"));
      expect((await demo.controlClient().setStatus(id, "EM_ANALISE")).status).toBe("EM_ANALISE");
      expect((await demo.get(`/transactions?id=${id}`)).json.status).toBe("EM_ANALISE");
      await expect(demo.controlClient().setStatus(id, "em análise")).rejects.toMatchObject({ status: 400 });
      await expect(demo.controlClient().setStatus("tx_nobody", "EM_ANALISE")).rejects.toMatchObject({ status: 404 });
      // The transition table does not know the status: no move starts from it.
      await expect(demo.controlClient().event(id, "pay")).rejects.toMatchObject({ status: 409 });

      await demo.controlClient().notify(id, "TRANSACTION_CREATED", elsewhere.url);
      const [hook] = await elsewhere.waitFor((all) => all.length > 0);
      expect(hook!.body).toMatchObject({ event: "TRANSACTION_CREATED", transaction: { id, status: "EM_ANALISE" } });
      expect(receiver.received.filter((h) => h.body.transaction?.status === "EM_ANALISE")).toEqual([]);
    } finally {
      await receiver.close();
      await elsewhere.close();
    }
  });
});

describe("webhook outbox", () => {
  it("retries with backoff: first attempt 500, second 200, both recorded", async () => {
    const receiver = await startReceiver((n) => (n === 1 ? 500 : 200));
    try {
      const created = await demo.post("/pix/receive", pixBody({ callbackUrl: receiver.url }));
      await receiver.waitFor((all) => all.length >= 2);
      expect(receiver.received[1].at - receiver.received[0].at).toBeGreaterThanOrEqual(15);
      const control = demo.controlClient();
      const [delivery] = await eventually(async () => {
        const d = await control.deliveries({ transactionId: created.json.transactionId });
        return d.length === 1 && d[0].status === "DELIVERED" ? d : undefined;
      });
      expect(delivery).toMatchObject({
        event: "TRANSACTION_CREATED",
        url: receiver.url,
        attempts: 2,
        lastStatusCode: 200,
        lastError: null,
      });
      expect(delivery.attemptLog.map((a) => a.statusCode)).toEqual([500, 200]);
      expect(delivery.attemptLog[0].error).toMatch(/500/);
    } finally {
      await receiver.close();
    }
  });

  it("records connection errors and gives up after the maximum attempts", async () => {
    const created = await demo.post("/pix/receive", pixBody({ callbackUrl: "http://127.0.0.1:9/unreachable" }));
    const control = demo.controlClient();
    const [delivery] = await eventually(async () => {
      const d = await control.deliveries({ transactionId: created.json.transactionId });
      return d[0]?.status === "FAILED" ? d : undefined;
    }, 20_000);
    expect(delivery.attempts).toBe(8);
    expect(delivery.attemptLog).toHaveLength(8);
    expect(delivery.lastError).toBeTruthy();
    const starts = delivery.attemptLog.map((a) => Date.parse(a.startedAt));
    // Exponential backoff: the last gap is clearly longer than the first.
    expect(starts[7] - starts[6]).toBeGreaterThan(starts[1] - starts[0]);
  }, 30_000);

  it("uses the producer's default webhook URL when a charge has no callbackUrl", async () => {
    const receiver = await startReceiver();
    const company = api(sandbox, "company");
    const control = company.controlClient();
    try {
      expect(await control.setWebhookUrl(receiver.url)).toMatchObject({ webhookUrl: receiver.url });
      expect(await control.settings()).toMatchObject({ webhookUrl: receiver.url });
      const created = await company.post("/pix/receive", pixBody());
      const [hook] = await receiver.waitFor((all) => all.length >= 1);
      expect(hook.body).toMatchObject({
        event: "TRANSACTION_CREATED",
        token: KEYS.company.webhookToken,
        transaction: { id: created.json.transactionId },
      });
    } finally {
      await control.setWebhookUrl(null);
      await receiver.close();
    }
  });
});

describe("withdraws", () => {
  it("completes and fails withdraws, notifying the transfer's callbackUrl with its own token", async () => {
    const receiver = await startReceiver();
    try {
      const control = demo.controlClient();
      const a = await demo.post("/transfers", transferBody({ callbackUrl: receiver.url }));
      const b = await demo.post("/transfers", transferBody({ callbackUrl: receiver.url }));
      expect((await control.completeWithdraw(a.json.withdraw.id)).withdraw.status).toBe("COMPLETED");
      expect((await control.failWithdraw(b.json.withdraw.id)).withdraw.status).toBe("FAILED");
      const hooks = await receiver.waitFor((all) => all.length >= 2);
      const completed = hooks.find((h) => h.body.event === "WITHDRAW_COMPLETED")!.body;
      const failed = hooks.find((h) => h.body.event === "WITHDRAW_FAILED")!.body;
      expect(completed).toMatchObject({
        token: a.json.webhookToken,
        identifier: a.json.withdraw ? expect.any(String) : "",
        withdraw: { id: a.json.withdraw.id, status: "COMPLETED" },
        payoutAccount: { status: "ACTIVE" },
      });
      expect(failed).toMatchObject({ token: b.json.webhookToken, withdraw: { status: "FAILED" } });
      await expect(control.completeWithdraw(a.json.withdraw.id)).rejects.toMatchObject({ status: 409 });
      await expect(api(sandbox, "company").controlClient().completeWithdraw(b.json.withdraw.id)).rejects.toMatchObject({ status: 404 });
    } finally {
      await receiver.close();
    }
  });
});

describe("faults", () => {
  it("status faults answer the error without processing (429 with Retry-After)", async () => {
    const control = demo.controlClient();
    await control.fault({ status: 429, times: 1 });
    const body = pixBody();
    const limited = await demo.post("/pix/receive", body);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(gatewayErrorBodySchema.parse(limited.json).statusCode).toBe(429);
    expect((await demo.get(`/transactions?clientIdentifier=${body.identifier}`)).status).toBe(404);
    await control.fault({ status: 503, times: 2 });
    expect((await demo.post("/pix/receive", body)).status).toBe(503);
    expect((await demo.get("/producer")).status).toBe(503);
    expect((await demo.post("/pix/receive", body)).status).toBe(200);
  });

  it("latency delays the response after processing", async () => {
    await demo.controlClient().fault({ latencyMs: 300, times: 1 });
    const started = Date.now();
    const res = await demo.post("/pix/receive", pixBody());
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });

  it("dropConnection processes the charge, then drops the socket; a lookup finds exactly one", async () => {
    await demo.controlClient().fault({ dropConnection: true, times: 1 });
    const body = pixBody();
    await expect(demo.post("/pix/receive", body)).rejects.toThrow();
    const lookup = await demo.get(`/transactions?clientIdentifier=${body.identifier}`);
    expect(lookup.status).toBe(200);
    const retry = await demo.post("/pix/receive", body);
    expect(retry.json.transactionId).toBe(lookup.json.id);
  });

  it("malformedBody processes and answers 200 with a non-JSON body", async () => {
    await demo.controlClient().fault({ malformedBody: true, times: 1 });
    const body = pixBody();
    const res = await demo.post("/pix/receive", body);
    expect(res.status).toBe(200);
    expect(() => JSON.parse(res.text)).toThrow();
    expect((await demo.get(`/transactions?clientIdentifier=${body.identifier}`)).status).toBe(200);
  });

  it("a fault for one identifier leaves every other call alone", async () => {
    const target = pixBody();
    const bystander = pixBody();
    await demo.controlClient().fault({ status: 503, times: 1, identifier: target.identifier });
    expect((await demo.post("/pix/receive", bystander)).status).toBe(200);
    expect((await demo.get("/producer")).status).toBe(200);
    expect((await demo.post("/pix/receive", target)).status).toBe(503);
    expect((await demo.post("/pix/receive", target)).status).toBe(200);

    await demo.controlClient().fault({ dropConnection: true, times: 1, identifier: target.identifier });
    expect((await demo.get(`/transactions?clientIdentifier=${bystander.identifier}`)).status).toBe(200);
    await expect(demo.get(`/transactions?clientIdentifier=${target.identifier}`)).rejects.toThrow();
  });

  it("faults are per producer and can be cleared", async () => {
    const control = demo.controlClient();
    await control.fault({ status: 500, times: 5 });
    expect((await api(sandbox, "company").get("/producer")).status).toBe(200);
    expect((await demo.control("GET", "/faults")).json.faults).toEqual([{ status: 500, remaining: 5 }]);
    await control.clearFaults();
    expect((await demo.control("GET", "/faults")).json.faults).toEqual([]);
    expect((await demo.get("/producer")).status).toBe(200);
    expect((await demo.control("POST", "/faults", { times: 1 })).status).toBe(400);
    expect((await demo.control("POST", "/faults", { status: 418, times: 1 })).status).toBe(400);
  });
});

describe("lookup limits and counter", () => {
  it("answers lookups above the rate 429 with Retry-After, counts every lookup per second, per producer", async () => {
    const company = api(sandbox, "company");
    const control = company.controlClient();
    const body = pixBody();
    expect((await company.post("/pix/receive", body)).status).toBe(200);
    await control.resetLookupStats();
    expect(await control.setLookupLimits({ ratePerSecond: 3 })).toMatchObject({
      limits: { ratePerSecond: 3, rateLimitedFraction: 0, retryAfterSeconds: null },
      total: 0,
    });
    const answers = await Promise.all(Array.from({ length: 8 }, () => company.get(`/transactions?clientIdentifier=${body.identifier}`)));
    const limited = answers.filter((a) => a.status === 429);
    // 8 at once usually land in one second (3 answered); across a second boundary up to 6.
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(3);
    expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(6);
    for (const answer of limited) {
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(gatewayErrorBodySchema.parse(answer.json).statusCode).toBe(429);
    }
    const stats = await control.lookupStats();
    expect(stats).toMatchObject({ total: 8, rateLimited: limited.length });
    expect(stats.perSecond.reduce((sum, s) => sum + s.lookups, 0)).toBe(8);
    expect(stats.maxPerSecond).toBe(Math.max(...stats.perSecond.map((s) => s.lookups)));
    // Other calls are neither counted nor limited; another producer has its own counter.
    expect((await company.post("/pix/receive", pixBody())).status).toBe(200);
    expect((await demo.controlClient().lookupStats()).limits.ratePerSecond).toBeNull();

    // Every lookup 429 (fraction 1) with a fixed Retry-After; then none.
    await control.setLookupLimits({ ratePerSecond: null, rateLimitedFraction: 1, retryAfterSeconds: 7 });
    const always = await company.get(`/transactions?clientIdentifier=${body.identifier}`);
    expect(always.status).toBe(429);
    expect(always.headers.get("retry-after")).toBe("7");
    await control.setLookupLimits({ rateLimitedFraction: 0, retryAfterSeconds: null });
    expect((await company.get(`/transactions?clientIdentifier=${body.identifier}`)).status).toBe(200);
    expect((await control.resetLookupStats()).total).toBe(0);
    expect((await company.control("PUT", "/lookups", { rateLimitedFraction: 2 })).status).toBe(400);
  });
});

describe("clock and subscriptions", () => {
  it("charges due subscriptions when the clock advances, with the subscription object in webhooks", async () => {
    const receiver = await startReceiver();
    const nokyc = api(sandbox, "nokyc");
    try {
      const created = await nokyc.post("/card/subscription", {
        identifier: uid("sub"),
        amount: 19.9,
        client: { name: "Ana", email: "ana@example.com", phone: "11987654321", document: "12345678909" },
        clientIp: "200.1.2.3",
        card: { number: "4111111111111111", owner: "ANA", expiresAt: "2035-01", cvv: "123" },
        product: { id: "plan", name: "Plano", price: 19.9 },
        subscription: { periodicityType: "DAYS", periodicity: 10 },
        callbackUrl: receiver.url,
      });
      expect(created.status).toBe(200);
      await receiver.waitFor((all) => all.length >= 1);
      const control = nokyc.controlClient();
      expect((await control.advanceClock(5)).charges).toHaveLength(0);
      const advanced = await control.advanceClock(16);
      expect(advanced.charges.map((c) => c.chargeNumber)).toEqual([2, 3]);
      expect(advanced.charges.every((c) => c.status === "COMPLETED")).toBe(true);
      const hooks = await receiver.waitFor((all) => all.length >= 3);
      const third = hooks.find((h) => h.body.subscription?.chargeNumber === 3)!.body;
      expect(third).toMatchObject({
        event: "TRANSACTION_PAID",
        subscription: { id: created.json.subscriptionId, identifier: created.json.identifier },
      });
      const lookup = await nokyc.get(`/transactions?clientIdentifier=${created.json.identifier}-3`);
      expect(lookup.json).toMatchObject({ status: "COMPLETED", purchaseType: "SUBSCRIPTION" });
      expect(Date.parse((await control.clock()).now) - Date.now()).toBeGreaterThan(20 * 86_400_000);
    } finally {
      await receiver.close();
    }
  });
});

describe("hosted checkout sale", () => {
  it("a checkout payment creates a paid transaction and sends webhooks with checkoutUrl and offerCode", async () => {
    const receiver = await startReceiver();
    const control = demo.controlClient();
    try {
      await control.setWebhookUrl(receiver.url);
      const created = await demo.post("/checkout", checkoutBody());
      const visited = `${created.json.checkoutUrl}?utm_source=newsletter`;
      const page = await fetch(visited.replace(sandbox.publicUrl, sandbox.url));
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain("Curso de Pix");
      expect(html).toContain("#ff0066");
      expect(html).toContain('value="Ana Lima"');
      const checkoutId = created.json.checkoutUrl.split("/").pop();
      const form = new URLSearchParams({
        visitedUrl: visited,
        name: "Ana Lima",
        email: "ana@example.com",
        document: "123.456.789-09",
        method: "PIX",
      });
      const sale = await fetch(`${sandbox.url}/checkout/${checkoutId}`, { method: "POST", body: form });
      expect(sale.status).toBe(200);
      expect(await sale.text()).toContain("Pagamento aprovado");
      const hooks = await receiver.waitFor((all) => all.some((h) => h.body.event === "TRANSACTION_PAID"));
      const paid = hooks.find((h) => h.body.event === "TRANSACTION_PAID")!.body;
      expect(paid.checkoutUrl).toBe(visited);
      expect(paid.offerCode).toMatch(/^off_/);
      expect(paid.transaction.identifier).toBe(`checkout-${checkoutId}-1`);
      expect(paid.trackProps.utm_source).toBe("newsletter");
      expect((await demo.get(`/transactions?clientIdentifier=checkout-${checkoutId}-1`)).json.status).toBe("COMPLETED");

      const invalid = await fetch(`${sandbox.url}/checkout/${checkoutId}`, {
        method: "POST",
        body: new URLSearchParams({ name: "Ana", email: "ana@example.com", document: "111", method: "PIX" }),
      });
      expect(invalid.status).toBe(400);
      expect(await invalid.text()).toContain("Informe um CPF válido");
    } finally {
      await control.setWebhookUrl(null);
      await receiver.close();
    }
  });
});
