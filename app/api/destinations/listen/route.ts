import { z } from "zod";
import { authenticateListen, ListenForwardError, openListenSession } from "@/lib/destinations/listen";
import { readJsonBody } from "@/lib/http/json-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const startSchema = z.object({ forwardTo: z.string().trim().min(1).max(2000) });
const json = (status: number, body: unknown) => Response.json(body, { status, headers: { "cache-control": "no-store" } });

/** `npm run listen` starts its session: authenticated by the listen key alone, for the key's own account. */
export async function POST(request: Request) {
  const ctx = await authenticateListen(request.headers.get("authorization"));
  if (!ctx) return json(401, { error: "unauthorized", message: "Listen key unknown, expired or revoked." });
  const parsed = startSchema.safeParse(await readJsonBody(request, 16 * 1024));
  if (!parsed.success) return json(400, { error: "invalid_body", message: "Send { forwardTo: an http(s) URL }." });
  try {
    return json(200, await openListenSession(ctx, parsed.data.forwardTo));
  } catch (error) {
    if (error instanceof ListenForwardError) return json(400, { error: "invalid_forward_to", message: error.message });
    throw error;
  }
}
