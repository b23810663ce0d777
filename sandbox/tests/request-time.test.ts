/* eslint-disable @typescript-eslint/no-explicit-any -- responses are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../app";
import { api, boletoBody, cardBody, checkoutBody, eventually, KEYS, pixBody, start, startReceiver } from "./helpers";

let sandbox: RunningSandbox;
let demo: ReturnType<typeof api>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

const DAY = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** A call with the test tool's header (x-sandbox-at). */
async function dated(at: string, method: string, path: string, body?: unknown) {
  const keys = KEYS.demo;
  const res = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { "x-public-key": keys.publicKey, "x-secret-key": keys.secretKey, "content-type": "application/json", "x-sandbox-at": at },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
}

beforeAll(async () => {
  sandbox = await start();
  demo = api(sandbox);
  receiver = await startReceiver();
  await demo.control("PUT", "/settings", { webhookUrl: receiver.url });
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

describe("x-sandbox-at: a request dated in the past", () => {
  it("creates a Pix charge at that instant and pays it later at another, in lookups and webhooks", async () => {
    const createdAt = ago(30 * DAY);
    const payedAt = ago(30 * DAY - 7 * 60_000);
    const created = await dated(createdAt, "POST", "/api/v1/gateway/pix/receive", pixBody());
    expect(created.status).toBe(200);
    const id = created.json.transactionId;
    const paid = await dated(payedAt, "POST", `/sandbox/v1/transactions/${id}/events`, { type: "pay" });
    expect(paid.status).toBe(200);
    expect(paid.json).toMatchObject({ status: "COMPLETED", createdAt, payedAt });
    const record = (await demo.get(`/transactions?id=${id}`)).json;
    expect(record).toMatchObject({ createdAt, payedAt, availableAt: payedAt });
    const hooks = await receiver.waitFor((all) => all.filter((r) => r.body.transaction.id === id).length === 2);
    const mine = hooks.filter((r) => r.body.transaction.id === id).map((r) => r.body);
    expect(mine.map((b) => b.event)).toEqual(["TRANSACTION_CREATED", "TRANSACTION_PAID"]);
    expect(mine[0].transaction).toMatchObject({ createdAt, payedAt: null });
    expect(mine[1].transaction).toMatchObject({ createdAt, payedAt });
  });

  it("dates card outcomes, boletos (due date from that day) and refunds", async () => {
    const at = ago(60 * DAY);
    const card = await dated(at, "POST", "/api/v1/gateway/card/receive", cardBody());
    expect(card.json.status).toBe("OK");
    const refundAt = ago(50 * DAY);
    const refunded = await dated(refundAt, "POST", `/sandbox/v1/transactions/${card.json.transactionId}/events`, { type: "refund" });
    expect(refunded.json).toMatchObject({ status: "REFUNDED", createdAt: at, payedAt: at, refundedAt: refundAt });

    const boleto = await dated(at, "POST", "/api/v1/gateway/boleto/receive", boletoBody());
    expect(boleto.status).toBe(200);
    const record = (await demo.get(`/transactions?id=${boleto.json.transactionId}`)).json;
    expect(record.createdAt).toBe(at);
    expect(record.boletoInformation.dueDate).toBe(new Date(Date.parse(at) + 3 * DAY).toISOString().slice(0, 10));
  });

  it("refuses the future, more than 400 days back, a malformed instant, and an event before what it follows", async () => {
    const future = await dated(new Date(Date.now() + 60_000).toISOString(), "POST", "/api/v1/gateway/pix/receive", pixBody());
    expect(future.status).toBe(400);
    expect(future.json.message).toMatch(/x-sandbox-at: não pode estar no futuro/);
    expect((await dated(ago(401 * DAY), "POST", "/api/v1/gateway/pix/receive", pixBody())).status).toBe(400);
    const malformed = await dated("yesterday", "POST", "/api/v1/gateway/pix/receive", pixBody());
    expect(malformed.status).toBe(400);
    expect(malformed.json.message).toMatch(/ISO 8601/);

    const created = await dated(ago(10 * DAY), "POST", "/api/v1/gateway/pix/receive", pixBody());
    const early = await dated(ago(11 * DAY), "POST", `/sandbox/v1/transactions/${created.json.transactionId}/events`, { type: "pay" });
    expect(early.status).toBe(400);
    expect(early.json.message).toMatch(/não pode acontecer antes de/);
    expect((await demo.get(`/transactions?id=${created.json.transactionId}`)).json.status).toBe("PENDING");
    await dated(ago(9 * DAY), "POST", `/sandbox/v1/transactions/${created.json.transactionId}/events`, { type: "pay" });
    const backwards = await dated(ago(9 * DAY + 60_000), "POST", `/sandbox/v1/transactions/${created.json.transactionId}/events`, {
      type: "chargeback",
    });
    expect(backwards.status).toBe(400);
  });

  it("without the header, nothing changes: the real clock", async () => {
    const before = Date.now();
    const created = await demo.post("/pix/receive", pixBody());
    const record = (await demo.get(`/transactions?id=${created.json.transactionId}`)).json;
    expect(Date.parse(record.createdAt)).toBeGreaterThanOrEqual(before - 1000);
  });
});

describe("hosted checkout: a dated visit, and paying later", () => {
  async function checkoutSale(url: string, fields: Record<string, string>, at?: string) {
    const path = new URL(url).pathname;
    const res = await fetch(`${sandbox.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...(at ? { "x-sandbox-at": at } : {}) },
      body: new URLSearchParams({ name: "Ana Lima", email: "ana@example.com", document: "12345678909", ...fields }).toString(),
    });
    return { status: res.status, html: await res.text() };
  }

  it("leaves a Pix awaiting payment when asked, dated by the header, with its UTM values", async () => {
    const made = await demo.post("/checkout", checkoutBody());
    const visited = `${made.json.checkoutUrl}?utm_source=instagram&utm_medium=cpc&utm_campaign=black-friday`;
    const form = await (await fetch(visited.replace(sandbox.publicUrl, sandbox.url))).text();
    expect(form).toContain('name="awaitPayment"');
    const at = ago(5 * DAY);
    const sale = await checkoutSale(made.json.checkoutUrl, { method: "PIX", awaitPayment: "1", visitedUrl: visited }, at);
    expect(sale.status).toBe(200);
    expect(sale.html).toContain("Aguardando pagamento");
    const id = /<dd class="mono">([0-9a-f-]{36})<\/dd>/.exec(sale.html)![1];
    const record = (await demo.get(`/transactions?id=${id}`)).json;
    expect(record).toMatchObject({ status: "PENDING", createdAt: at, payedAt: null });
    const created = await receiver.waitFor((all) => all.some((r) => r.body.transaction.id === id));
    const hook = created.find((r) => r.body.transaction.id === id)!.body;
    expect(hook).toMatchObject({ event: "TRANSACTION_CREATED", checkoutUrl: visited, trackProps: { utm_source: "instagram" } });
    expect(hook.transaction.createdAt).toBe(at);
  });

  it("still pays at once by default (at the header's instant)", async () => {
    const made = await demo.post("/checkout", checkoutBody());
    const at = ago(2 * DAY);
    const sale = await checkoutSale(made.json.checkoutUrl, { method: "BOLETO" }, at);
    expect(sale.html).toContain("Pagamento aprovado");
    const id = /<dd class="mono">([0-9a-f-]{36})<\/dd>/.exec(sale.html)![1];
    expect((await demo.get(`/transactions?id=${id}`)).json).toMatchObject({ status: "COMPLETED", createdAt: at, payedAt: at });
  });
});

describe("deliveries summary", () => {
  it("counts the producer's notifications by delivery status", async () => {
    await receiver.waitFor(() => true);
    const summary = await eventually(async () => {
      const res = await demo.control("GET", "/deliveries/summary");
      return res.json.pending === 0 && res.json.delivered > 0 ? res.json : undefined;
    });
    expect(summary).toEqual({ pending: 0, delivered: expect.any(Number), failed: 0 });
    expect(summary.delivered).toBe(receiver.received.length);
  });
});
