import { authorizeFeed, feedAccountIds } from "@/lib/feed/access";
import { subscribeFeed } from "@/lib/feed/bus";
import type { FeedEvent } from "@/lib/feed/types";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const HEARTBEAT_MS = 15_000;
/** Streams end after a while so that the browser reconnects and the session is checked again. */
const MAX_STREAM_MS = 5 * 60_000;

/** Server-sent events: every new or repeated delivery of the accounts this user may see. */
export async function GET(request: Request) {
  const auth = await authorizeFeed();
  if ("status" in auth) return new Response(null, { status: auth.status });
  const allowed = new Set(feedAccountIds(auth.ctx));
  const encoder = new TextEncoder();
  let cleanup = () => {};

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      const send = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      const unsubscribe = await subscribeFeed((event: FeedEvent) => {
        if (allowed.has(event.accountId)) send(`id: ${event.seq}\nevent: feed\ndata: ${JSON.stringify(event)}\n\n`);
      }).catch(() => null);
      if (!unsubscribe) {
        controller.error(new Error("feed unavailable"));
        return;
      }
      const heartbeat = setInterval(() => send(`: keep-alive\n\n`), HEARTBEAT_MS);
      const expiry = setTimeout(() => cleanup(), MAX_STREAM_MS);
      cleanup = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        clearTimeout(expiry);
        unsubscribe();
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      request.signal.addEventListener("abort", () => cleanup());
      send(`retry: 1000\nevent: ready\ndata: {}\n\n`);
    },
    cancel() {
      cleanup();
    },
  });

  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}
