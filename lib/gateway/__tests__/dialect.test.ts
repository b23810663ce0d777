import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "@/sandbox/app";
import { createGatewayClient } from "../client";
import { stateOf, transactionMachine } from "@/lib/status/machine";
import requests from "./dialect/requests.json";
import answers from "./dialect/answers.json";
import { json, startTestServer, type TestServer } from "./test-server";

/*
 * Request and answer shapes in the styles real integrations of this gateway family use (written
 * by us from the seed and those styles, in ./dialect), replayed against the sandbox and through
 * the console's client: both must speak the family's dialect, not only each other's.
 */
const KEYS = { "x-public-key": "pk_sandbox_demo", "x-secret-key": "sk_sandbox_demo" };
type RequestFixture = { name: string; method: "GET" | "POST"; path: string; body?: unknown; ignored?: string[] };

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dataDir: "memory://", webhookRetryMs: 50, quiet: true });
});
afterAll(async () => {
  await sandbox?.close();
});

describe("the sandbox answers requests written the way real integrations write them", () => {
  let previous = "";
  for (const fixture of requests as RequestFixture[]) {
    it(fixture.name, async () => {
      const id = `dialect-${randomUUID()}`;
      const fill = (text: string) =>
        text.replaceAll("{{id}}", id).replaceAll("{{previous}}", previous).replaceAll("{{now}}", String(Date.now()));
      const response = await fetch(`${sandbox.url}/api/v1/gateway${fill(fixture.path)}`, {
        method: fixture.method,
        headers: { ...KEYS, ...(fixture.body ? { "content-type": "application/json" } : {}) },
        body: fixture.body ? fill(JSON.stringify(fixture.body)) : undefined,
      });
      const answer = (await response.json()) as Record<string, unknown>;
      expect(response.status, JSON.stringify(answer)).toBeLessThan(300);
      if (fixture.ignored) expect(response.headers.get("x-sandbox-ignored-fields")?.split(",").sort()).toEqual([...fixture.ignored].sort());
      if (fixture.path === "/pix/receive") {
        // Created: OK in the creation answer, PENDING from then on until paid.
        expect(answer.status).toBe("OK");
        const lookup = await fetch(`${sandbox.url}/api/v1/gateway/transactions?id=${answer.transactionId}`, { headers: KEYS });
        expect(((await lookup.json()) as { status: string }).status).toBe("PENDING");
        previous = id;
      }
    });
  }

  it("names refusals in Portuguese with the English code beside", async () => {
    const response = await fetch(`${sandbox.url}/api/v1/gateway/producer/refunds`, {
      method: "POST",
      headers: { ...KEYS, "content-type": "application/json" },
      body: JSON.stringify({ transactionId: "tx_nope", reason: "x" }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ errorCode: "GATEWAY_NOT_FOUND", message: expect.stringContaining("não encontrada") });
  });
});

describe("the console's client reads answers written the way real gateways write them", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  for (const fixture of answers) {
    it(fixture.name, async () => {
      server.setHandler(json(200, fixture.body));
      const client = createGatewayClient({ baseUrl: server.url, publicKey: "pk", secretKey: "sk" });
      const answer =
        fixture.call === "getTransaction"
          ? await client.getTransaction({ id: "tx_1" })
          : await client.createPixCharge({
              identifier: "pix-1",
              amount: 10,
              client: { name: "M", email: "m@example.com", phone: "11987654321", document: "52998224725" },
            });
      const record = answer as Record<string, unknown>;
      for (const [key, value] of Object.entries(fixture.body)) {
        // Numbers sent as strings are read as numbers; every other field is kept as sent.
        if (typeof value === "string" && /^\d+(\.\d+)?$/.test(value) && typeof record[key] === "number")
          expect(record[key]).toBe(Number(value));
        else expect(record[key]).toEqual(value);
      }
      const status = record.status as string;
      // Whatever the spelling, an unpaid charge is awaiting and a paid one is paid.
      expect(stateOf(transactionMachine, status)).toBe(status === "PAID" ? "paid" : "awaiting");
    });
  }
});

describe("the sandbox's hosted checkout refuses what no real offer can be", () => {
  const checkout = (offer: Record<string, unknown>, settings: Record<string, unknown> = {}, customer?: Record<string, unknown>) =>
    fetch(`${sandbox.url}/api/v1/gateway/checkout`, {
      method: "POST",
      headers: { ...KEYS, "content-type": "application/json" },
      body: JSON.stringify({
        product: {
          externalId: `co-${randomUUID()}`,
          name: "Ebook",
          offer: { name: "Oferta", offerType: "ONCE", currency: "BRL", lang: "pt-BR", ...offer },
        },
        settings,
        ...(customer ? { customer } : {}),
      }),
    });
  it.each([
    ["a price of 1e-9", { price: 1e-9 }, {}],
    ["a price of 1.005", { price: 1.005 }, {}],
    ["a price of 1e15", { price: 1e15 }, {}],
    ["no payment method", { price: 10 }, { paymentMethods: [] }],
  ])("%s", async (_name, offer, settings) => {
    expect((await checkout(offer, settings)).status).toBe(400);
  });
  it("an invalid customer e-mail", async () => {
    expect((await checkout({ price: 10 }, {}, { email: "not-an-email" })).status).toBe(400);
    expect((await checkout({ price: 10 }, {}, { email: "maria@example.com" })).status).toBeLessThan(300);
  });
});
