import { timingSafeEqual } from "node:crypto";
import { runBackgroundWorkOnce } from "@/lib/background/serverless";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

function authorized(request: Request): boolean {
  const secret = process.env.CRON_SECRET;
  if (!secret) return false;
  const given = Buffer.from(request.headers.get("authorization") ?? "");
  const expected = Buffer.from(`Bearer ${secret}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Vercel Cron (see vercel.json): one pass of the webhook applier, the reconciler and the event destinations. */
export async function GET(request: Request) {
  if (!authorized(request)) return Response.json({ error: "unauthorized" }, { status: 401 });
  const result = await runBackgroundWorkOnce({ destinations: true });
  return Response.json(result, { headers: { "cache-control": "no-store" } });
}
