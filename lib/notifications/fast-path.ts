import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { clientIp } from "@/lib/http/client-ip";
import { createLogger } from "@/lib/log";
import { answerWebhook, BodyTooLargeError, bodyCollector, declaredLength, ID_SEGMENT, WEBHOOK_REPLY_HEADERS } from "./http";
import { processState } from "@/lib/runtime/state";

const log = createLogger("webhooks");

const readiness = processState("console-ready", () => ({ ready: false }));

/**
 * Said by lib/bootstrap.ts once the console is ready (database migrated, the account from the
 * environment synced). Until then deliveries go on to Next.js, whose route waits for it. In the
 * process's state: the fast path runs from a bundle of its own (scripts/run/webhook-fast-path.mjs).
 */
export function markConsoleReady(ready = true): void {
  readiness().ready = ready;
}

// The plain spelling only: an escape, a trailing slash or another method goes on to Next.js's
// route, which answers it as it always did.
const RECEIVER_PATH = new RegExp(`^/api/webhooks/(${ID_SEGMENT})(?:/(${ID_SEGMENT}))?(?:\\?|$)`);

/** The body as `Request.text()` gives it, at most `limit` bytes. */
function readBody(request: IncomingMessage, limit: number): Promise<string> {
  if (declaredLength(request.headers["content-length"]) > limit) return Promise.reject(new BodyTooLargeError());
  return new Promise((resolve, reject) => {
    const body = bodyCollector(limit);
    const onData = (chunk: Buffer) => {
      if (body.add(chunk)) return;
      // The rest is never read: the answer closes the connection (see reply).
      request.off("data", onData);
      request.pause();
      reject(new BodyTooLargeError());
    };
    request.on("data", onData);
    request.once("end", () => resolve(body.text()));
    request.once("error", reject);
    request.once("close", () => {
      if (!request.complete) reject(new Error("the body broke off"));
    });
  });
}

function reply(request: IncomingMessage, response: ServerResponse, status: number, body: Record<string, unknown>): void {
  if (response.headersSent || response.destroyed) return;
  const text = JSON.stringify(body);
  const headers: Record<string, string | number> = { ...WEBHOOK_REPLY_HEADERS, "content-length": Buffer.byteLength(text) };
  // A body left unread (too large, broken off) must not be taken for the next request.
  if (!request.complete) headers.connection = "close";
  response.writeHead(status, headers);
  response.end(text);
}

/**
 * `npm start`'s web server hands each request here before Next.js sees it
 * (scripts/run/client-address-hook.mjs). Deliveries to the receiver are answered here by the same
 * function the route handler calls (answerWebhook), without Next.js's routing and rendering
 * pipeline, which cost more CPU than the receiver itself. Returns false for anything else.
 */
export function serveWebhook(request: IncomingMessage, response: ServerResponse): boolean {
  if (request.method !== "POST" || !readiness().ready) return false;
  const match = RECEIVER_PATH.exec(request.url ?? "");
  if (!match) return false;
  const [, accountId, callbackKey] = match;
  answerWebhook({ accountId, callbackKey, sourceIp: clientIp(request.headers), readBody: (limit) => readBody(request, limit) }).then(
    (answer) => reply(request, response, answer.status, answer.body),
    (error: unknown) => {
      // As the route handler's failure would be: a 5xx, so the gateway tries again later.
      log.error("webhook delivery not stored", { error });
      reply(request, response, 500, { error: "internal_error" });
    },
  );
  return true;
}
