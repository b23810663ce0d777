import http from "node:http";
import type { AddressInfo } from "node:net";

export type RecordedRequest = {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
};

export type Handler = (req: RecordedRequest, res: http.ServerResponse) => void | Promise<void>;

/** A local HTTP server on port 0 whose behaviour each test sets, counting every request it reads. */
export async function startTestServer() {
  const requests: RecordedRequest[] = [];
  let handler: Handler = (_req, res) => {
    res.writeHead(500).end();
  };
  const sockets = new Set<import("node:net").Socket>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(recorded);
      Promise.resolve(handler(recorded, res)).catch(() => res.destroy());
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setHandler(next: Handler) {
      handler = next;
    },
    /** Answers in order; the last one repeats. */
    setSequence(handlers: Handler[]) {
      let index = 0;
      handler = (req, res) => handlers[Math.min(index++, handlers.length - 1)](req, res);
    },
    reset() {
      requests.length = 0;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { "Content-Type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };
}

export function raw(status: number, body: string, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };
}

/** Reads the whole request, then kills the socket without answering. */
export const dropConnection: Handler = (_req, res) => {
  res.socket?.destroy();
};

/** Never answers (until the server closes). */
export const hang: Handler = () => {};

export function captureLogger() {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  return {
    lines,
    logger: {
      log(level: string, message: string, fields?: Record<string, unknown>) {
        lines.push({ level, message, fields });
      },
    },
    text: () => JSON.stringify(lines),
  };
}
