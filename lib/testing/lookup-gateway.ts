import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type LookupRecord = { id: string; clientIdentifier: string; status: string; amount?: number; payedAt?: string | null; paymentMethod?: string };

/**
 * A gateway that only answers `GET /api/v1/gateway/transactions` from a map the test controls,
 * counting the lookups: enough to test confirmation and reconciliation against real HTTP.
 */
export async function startLookupGateway() {
  const records = new Map<string, LookupRecord>();
  const lookups: string[] = [];
  let failWith: number | null = null;
  let retryAfterSeconds: number | null = null;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://gateway.test");
    if (request.method !== "GET" || url.pathname !== "/api/v1/gateway/transactions") {
      response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ statusCode: 404, errorCode: "NOT_FOUND", message: "not found" }));
      return;
    }
    const key = url.searchParams.get("id") ?? url.searchParams.get("clientIdentifier") ?? "";
    lookups.push(key);
    if (failWith !== null) {
      response
        .writeHead(failWith, { "content-type": "application/json", ...(retryAfterSeconds !== null ? { "retry-after": String(retryAfterSeconds) } : {}) })
        .end(JSON.stringify({ statusCode: failWith, errorCode: "FAIL", message: "failing on purpose" }));
      return;
    }
    const record = records.get(key) ?? [...records.values()].find((r) => r.clientIdentifier === key);
    if (!record) {
      response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ statusCode: 404, errorCode: "NOT_FOUND", message: "Transação não encontrada" }));
      return;
    }
    response.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        currency: "BRL",
        chargeAmount: record.amount ?? 123.45,
        paymentMethod: record.paymentMethod ?? "PIX",
        createdAt: "2026-11-20T12:00:00.000Z",
        amount: record.amount ?? 123.45,
        payedAt: record.payedAt ?? null,
        id: record.id,
        clientIdentifier: record.clientIdentifier,
        status: record.status,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    records,
    lookups,
    fail(status: number | null, retryAfter: number | null = null) {
      failWith = status;
      retryAfterSeconds = retryAfter;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
