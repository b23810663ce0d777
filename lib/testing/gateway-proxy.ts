import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type ProxiedCall = { method: string; path: string; identifier: string | null; startedAt: number; status: number | null };

/**
 * Stands between the console and the sandbox and notes every call that reached the gateway, with
 * the identifier its body carried: "sent once" is counted here, not from the gateway's objects
 * (the sandbox answers a repeated identifier with the first object). A caller that goes away
 * (a killed worker) does not stop its request: it already reached the gateway.
 */
export async function startGatewayProxy(target: string) {
  const calls: ProxiedCall[] = [];
  let inFlight = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      let identifier: string | null = null;
      try {
        const parsed = JSON.parse(body.toString("utf8")) as { identifier?: unknown };
        identifier = typeof parsed.identifier === "string" ? parsed.identifier : null;
      } catch {
        identifier = null;
      }
      const call: ProxiedCall = {
        method: incoming.method ?? "GET",
        path: incoming.url ?? "/",
        identifier,
        startedAt: Date.now(),
        status: null,
      };
      calls.push(call);
      inFlight += 1;
      const url = new URL(incoming.url ?? "/", target);
      const upstream = httpRequest(url, { method: incoming.method, headers: { ...incoming.headers, host: url.host } }, (answer) => {
        const parts: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => parts.push(chunk));
        answer.on("end", () => {
          call.status = answer.statusCode ?? 502;
          inFlight -= 1;
          if (!outgoing.destroyed) outgoing.writeHead(call.status, answer.headers).end(Buffer.concat(parts));
        });
      });
      upstream.on("error", () => {
        inFlight -= 1;
        outgoing.destroy();
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    inFlight: () => inFlight,
    /** Transfer creations that reached the gateway, by identifier. */
    transfersSent: () => {
      const counts = new Map<string, number>();
      for (const call of calls) {
        if (call.method === "POST" && call.path.endsWith("/transfers") && call.identifier)
          counts.set(call.identifier, (counts.get(call.identifier) ?? 0) + 1);
      }
      return counts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The console's webhook route as the tests play it: `/api/webhooks/<account>[/<callbackKey>]`
 * handed to the receiver function (lib/notifications/ingest.ts), which stores; the applier applies.
 */
export async function startWebhookEndpoint() {
  const { receiveNotification } = await import("@/lib/notifications/ingest");
  const answered: number[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const [, , , accountId, callbackKey] = (incoming.url ?? "").split("?")[0].split("/");
      receiveNotification({
        accountId,
        callbackKey: callbackKey ?? null,
        body: Buffer.concat(chunks).toString("utf8"),
        sourceIp: "127.0.0.1",
      }).then(
        (answer) => {
          answered.push(answer.status);
          outgoing.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
        },
        () => outgoing.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
