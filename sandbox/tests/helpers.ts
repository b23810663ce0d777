/* eslint-disable @typescript-eslint/no-explicit-any -- responses are inspected loosely; shapes are checked with the zod schemas */
import { createServer, type IncomingMessage } from "node:http";
import pg from "pg";
import type { AddressInfo } from "node:net";
import { createSandboxApp, sandboxContext, startSandbox, type RunningSandbox, type SandboxOptions } from "../app";
import { ProducerDirectory } from "../context";
import { createSandboxControl } from "../control-client";
import { openDatabase } from "../db/client";
import { seedProducers } from "../seed";
import { ensureOpeningBalances, openingBalanceCents } from "../domain/balance";
import { WebhookWorker } from "../webhooks/worker";

export const KEYS = {
  demo: { publicKey: "pk_sandbox_demo", secretKey: "sk_sandbox_demo", webhookToken: "wht_sandbox_demo" },
  company: { publicKey: "pk_sandbox_company", secretKey: "sk_sandbox_company", webhookToken: "wht_sandbox_company" },
  nokyc: { publicKey: "pk_sandbox_nokyc", secretKey: "sk_sandbox_nokyc", webhookToken: "wht_sandbox_nokyc" },
} as const;
export type Who = keyof typeof KEYS;

export const CLIENT = { name: "João da Silva", email: "joao@example.com", phone: "11987654321", document: "529.982.247-25" };
export const ADDRESS = {
  country: "BR",
  zipCode: "01310-100",
  state: "SP",
  city: "São Paulo",
  street: "Avenida Paulista",
  neighborhood: "Bela Vista",
  number: "1000",
};
export const CARD = { number: "4111111111111111", owner: "JOAO DA SILVA", expiresAt: "2031-12", cvv: "123" };

let seq = 0;
export const uid = (prefix = "id") => `${prefix}-${Date.now().toString(36)}-${(seq++).toString(36)}`;

export async function start(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ port: 0, dataDir: "memory://", webhookRetryMs: 20, quiet: true, ...opts });
}

export function api(sandbox: { url: string }, who: Who = "demo") {
  const keys = KEYS[who];
  const headers = { "x-public-key": keys.publicKey, "x-secret-key": keys.secretKey, "content-type": "application/json" };
  async function send(method: string, path: string, body?: unknown) {
    const res = await fetch(`${sandbox.url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {}
    return { status: res.status, headers: res.headers, json, text };
  }
  return {
    post: (path: string, body: unknown) => send("POST", `/api/v1/gateway${path}`, body),
    get: (path: string) => send("GET", `/api/v1/gateway${path}`),
    control: (method: string, path: string, body?: unknown) => send(method, `/sandbox/v1${path}`, body),
    controlClient: () => createSandboxControl({ baseUrl: sandbox.url, publicKey: keys.publicKey, secretKey: keys.secretKey }),
  };
}

/**
 * The sandbox app in-process (no socket), so a test can say which address the call comes from:
 * the routes read it from the Node request's socket, which `app.request` lets us supply.
 */
export async function startInProcess() {
  const opened = await openDatabase({ dataDir: "memory://" });
  await seedProducers(opened.db);
  await ensureOpeningBalances(opened.db, openingBalanceCents());
  const producers = new ProducerDirectory(opened.db);
  await producers.load();
  const log = { info: () => undefined, error: () => undefined };
  const worker = new WebhookWorker(opened.db, { retryBaseMs: 20, log });
  const app = createSandboxApp(sandboxContext(opened, { publicUrl: "http://sandbox.test", producers, worker, log }));
  return {
    async post(path: string, body: unknown, from: { remoteAddress: string }, who: Who = "demo") {
      const keys = KEYS[who];
      const res = await app.request(
        `/api/v1/gateway${path}`,
        {
          method: "POST",
          headers: { "x-public-key": keys.publicKey, "x-secret-key": keys.secretKey, "content-type": "application/json" },
          body: JSON.stringify(body),
        },
        { incoming: { socket: { remoteAddress: from.remoteAddress } } },
      );
      const text = await res.text();
      let json: any = null;
      try {
        json = JSON.parse(text);
      } catch {}
      return { status: res.status, json, text };
    },
    close: () => opened.close(),
  };
}

export type ReceivedWebhook = { body: any; headers: IncomingMessage["headers"]; at: number };

/** A local webhook receiver; `respond` decides the status code of each delivery. */
export async function startReceiver(respond: (n: number, body: any) => number = () => 200) {
  const received: ReceivedWebhook[] = [];
  let count = 0;
  const waiters: Array<() => void> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      count += 1;
      const status = respond(count, body);
      received.push({ body, headers: req.headers, at: Date.now() });
      res.writeHead(status, { "content-type": "application/json" }).end("{}");
      waiters.splice(0).forEach((w) => w());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    /** Resolves when `predicate` holds over the received list (or rejects after timeoutMs). */
    async waitFor(predicate: (all: ReceivedWebhook[]) => boolean, timeoutMs = 8000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline) throw new Error(`webhook wait timed out; got ${received.map((r) => r.body.event).join(", ")}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export async function eventually<T>(fn: () => Promise<T | undefined | false>, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const pixBody = (extra: Record<string, unknown> = {}) => ({ identifier: uid("pix"), amount: 10.5, client: CLIENT, ...extra });
export const cardBody = (extra: Record<string, unknown> = {}) => ({
  identifier: uid("card"),
  amount: 99.9,
  clientIp: "200.100.50.25",
  client: { ...CLIENT, address: ADDRESS },
  card: CARD,
  ...extra,
});
export const boletoBody = (extra: Record<string, unknown> = {}) => ({ identifier: uid("boleto"), amount: 150, client: CLIENT, ...extra });
export const cryptoBody = (extra: Record<string, unknown> = {}) => ({
  identifier: uid("crypto"),
  amount: 110,
  currency: "BRL",
  cryptoCurrency: "USDT",
  network: "POLYGON",
  client: CLIENT,
  ...extra,
});
export const transferBody = (extra: Record<string, unknown> = {}) => ({
  identifier: uid("tr"),
  amount: 50,
  callbackUrl: "http://127.0.0.1:9/transfers",
  pix: { type: "cpf", key: "52998224725" },
  owner: { ip: "200.1.2.3", name: "Joao da Silva", document: { type: "cpf", number: "52998224725" } },
  ...extra,
});
export const checkoutBody = (extra: Record<string, unknown> = {}) => ({
  product: {
    externalId: "prod-1",
    name: "Curso de Pix",
    photos: ["https://example.com/p.png"],
    offer: { name: "Oferta de lançamento", price: 197, offerType: "ONE_TIME", currency: "BRL", lang: "pt-BR" },
  },
  settings: { paymentMethods: ["PIX", "CREDIT_CARD", "BOLETO"], colors: { primary: "#ff0066" } },
  customer: { name: "Ana Lima", email: "ana@example.com", document: "12345678909" },
  ...extra,
});

export const PG_URL = process.env.SANDBOX_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** Runs `fn` with the URL of a fresh database `sandbox_test_*`, dropped afterwards. */
export async function withPostgresDatabase(fn: (url: string) => Promise<void>): Promise<void> {
  const dbName = `sandbox_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const url = new URL(PG_URL);
  url.pathname = `/${dbName}`;
  try {
    await fn(url.toString());
  } finally {
    // pg's Pool.end() resolves before its sockets are gone: let them close before dropping.
    for (let i = 0; i < 50; i++) {
      const { rows } = await admin.query("select count(*)::int as n from pg_stat_activity where datname = $1", [dbName]);
      if (rows[0].n === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
}
