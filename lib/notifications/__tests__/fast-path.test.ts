import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/db/client";
import { gatewayNotifications, webhookRejections } from "@/lib/db/schema";
import { testDatabases, useDatabase, type TestDatabase } from "@/lib/testing/databases";
import { MAX_WEBHOOK_BYTES } from "@/lib/notifications/ingest";

process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");
process.env.WEBHOOK_APPLIER = "off";

const TOKEN = "wht_fast_path_5b1d03e2";
const targets = await testDatabases();
const { markConsoleReady: ready, serveWebhook } = await import("@/lib/notifications/fast-path");
const { handleWebhookRequest } = await import("@/lib/notifications/http");

function paidBody(txId: string, token = TOKEN): string {
  return JSON.stringify({
    event: "TRANSACTION_PAID",
    token,
    offerCode: null,
    checkoutUrl: "",
    client: { id: "cli_1", name: "Maria Souza", email: "maria@example.com", cpf: "529.982.247-25", cnpj: null },
    transaction: {
      id: txId,
      identifier: `pix-${txId.slice(-8)}`,
      status: "COMPLETED",
      paymentMethod: "PIX",
      amount: 50,
      commissionAmount: 49.5,
      currency: "BRL",
      createdAt: "2026-11-20T12:00:00.000Z",
      payedAt: "2026-11-20T12:05:00.000Z",
    },
  });
}

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** A raw HTTP exchange (node:http, so a chunked body and the answer's own headers are as sent). */
function exchange(
  port: number,
  {
    method = "POST",
    path,
    headers = {},
    chunks = [] as string[],
  }: { method?: string; path: string; headers?: Record<string, string>; chunks?: string[] },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, method, path, headers, agent: false }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on("error", reject);
    for (const chunk of chunks) request.write(chunk);
    request.end();
  });
}

