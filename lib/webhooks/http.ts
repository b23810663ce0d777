import "server-only";
import { clientIp } from "@/lib/http/client-ip";
import { MAX_WEBHOOK_BYTES, receiveWebhook, recordRejection } from "./ingest";

class BodyTooLargeError extends Error {}

/** Reads at most `limit` bytes; a longer body is refused without buffering the rest. */
async function readLimited(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLargeError();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const json = (status: number, body: Record<string, unknown>) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store" } });

/** `POST /api/webhooks/<accountId>`: shared by the route handler and the benchmark's bare HTTP server. */
export async function handleWebhookRequest(request: Request, accountId: string, callbackKey?: string): Promise<Response> {
  const sourceIp = clientIp(request.headers);
  let body: string;
  try {
    body = await readLimited(request, MAX_WEBHOOK_BYTES);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    await recordRejection(accountId, "too_large", 413, sourceIp).catch(() => {});
    return json(413, { error: "too_large" });
  }
  const answer = await receiveWebhook({ accountId, callbackKey: callbackKey ?? null, body, sourceIp });
  return json(answer.status, answer.body);
}
