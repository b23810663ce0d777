import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINTS } from "../contract/endpoints";
import { startSandbox } from "../app";

/*
 * Bad input never makes the sandbox fail: every generated request (wrong types, NUL and control
 * characters, 300 KB identifiers, deep nesting, garbage JSON, odd query strings) gets an answer
 * below 500 whose body names no internals.
 */
const KEYS = { "x-public-key": "pk_sandbox_demo", "x-secret-key": "sk_sandbox_demo" };
const INTERNALS = /at [\w.<>]+ \(|node_modules|\/sandbox\/|SELECT |INSERT |TypeError|ReferenceError/;

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dataDir: "memory://", webhookRetryMs: 50, quiet: true });
});
afterAll(async () => {
  await sandbox?.close();
});

const nasty = fc.oneof(
  fc.string(),
  fc.constantFrom(
    "\u0000",
    "a\u0000b",
    "\u0007\u001b[31m",
    "‮",
    "💥".repeat(50),
    "x".repeat(300_000),
    "-1",
    "1e309",
    "NaN",
    "0000-00-00",
    "9999-99-99",
  ),
  fc.integer(),
  fc.double(),
  fc.constantFrom(1e309, -0, Number.MAX_SAFE_INTEGER * 10, 1e-9, 1.005),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    nasty,
    fc.array(tie("node"), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 12 }), tie("node"), { maxKeys: 5 }),
  ),
})).node;
const fieldNames = fc.constantFrom(
  "identifier",
  "amount",
  "client",
  "products",
  "card",
  "clientIp",
  "dueDate",
  "pix",
  "owner",
  "product",
  "settings",
  "subscription",
  "transactionId",
  "reason",
  "callbackUrl",
  "splits",
  "metadata",
);
const body = fc.oneof(
  fc.dictionary(fieldNames, value, { maxKeys: 8 }).map((object) => JSON.stringify(object)),
  value.map((v) => JSON.stringify(v) ?? "null"),
  fc.string(),
  fc.nat({ max: 3000 }).map((depth) => "[".repeat(depth) + "]".repeat(depth)),
  fc.nat({ max: 3000 }).map((depth) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth)),
);
const POSTS = Object.values(ENDPOINTS)
  .filter((e) => e.method === "POST")
  .map((e) => e.path);

describe("the sandbox under fuzzing", () => {
  it("answers every bad request below 500, with no internals in the body", async () => {
    let requests = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...POSTS), body, async (path, payload) => {
        requests += 1;
        const response = await fetch(`${sandbox.url}${path}`, {
          method: "POST",
          headers: { ...KEYS, "content-type": "application/json" },
          body: payload,
        });
        const text = await response.text();
        expect(response.status, `${path} ${payload.slice(0, 200)} → ${text.slice(0, 300)}`).toBeLessThan(500);
        expect(text).not.toMatch(INTERNALS);
      }),
      { numRuns: 1_500 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom("id", "clientIdentifier", "_", "x\u0000"),
          fc.oneof(fc.string(), fc.constantFrom("\u0000", "x".repeat(300_000), "%00")),
        ),
        async (query) => {
          requests += 1;
          const qs = Object.entries(query)
            .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
            .join("&");
          const response = await fetch(`${sandbox.url}/api/v1/gateway/transactions?${qs}`, { headers: KEYS });
          const text = await response.text();
          expect(response.status, `?${qs.slice(0, 200)} → ${text.slice(0, 300)}`).toBeLessThan(500);
          expect(text).not.toMatch(INTERNALS);
        },
      ),
      { numRuns: 600 },
    );
    expect(requests).toBeGreaterThanOrEqual(2_000);
  }, 300_000);
});
