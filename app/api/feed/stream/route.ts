import { sessionStillValid } from "@/lib/auth/session";
import { authorizeFeed, feedAccountIds } from "@/lib/feed/access";
import { subscribeFeed } from "@/lib/feed/bus";
import { FEED_RESUME_OVERLAP, type FeedNotification } from "@/lib/feed/types";
import { listFeedNotifications } from "@/lib/notifications/queries";
import { processState } from "@/lib/runtime/state";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const HEARTBEAT_MS = 15_000;
/** Streams end after a while so that the browser reconnects and everything is checked again. */
const MAX_STREAM_MS = 5 * 60_000;
/** Sign-out, deactivation or a role change close an open stream within this long. */
const SESSION_RECHECK_MS = 5_000;

const CURSOR = /^\d{1,15}$/;

/**
 * Open streams close when the server is told to stop: Next.js drains requests in flight before it
 * exits, and a stream never ends by itself, so an open tab held every SIGTERM for its full timeout.
 * The browser's EventSource reconnects (to this server once restarted, or to another) and resumes
 * from its cursor.
 */
const openStreams = processState("feed-open-streams", () => {
  const streams = new Set<() => void>();
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => [...streams].forEach((close) => close()));
  return streams;
});

/** Where a reconnecting browser left off: its Last-Event-ID (looked back a little), or `?after=`. */
function resumeCursor(request: Request): number | null {
  const lastEventId = request.headers.get("last-event-id")?.trim();
  if (lastEventId && CURSOR.test(lastEventId)) return Math.max(0, Number(lastEventId) - FEED_RESUME_OVERLAP);
  const after = new URL(request.url).searchParams.get("after");
  return after !== null && CURSOR.test(after) ? Number(after) : null;
}

/**
 * Server-sent events: every new or repeated delivery of the accounts this user may see. A
 * reconnecting browser first gets what it missed since its cursor, so no event is lost.
 */
export async function GET(request: Request) {
  const auth = await authorizeFeed();
  if ("status" in auth) return new Response(null, { status: auth.status });
  const allowed = new Set(feedAccountIds(auth.ctx));
  const resumeAfter = resumeCursor(request);
  const encoder = new TextEncoder();
  let cleanup = () => {};

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const streams = openStreams();
      let closed = false;
      const send = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      const deliver = (event: FeedNotification) => send(`id: ${event.seq}\nevent: feed\ndata: ${JSON.stringify(event)}\n\n`);
      // Live events wait while the missed ones are replayed, so they arrive in order after them.
      let held: FeedNotification[] | null = resumeAfter === null ? null : [];
      const unsubscribe = await subscribeFeed((event: FeedNotification) => {
        if (!allowed.has(event.accountId)) return;
        if (held) held.push(event);
        else deliver(event);
      }).catch(() => null);
      if (!unsubscribe) {
        controller.error(new Error("feed unavailable"));
        return;
      }
      const heartbeat = setInterval(() => send(`: keep-alive\n\n`), HEARTBEAT_MS);
      const expiry = setTimeout(() => cleanup(), MAX_STREAM_MS);
      const recheck = setInterval(() => {
        sessionStillValid(auth.ctx.user).then(
          (valid) => valid || cleanup(),
          () => {},
        );
      }, SESSION_RECHECK_MS);
      cleanup = () => {
        if (closed) return;
        closed = true;
        streams.delete(cleanup);
        clearInterval(heartbeat);
        clearInterval(recheck);
        clearTimeout(expiry);
        unsubscribe();
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      streams.add(cleanup);
      request.signal.addEventListener("abort", () => cleanup());
      send(`retry: 1000\nevent: ready\ndata: {}\n\n`);
      if (resumeAfter !== null) {
        const missed = await listFeedNotifications({ accountIds: [...allowed], afterSeq: resumeAfter, limit: 500 }).catch(() => []);
        for (const event of missed) deliver(event);
        const live = held ?? [];
        held = null;
        for (const event of live) deliver(event);
      }
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
