import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type Received = { id: string; timestamp: string; signature: string; body: string; verified: unknown; at: number };

type Answer = { status: number; headers?: Record<string, string>; body?: string } | "hang";

/**
 * A producer's system as the tests play it: a local HTTP receiver that verifies each delivery
 * with the `standardwebhooks` library (the receiving side's own code, not the console's) and
 * answers what the test asks for.
 */
export async function startReceiver(secret: () => string | null) {
  const received: Received[] = [];
  const answers: Answer[] = [];
  let fallback: Answer = { status: 200, body: '{"ok":true}' };
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = {
        "webhook-id": String(request.headers["webhook-id"] ?? ""),
        "webhook-timestamp": String(request.headers["webhook-timestamp"] ?? ""),
        "webhook-signature": String(request.headers["webhook-signature"] ?? ""),
      };
      let verified: unknown = null;
      const key = secret();
      if (key) {
        try {
          verified = new Webhook(key).verify(body, headers);
        } catch {
          verified = null;
        }
      }
      received.push({
        id: headers["webhook-id"],
        timestamp: headers["webhook-timestamp"],
        signature: headers["webhook-signature"],
        body,
        verified,
        at: Date.now(),
      });
      const answer = answers.shift() ?? fallback;
      if (answer === "hang") {
        hanging.add(response);
        return;
      }
      response.writeHead(answer.status, { "content-type": "application/json", ...answer.headers }).end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    /** The next answers, in order; then `fallback`. */
    answer(...next: Answer[]) {
      answers.push(...next);
    },
    setFallback(answer: Answer) {
      fallback = answer;
    },
    release() {
      for (const response of hanging) response.destroy();
      hanging.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
