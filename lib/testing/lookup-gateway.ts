import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type LookupRecord = {
  id: string;
  clientIdentifier: string;
  status: string;
  amount?: number;
  payedAt?: string | null;
  refundedAt?: string | null;
  paymentMethod?: string;
  createdAt?: string;
};

/** How the gateway treats a refund request: answer it, refuse it (404), drop the connection once it is read, or never answer. */
export type RefundBehaviour = "answer" | "refuse" | "reset" | "hang";

/**
 * A gateway that only answers `GET /api/v1/gateway/transactions` from a map the test controls,
 * counting the lookups: enough to test confirmation and reconciliation against real HTTP.
 */
export async function startLookupGateway() {
  const records = new Map<string, LookupRecord>();
  const lookups: string[] = [];
  let failWith: number | null = null;
  let retryAfterSeconds: number | null = null;
  /** Every refund request received, in order (its body as sent). */
  const refundRequests: Record<string, unknown>[] = [];
  let refunds: RefundBehaviour = "answer";
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://gateway.test");
    if (request.method === "POST" && url.pathname === "/api/v1/gateway/producer/refunds") {
      let text = "";
      request.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      request.on("end", () => {
        const body = JSON.parse(text || "{}") as Record<string, unknown>;
        refundRequests.push(body);
        if (refunds === "reset") return request.socket.destroy();
        if (refunds === "hang") return;
        if (refunds === "refuse") {
          response
            .writeHead(404, { "content-type": "application/json" })
            .end(JSON.stringify({ statusCode: 404, errorCode: "NOT_FOUND", message: "Transação não encontrada" }));
          return;
        }
        response.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            id: `ref_${refundRequests.length}`,
            transactionId: body.transactionId,
            producerId: "prod_1",
            status: "PENDING",
            amount: 123.45,
            reason: body.reason,
          }),
        );
      });
      return;
    }
    if (request.method !== "GET" || url.pathname !== "/api/v1/gateway/transactions") {
      response
        .writeHead(404, { "content-type": "application/json" })
        .end(JSON.stringify({ statusCode: 404, errorCode: "NOT_FOUND", message: "not found" }));
      return;
    }
    const key = url.searchParams.get("id") ?? url.searchParams.get("clientIdentifier") ?? "";
    lookups.push(key);
    if (failWith !== null) {
      response
        .writeHead(failWith, {
          "content-type": "application/json",
          ...(retryAfterSeconds !== null ? { "retry-after": String(retryAfterSeconds) } : {}),
        })
        .end(JSON.stringify({ statusCode: failWith, errorCode: "FAIL", message: "failing on purpose" }));
      return;
    }
    const record = records.get(key) ?? [...records.values()].find((r) => r.clientIdentifier === key);
    if (!record) {
      response
        .writeHead(404, { "content-type": "application/json" })
        .end(JSON.stringify({ statusCode: 404, errorCode: "NOT_FOUND", message: "Transação não encontrada" }));
      return;
    }
    response.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        currency: "BRL",
        chargeAmount: record.amount ?? 123.45,
        paymentMethod: record.paymentMethod ?? "PIX",
        createdAt: record.createdAt ?? "2026-11-20T12:00:00.000Z",
        amount: record.amount ?? 123.45,
        payedAt: record.payedAt ?? null,
        refundedAt: record.refundedAt ?? null,
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
    refundRequests,
    /** What the next refund requests meet. */
    refunds(behaviour: RefundBehaviour) {
      refunds = behaviour;
    },
    fail(status: number | null, retryAfter: number | null = null) {
      failWith = status;
      retryAfterSeconds = retryAfter;
    },
    close: () =>
      new Promise<void>((resolve) => {
        // A hanging refund request keeps its connection open.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
