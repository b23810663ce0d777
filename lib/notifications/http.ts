import "server-only";
import { clientIp } from "@/lib/http/client-ip";
import { MAX_WEBHOOK_BYTES, receiveNotification, recordRejection, type WebhookAnswer } from "./ingest";

export class BodyTooLargeError extends Error {}

/** The body's declared Content-Length; NaN without one (NaN is never past a limit). */
export const declaredLength = (contentLength: string | null | undefined): number => Number(contentLength ?? NaN);

/** Keeps a body's chunks up to `limit` bytes, for either kind of stream the receiver reads. */
export function bodyCollector(limit: number) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  return {
    /** False once the body is past the limit (that chunk is not kept). */
    add(chunk: Uint8Array): boolean {
      size += chunk.byteLength;
      if (size > limit) return false;
      chunks.push(chunk);
      return true;
    },
    /** As `Request.text()` gives it: UTF-8, and a byte-order mark is no part of the JSON. */
    text(): string {
      const text = Buffer.concat(chunks).toString("utf8");
      return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    },
  };
}

/** Reads at most `limit` bytes; a longer body is refused without buffering the rest. */
async function readLimited(request: Request, limit: number): Promise<string> {
  const declared = declaredLength(request.headers.get("content-length"));
  if (declared > limit) throw new BodyTooLargeError();
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
  const body = bodyCollector(limit);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return body.text();
    if (!body.add(value)) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLargeError();
    }
  }
}

/** The headers of every receiver answer. */
export const WEBHOOK_REPLY_HEADERS = {
  "content-type": "application/json",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

const json = ({ status, body }: WebhookAnswer) => new Response(JSON.stringify(body), { status, headers: WEBHOOK_REPLY_HEADERS });

// Cheap checks only (this path is benchmarked): identifiers are short and printable.
/** One path segment the receiver takes: an account id or a callback key. */
export const ID_SEGMENT = "[A-Za-z0-9_-]{1,128}";
const SAFE_ID = new RegExp(`^${ID_SEGMENT}$`);
// Raw NUL and C0 controls other than tab/newline/carriage return have no place in a JSON delivery
// (JSON itself refuses them inside strings). Escaped ones (`\u0000`) are valid JSON: a delivery
// with a valid token carrying them is stored sanitised (lib/notifications/sanitize.ts).
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

export type WebhookDelivery = {
  accountId: string;
  callbackKey?: string;
  sourceIp: string | null;
  /** Reads the body, throwing BodyTooLargeError past `limit` bytes and anything else when it broke off. */
  readBody: (limit: number) => Promise<string>;
};

/** `POST /api/webhooks/<accountId>[/<callbackKey>]`, for the route handler and for lib/notifications/fast-path.ts alike. */
export async function answerWebhook({ accountId, callbackKey, sourceIp, readBody }: WebhookDelivery): Promise<WebhookAnswer> {
  if (!SAFE_ID.test(accountId)) return { status: 404, body: { error: "unknown_account" } };
  if (callbackKey !== undefined && !SAFE_ID.test(callbackKey)) return { status: 401, body: { error: "bad_callback_key" } };
  let body: string;
  try {
    body = await readBody(MAX_WEBHOOK_BYTES);
  } catch (error) {
    // A body that broke off (or a stream that failed) is the sender's problem: not a 5xx.
    if (!(error instanceof BodyTooLargeError)) return { status: 400, body: { error: "unreadable_body" } };
    await recordRejection(accountId, "too_large", 413, sourceIp).catch(() => {});
    return { status: 413, body: { error: "too_large" } };
  }
  if (CONTROL_CHARS.test(body)) return { status: 400, body: { error: "invalid_body", message: "The body contains control characters." } };
  return receiveNotification({ accountId, callbackKey: callbackKey ?? null, body, sourceIp });
}

/** The route handler's side: a web Request in, a Response out. */
export async function handleWebhookRequest(request: Request, accountId: string, callbackKey?: string): Promise<Response> {
  const sourceIp = clientIp(request.headers);
  return json(await answerWebhook({ accountId, callbackKey, sourceIp, readBody: (limit) => readLimited(request, limit) }));
}
