import { z } from "zod";
import { authenticateListen, pullListenDeliveries, reportListenResults } from "@/lib/destinations/listen";
import { readJsonBody } from "@/lib/http/json-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const json = (status: number, body: unknown) => Response.json(body, { status, headers: { "cache-control": "no-store" } });
const unauthorized = () => json(401, { error: "unauthorized", message: "Listen key unknown, expired or revoked." });

/** The session's due deliveries, signed; waits up to `wait` seconds (at most 25) for one. */
export async function GET(request: Request) {
  const ctx = await authenticateListen(request.headers.get("authorization"));
  if (!ctx) return unauthorized();
  const wait = Number(new URL(request.url).searchParams.get("wait") ?? "0");
  const deliveries = await pullListenDeliveries(ctx, Number.isFinite(wait) ? wait * 1000 : 0);
  if (deliveries === null) return json(409, { error: "no_session", message: "Start a session first (POST /api/destinations/listen)." });
  return json(200, { deliveries });
}

const reportSchema = z.object({
  results: z
    .array(
      z.object({
        deliveryId: z.string().min(1).max(100),
        attempt: z.number().int().min(1).max(1_000_000),
        roundStart: z.number().int().min(0).max(1_000_000),
        status: z.number().int().min(100).max(599).nullable(),
        durationMs: z.number().min(0).max(3_600_000),
        excerpt: z.string().max(4096).nullable().optional(),
      }),
    )
    .max(100),
});

/** What the local receiver answered to each forwarded delivery. */
export async function POST(request: Request) {
  const ctx = await authenticateListen(request.headers.get("authorization"));
  if (!ctx) return unauthorized();
  const parsed = reportSchema.safeParse(await readJsonBody(request, 512 * 1024));
  if (!parsed.success) return json(400, { error: "invalid_body" });
  return json(200, { recorded: await reportListenResults(ctx, parsed.data.results) });
}
