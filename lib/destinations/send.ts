import "server-only";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { redactText } from "@/lib/log";
import { addressAllowed, guardedLookup, type DestinationMode } from "./address";
import { processState } from "@/lib/runtime/state";

export const EXCERPT_BYTES = 1024;
/** What is read of an answer at most; a longer one ends its connection instead of being drained. */
const READ_LIMIT_BYTES = 64 * 1024;

export type SendErrorKind = "timeout" | "blocked_address" | "connection" | "unresolvable" | "tls" | "redirect";

export type SendResult = {
  ok: boolean;
  /** The HTTP status, when there was an answer. */
  status: number | null;
  durationMs: number;
  error: SendErrorKind | null;
  /** The first 1 KB of the answer, secrets redacted. */
  excerpt: string | null;
  /** From a 429's Retry-After. */
  retryAfterMs: number | null;
};

export function timeoutMs(): number {
  return Number(process.env.DESTINATION_TIMEOUT_MS ?? 15_000);
}

type Agents = Record<`${"http" | "https"}:${DestinationMode}`, http.Agent>;
const agents = processState<Partial<Agents>>("destination-agents", () => ({}));

/** Kept-alive connections per protocol and mode: a socket opened under test mode's rules never serves a live destination. */
function agentFor(protocol: "http" | "https", mode: DestinationMode): http.Agent {
  const key = `${protocol}:${mode}` as const;
  return (agents()[key] ??=
    protocol === "https"
      ? new https.Agent({ keepAlive: true, maxSockets: 16, timeout: 30_000 })
      : new http.Agent({ keepAlive: true, maxSockets: 16, timeout: 30_000 }));
}

export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim()) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function errorKind(error: unknown): SendErrorKind {
  const code = (error as { code?: string }).code ?? "";
  if (code === "EBLOCKEDADDRESS") return "blocked_address";
  if (code === "ETIMEDOUT_DESTINATION") return "timeout";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "unresolvable";
  if (/^(ERR_TLS|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|ERR_SSL)/.test(code)) return "tls";
  return "connection";
}

/**
 * One POST of one event: no redirect is followed (a 3xx is a failure), 15 s at most from start
 * to the end of the answer, the connection made only to an address the destination's mode
 * allows (checked against the resolved address, not the name).
 */
export function postEvent(input: {
  url: string;
  mode: DestinationMode;
  headers: Record<string, string>;
  body: string;
  /** Secrets to strike from the excerpt besides what redactText already masks. */
  secrets?: readonly string[];
}): Promise<SendResult> {
  const started = performance.now();
  const finish = (partial: Omit<SendResult, "durationMs" | "ok"> & { ok?: boolean }): SendResult => ({
    ok: partial.ok ?? false,
    durationMs: Math.round(performance.now() - started),
    ...partial,
  });
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return Promise.resolve(finish({ status: null, error: "connection", excerpt: null, retryAfterMs: null }));
  }
  const protocol = url.protocol === "https:" ? "https" : "http";
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  // A literal address is connected to without a lookup: it is checked here instead.
  if (isIP(host) !== 0 && !addressAllowed(host, input.mode)) {
    return Promise.resolve(finish({ status: null, error: "blocked_address", excerpt: null, retryAfterMs: null }));
  }

  return new Promise((resolve) => {
    let settled = false;
    const done = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = (protocol === "https" ? https : http).request(url, {
      method: "POST",
      agent: agentFor(protocol, input.mode),
      lookup: guardedLookup(input.mode),
      headers: {
        ...input.headers,
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(input.body)),
        "user-agent": "merchant-console-webhooks/1",
      },
    });
    const timer = setTimeout(() => {
      const error = Object.assign(new Error("destination timed out"), { code: "ETIMEDOUT_DESTINATION" });
      request.destroy(error);
    }, timeoutMs());
    request.on("error", (error) => done(finish({ status: null, error: errorKind(error), excerpt: null, retryAfterMs: null })));
    request.on("response", (response) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let read = 0;
      response.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read <= EXCERPT_BYTES + chunk.length) chunks.push(chunk);
        if (read > READ_LIMIT_BYTES) response.destroy();
      });
      const complete = () => {
        let excerpt =
          chunks.length === 0
            ? ""
            : Buffer.concat(chunks)
                .subarray(0, EXCERPT_BYTES)
                .toString("utf8")
                .replace(/\uFFFD+$/, "");
        if (excerpt) {
          for (const secret of input.secrets ?? []) if (secret) excerpt = excerpt.split(secret).join("[REDACTED]");
          excerpt = redactText(excerpt);
        }
        done(
          finish({
            ok: status >= 200 && status < 300,
            status,
            error: status >= 300 && status < 400 ? "redirect" : null,
            excerpt: excerpt.length > 0 ? excerpt : null,
            retryAfterMs: status === 429 ? parseRetryAfter(response.headers["retry-after"]) : null,
          }),
        );
      };
      response.on("end", complete);
      response.on("close", complete);
      response.on("error", () => complete());
    });
    request.end(input.body);
  });
}
