import { authorizeFeed, feedAccountIds } from "@/lib/feed/access";
import { currentFeedSeq, listFeedNotifications } from "@/lib/notifications/queries";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Polling fallback of the live feed: `GET /api/feed?after=<cursor>[&account=…]` answers what was
 * delivered since the cursor (oldest first) and the next cursor.
 */
export async function GET(request: Request) {
  const auth = await authorizeFeed();
  if ("status" in auth) return Response.json({ error: auth.status === 401 ? "unauthenticated" : "forbidden" }, { status: auth.status });
  const url = new URL(request.url);
  // Without a cursor: nothing yet, just where to start from.
  if (!url.searchParams.has("after"))
    return Response.json({ events: [], cursor: await currentFeedSeq() }, { headers: { "cache-control": "no-store" } });
  const after = Number(url.searchParams.get("after"));
  if (!Number.isSafeInteger(after) || after < 0) return Response.json({ error: "after" }, { status: 400 });
  const accountIds = feedAccountIds(auth.ctx, url.searchParams.get("account"));
  const events = await listFeedNotifications({ accountIds, afterSeq: after, limit: 200 });
  const cursor = events.reduce((highest, e) => Math.max(highest, e.seq), after);
  return Response.json({ events, cursor }, { headers: { "cache-control": "no-store" } });
}
