import { spawn } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const hook = pathToFileURL(path.resolve("scripts/run/client-address-hook.mjs")).href;
// A server like Next's own: a plain node:http server that echoes what it was told.
const echoServer = `
  const http = require("node:http");
  const server = http.createServer((req, res) => res.end(req.headers["x-forwarded-for"] ?? ""));
  server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

let stopServer = () => {};
afterEach(() => stopServer());

async function serverWithHook(trustedHops: number): Promise<string> {
  const child = spawn(process.execPath, ["--import", hook, "-e", echoServer], {
    env: { ...process.env, TRUSTED_PROXY_HOPS: String(trustedHops) },
  });
  stopServer = () => child.kill();
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once("exit", (code) => reject(new Error(`server exited ${code}`)));
  });
  return `http://127.0.0.1:${port}/`;
}

describe("the client-address hook preloaded into the console's server", () => {
  it("replaces a made-up X-Forwarded-For with the socket's address when no proxy is trusted", async () => {
    const url = await serverWithHook(0);
    for (const spoof of ["1.2.3.4", "9.9.9.9, 8.8.8.8"]) {
      const seen = await (await fetch(url, { headers: { "x-forwarded-for": spoof } })).text();
      expect(seen).toBe("127.0.0.1");
    }
    expect(await (await fetch(url)).text()).toBe("127.0.0.1");
  });

  it("keeps the trusted proxy's entry and appends the socket's", async () => {
    const url = await serverWithHook(1);
    const seen = await (await fetch(url, { headers: { "x-forwarded-for": "6.6.6.6, 203.0.113.5" } })).text();
    expect(seen).toBe("203.0.113.5, 127.0.0.1");
  });
});

describe("the webhook fast path the hook loads in `npm start`'s web server", () => {
  // Postgres only: the fast path runs where the background work has a worker of its own.
  const postgres = process.env.TEST_DATABASE_URL ? it : it.skip;
  const token = "wht_hook_fast_path_01";
  // Ready at once here (the process's state, lib/runtime/state.ts); in the console lib/bootstrap.ts
  // says so once the account from the environment is synced.
  const nextLikeServer = `
    globalThis[Symbol.for("merchant-console.runtime")] = new Map([["console-ready", { ready: true }]]);
    const http = require("node:http");
    const server = http.createServer((req, res) => res.writeHead(299).end("next"));
    server.listen(0, "127.0.0.1", () => console.log(server.address().port));
  `;

  async function serve(env: Record<string, string>): Promise<number> {
    const child = spawn(process.execPath, ["--import", hook, "-e", nextLikeServer], { env: { ...process.env, ...env } });
    stopServer = () => child.kill();
    let errors = "";
    child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    return Number(
      await new Promise<string>((resolve, reject) => {
        child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
        child.once("exit", (code) => reject(new Error(`server exited ${code}: ${errors}`)));
      }),
    );
  }

  postgres(
    "answers deliveries itself, storing them, and leaves the rest to Next.js; outside production or without a worker it is not loaded",
    async () => {
      const { randomBytes, randomUUID } = await import("node:crypto");
      const { testDatabases, useDatabase } = await import("@/lib/testing/databases");
      const { closeDb, getDb } = await import("@/lib/db/client");
      const { gatewayNotifications } = await import("@/lib/db/schema");
      const { eq } = await import("drizzle-orm");
      const target = (await testDatabases()).find((candidate) => candidate.name === "postgres")!;
      const distDir = `.next-test-${randomBytes(4).toString("hex")}`;
      process.env.APP_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");
      try {
        await closeDb();
        useDatabase(target);
        const { createAccount } = await import("@/lib/accounts/queries");
        const account = await createAccount(
          { name: "Loja", baseUrl: "http://127.0.0.1:9", publicKey: "pk", secretKey: "sk_1234567890", webhookToken: token, mode: "test" },
          null,
        );
        const env = {
          NODE_ENV: "production",
          RECONCILER: "worker",
          DATABASE_URL: target.url!,
          NEXT_DIST_DIR: distDir,
          APP_ENCRYPTION_KEY: process.env.APP_ENCRYPTION_KEY!,
        };
        const delivery = (txId: string) =>
          JSON.stringify({
            event: "TRANSACTION_PAID",
            token,
            checkoutUrl: "",
            client: { name: "Maria Souza", email: "maria@example.com", cpf: "529.982.247-25" },
            transaction: {
              id: txId,
              status: "COMPLETED",
              paymentMethod: "PIX",
              amount: 50,
              currency: "BRL",
              createdAt: "2026-11-20T12:00:00Z",
            },
          });
        const post = (port: number, body: string) =>
          fetch(`http://127.0.0.1:${port}/api/webhooks/${account.id}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body,
          });

        const port = await serve(env);
        const txId = `tx_${randomUUID()}`;
        const answer = await post(port, delivery(txId));
        expect(answer.status).toBe(200);
        const { id } = (await answer.json()) as { id: string };
        const [row] = await (await getDb()).select().from(gatewayNotifications).where(eq(gatewayNotifications.id, id));
        expect(row).toMatchObject({ gatewayTransactionId: txId, kind: "payment", sourceIp: "127.0.0.1" });
        expect(await (await fetch(`http://127.0.0.1:${port}/api/webhooks/${account.id}`)).text()).toBe("next");
        expect(await (await fetch(`http://127.0.0.1:${port}/sign-in`)).text()).toBe("next");
        stopServer();

        for (const without of [{ NODE_ENV: "development" }, { RECONCILER: "interval" }, { WEBHOOK_FAST_PATH: "off" }] as Record<
          string,
          string
        >[]) {
          const other = await serve({ ...env, ...without });
          expect(await (await post(other, delivery(`tx_${randomUUID()}`))).text()).toBe("next");
          stopServer();
        }
      } finally {
        stopServer();
        const { rmSync } = await import("node:fs");
        rmSync(distDir, { recursive: true, force: true });
        await closeDb();
        await target.drop();
      }
    },
    60_000,
  );
});