describe.each(targets)("the receiver's fast path (before Next.js) on $name", (target: TestDatabase) => {
  let accountId: string;
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    await closeDb();
    useDatabase(target);
    const { createAccount } = await import("@/lib/accounts/queries");
    accountId = (
      await createAccount(
        { name: "Loja", baseUrl: "http://127.0.0.1:9", publicKey: "pk", secretKey: "sk_1234567890", webhookToken: TOKEN, mode: "test" },
        null,
      )
    ).id;
    // As in `npm start`'s web server: what the fast path does not take goes on to Next.js (here a 299).
    server = http.createServer((request, response) => {
      // What scripts/run/client-address-hook.mjs does first, with no proxy trusted.
      request.headers["x-forwarded-for"] = request.socket.remoteAddress;
      if (serveWebhook(request, response)) return;
      response.writeHead(299).end("next");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    ready(false);
    await new Promise((resolve) => server.close(resolve));
    const { stopFeedListener } = await import("@/lib/feed/bus");
    await stopFeedListener();
    await closeDb();
    await target.drop();
  });

  const json = { "content-type": "application/json" };

  it("leaves every delivery to Next.js until the console is ready", async () => {
    ready(false);
    const answer = await exchange(port, { path: `/api/webhooks/${accountId}`, headers: json, chunks: [paidBody(`tx_${randomUUID()}`)] });
    expect(answer).toMatchObject({ status: 299, body: "next" });
  });

  it("stores a delivery and counts its retry on the same row, with the caller's address", async () => {
    ready(true);
    const txId = `tx_${randomUUID()}`;
    const first = await exchange(port, { path: `/api/webhooks/${accountId}`, headers: json, chunks: [paidBody(txId)] });
    expect(first.status).toBe(200);
    const { id, received } = JSON.parse(first.body) as { id: string; received: boolean };
    expect(received).toBe(true);
    const again = await exchange(port, { path: `/api/webhooks/${accountId}?retry=1`, headers: json, chunks: [paidBody(txId)] });
    expect(JSON.parse(again.body)).toMatchObject({ id, deliveries: 2 });
    const [row] = await (await getDb()).select().from(gatewayNotifications).where(eq(gatewayNotifications.id, id));
    expect(row).toMatchObject({ gatewayTransactionId: txId, deliveries: 2, sourceIp: "127.0.0.1", applyState: "pending" });
    expect(JSON.stringify(row.payload)).not.toContain(TOKEN);
  });

  it("answers what the route handler answers, with the same headers", async () => {
    ready(true);
    const cases: { account: string; body: string }[] = [
      { account: accountId, body: paidBody(`tx_${randomUUID()}`, "wht_wrong_token_000") },
      { account: accountId, body: "{not json" },
      { account: accountId, body: `{"event":"TRANSACTION_PAID","token":"${TOKEN}",\u0001}` },
      { account: accountId, body: JSON.stringify({ event: "SOMETHING_NEW", token: TOKEN, data: { id: randomUUID() } }) },
      { account: "no_such_account_1234", body: paidBody(`tx_${randomUUID()}`) },
    ];
    for (const { account, body } of cases) {
      const fast = await exchange(port, { path: `/api/webhooks/${account}`, headers: json, chunks: [body] });
      const route = await handleWebhookRequest(
        new Request(`http://console.test/api/webhooks/${account}`, { method: "POST", body }),
        account,
      );
      const routeBody = (await route.json()) as Record<string, unknown>;
      expect(fast.status).toBe(route.status);
      const fastBody = JSON.parse(fast.body) as Record<string, unknown>;
      // The same body twice is one stored event delivered twice; everything else is the same.
      expect({ ...fastBody, deliveries: undefined }).toEqual({ ...routeBody, deliveries: undefined });
      for (const name of ["content-type", "cache-control", "x-content-type-options"])
        expect(fast.headers[name]).toBe(route.headers.get(name));
    }
  });

  it("refuses a body over the limit, declared or chunked, without reading on, and records the refusal", async () => {
    ready(true);
    const tooLargeRejections = async () =>
      (await getDb())
        .select()
        .from(webhookRejections)
        .where(and(eq(webhookRejections.accountId, accountId), eq(webhookRejections.reason, "too_large")));
    const before = await tooLargeRejections();
    const declared = await exchange(port, {
      path: `/api/webhooks/${accountId}`,
      headers: { ...json, "content-length": String(MAX_WEBHOOK_BYTES + 1) },
    }).catch((error: Error) => error);
    // Either the 413 arrives or the connection is closed while the client still sends: never a stored event.
    if (!(declared instanceof Error)) expect(declared).toMatchObject({ status: 413, headers: { connection: "close" } });
    const chunk = "x".repeat(64 * 1024);
    const chunked = await exchange(port, {
      path: `/api/webhooks/${accountId}`,
      headers: { ...json, "transfer-encoding": "chunked" },
      chunks: Array.from({ length: 5 }, () => chunk),
    }).catch((error: Error) => error);
    if (!(chunked instanceof Error)) expect(chunked).toMatchObject({ status: 413, headers: { connection: "close" } });
    const after = await tooLargeRejections();
    expect(after.length).toBe(before.length + 2);
  });

  it("leaves to Next.js what is not a plain POST to the receiver", async () => {
    ready(true);
    const body = paidBody(`tx_${randomUUID()}`);
    for (const [method, path] of [
      ["GET", `/api/webhooks/${accountId}`],
      ["PUT", `/api/webhooks/${accountId}`],
      ["POST", `/api/webhooks/${accountId}/`],
      ["POST", `/api/webhooks/%61${accountId}`],
      ["POST", `/api/webhooks/${accountId}/key/extra`],
      ["POST", `/api/webhooksx/${accountId}`],
      ["POST", `/api/webhooks`],
    ])
      expect(await exchange(port, { method, path, headers: json, chunks: method === "GET" ? [] : [body] })).toMatchObject({
        status: 299,
        body: "next",
      });
  });

  it("survives a body that breaks off, storing nothing", async () => {
    ready(true);
    const txId = `tx_${randomUUID()}`;
    const full = paidBody(txId);
    await new Promise<void>((resolve) => {
      const request = http.request({
        host: "127.0.0.1",
        port,
        method: "POST",
        path: `/api/webhooks/${accountId}`,
        headers: { ...json, "content-length": String(full.length) },
        agent: false,
      });
      request.on("error", () => resolve());
      request.write(full.slice(0, 40));
      setTimeout(() => {
        request.destroy();
        resolve();
      }, 100);
    });
    // The server still answers the next delivery.
    const next = await exchange(port, { path: `/api/webhooks/${accountId}`, headers: json, chunks: [paidBody(`tx_${randomUUID()}`)] });
    expect(next.status).toBe(200);
    const rows = await (await getDb()).select().from(gatewayNotifications).where(eq(gatewayNotifications.gatewayTransactionId, txId));
    expect(rows).toHaveLength(0);
  });
});
