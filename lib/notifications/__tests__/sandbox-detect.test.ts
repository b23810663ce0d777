import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startTestServer } from "@/lib/gateway/__tests__/test-server";

const credentials = { baseUrl: "", publicKey: "pk_test", secretKey: "sk_test_SECRET" };
vi.mock("@/lib/accounts/queries", () => ({ getAccountCredentials: async () => credentials }));

const { detectSandbox } = await import("../sandbox");

type Server = Awaited<ReturnType<typeof startTestServer>>;
let gateway: Server;
let other: Server;

beforeAll(async () => {
  gateway = await startTestServer();
  other = await startTestServer();
});
afterAll(async () => {
  await gateway.close();
  await other.close();
});
beforeEach(() => {
  gateway.requests.length = 0;
  other.requests.length = 0;
  credentials.baseUrl = gateway.url;
});

const sent = (s: Server) => s.requests.some((r) => JSON.stringify(r.headers).includes("sk_test_SECRET"));

describe("sandbox detection", () => {
  it("probes without keys and never follows a redirect to a second host", async () => {
    gateway.setHandler((req, res) => {
      res.writeHead(302, { Location: `${other.url}${req.url}` }).end();
    });
    other.setHandler((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ info: { title: "x (sandbox)" }, webhookUrl: null }));
    });
    const result = await detectSandbox("acc-redirect", { fresh: true });
    expect(result.isSandbox).toBe(false);
    expect(other.requests).toHaveLength(0);
    expect(sent(gateway)).toBe(false);
  });

  it("sends no key to a base URL that is not the sandbox", async () => {
    gateway.setHandler((_req, res) => {
      res.writeHead(404).end();
    });
    const result = await detectSandbox("acc-real", { fresh: true });
    expect(result.isSandbox).toBe(false);
    expect(gateway.requests.length).toBeGreaterThan(0);
    expect(sent(gateway)).toBe(false);
  });

  it("recognises the sandbox after the keyless probe", async () => {
    gateway.setHandler((req, res) => {
      const body =
        req.url === "/openapi.json"
          ? { info: { title: "Payment gateway interface (sandbox)" } }
          : { webhookUrl: "http://x/api/webhooks/a" };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
    const result = await detectSandbox("acc-sandbox", { fresh: true });
    expect(result).toEqual({ isSandbox: true, webhookUrl: "http://x/api/webhooks/a" });
    expect(sent(gateway)).toBe(true);
    expect(gateway.requests[0].url).toBe("/openapi.json");
    expect(JSON.stringify(gateway.requests[0].headers)).not.toContain("sk_test");
  });
});
