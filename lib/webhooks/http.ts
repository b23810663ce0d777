import "server-only";
import { clientIp } from "@/lib/http/client-ip";
import { MAX_WEBHOOK_BYTES, receiveWebhook, recordRejection } from "./ingest";

class BodyTooLargeError extends Error {}

/** Reads at most `limit` bytes; a longer body is refused without buffering the rest. */
async function readLimited(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError();
  // A declared length is enforced by Node's HTTP parser: no more than that arrives, so the body
  // is read at once (and checked again, for a Request made elsewhere). Only a chunked body is
  // counted as it comes.
  if (Number.isFinite(declared)) {
    const text = await request.text();
    if (Buffer.byteLength(text, "utf8") > limit) throw new BodyTooLargeError();
    return text;
  }
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
  const text = Buffer.concat(chunks).toString("utf8");
  // As request.text() does for a body of declared length: a byte-order mark is no part of the JSON.
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const json = (status: number, body: Record<string, unknown>) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", "x-content-type-options": "nosniff" },
  });

/** `POST /api/webhooks/<accountId>`: shared by the route handler and the benchmark's bare HTTP server. */
// Cheap checks only (this path is benchmarked): identifiers are short and printable.
const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;
// Raw NUL and C0 controls other than tab/newline/carriage return have no place in a JSON delivery
// (JSON itself refuses them inside strings). Escaped ones (`\u0000`) are valid JSON: a delivery
// with a valid token carrying them is stored sanitised (lib/webhooks/sanitize.ts).
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

export async function handleWebhookRequest(request: Request, accountId: string, callbackKey?: string): Promise<Response> {
  if (!SAFE_ID.test(accountId)) return json(404, { error: "unknown_account" });
  if (callbackKey !== undefined && !SAFE_ID.test(callbackKey)) return json(401, { error: "bad_callback_key" });
  const sourceIp = clientIp(request.headers);
  let body: string;
  try {
    body = await readLimited(request, MAX_WEBHOOK_BYTES);
  } catch (error) {
    // A body that broke off (or a stream that failed) is the sender's problem: not a 5xx.
    if (!(error instanceof BodyTooLargeError)) return json(400, { error: "unreadable_body" });
    await recordRejection(accountId, "too_large", 413, sourceIp).catch(() => {});
    return json(413, { error: "too_large" });
  }
  if (CONTROL_CHARS.test(body)) return json(400, { error: "invalid_body", message: "The body contains control characters." });
  const answer = await receiveWebhook({ accountId, callbackKey: callbackKey ?? null, body, sourceIp });
  return json(answer.status, answer.body);
}
