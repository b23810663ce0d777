import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb } from "@/lib/db/client";
import { useDatabase } from "@/lib/testing/databases";

process.env.APP_ENCRYPTION_KEY = randomBytes(32).toString("hex");

function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}

describe("the console's sandbox helper never sends the account's keys to a second host", () => {
  const seen: IncomingHttpHeaders[] = [];
  let elsewhere: { server: Server; url: string };
  let redirecting: { server: Server; url: string };

  beforeAll(async () => {
    elsewhere = await listen((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ webhookUrl: null }));
    });
    // The saved base URL answers every call with a redirect to another host.
    redirecting = await listen((req, res) => res.writeHead(307, { location: `${elsewhere.url}${req.url}` }).end());
    useDatabase({ name: "pglite", pgliteDir: "memory://", drop: async () => {} });
  });
  afterAll(async () => {
    elsewhere.server.close();
    redirecting.server.close();
    await closeDb();
  });

  it("a redirect is refused, not followed: the keys stay with the saved gateway", async () => {
    const { createAccount } = await import("@/lib/accounts/queries");
    const { detectSandbox, emitSandboxNotification } = await import("@/lib/notifications/sandbox");
    const account = await createAccount(
      {
        name: "Redirecting",
        baseUrl: redirecting.url,
        publicKey: "pk_live_x",
        secretKey: "sk_live_must_not_leave",
        webhookToken: null,
        mode: "test",
      },
      null,
    );
    expect(await detectSandbox(account.id, { fresh: true })).toEqual({ isSandbox: false, webhookUrl: null });
    expect(await emitSandboxNotification(account.id, "tx_1", "TRANSACTION_PAID")).toMatchObject({ ok: false, status: 307 });
    expect(seen).toEqual([]);
  });
});
