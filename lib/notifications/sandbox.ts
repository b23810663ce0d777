import "server-only";
import { getAccountCredentials } from "@/lib/accounts/queries";
import { webhookUrlFor } from "@/lib/gateway/connection";
import type { SANDBOX_EVENTS } from "./schemas";

export { SANDBOX_EVENTS } from "./schemas";

type SandboxPaymentEvent = (typeof SANDBOX_EVENTS)[number];

class SandboxControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The sandbox's control API, spoken over HTTP like any client would (the console does not load
 * the sandbox's code). The keys go only to the account's saved base URL: a redirect is refused,
 * never followed.
 */
function sandboxControl(opts: { baseUrl: string; publicKey: string; secretKey: string; timeoutMs: number }) {
  const base = opts.baseUrl.replace(/\/+$/, "");
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${base}/sandbox/v1${path}`, {
      method,
      redirect: "manual",
      signal: AbortSignal.timeout(opts.timeoutMs),
      headers: {
        "x-public-key": opts.publicKey,
        "x-secret-key": opts.secretKey,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      throw new SandboxControlError(res.status, `HTTP ${res.status}`);
    }
    if (res.status < 200 || res.status >= 300)
      throw new SandboxControlError(res.status, typeof json.message === "string" ? json.message : `HTTP ${res.status}`);
    return json as T;
  }
  const id = (value: string) => encodeURIComponent(value);
  return {
    settings: () => call<{ webhookUrl?: string | null }>("GET", "/settings"),
    setWebhookUrl: (webhookUrl: string | null) => call<{ webhookUrl: string | null }>("PUT", "/settings", { webhookUrl }),
    notify: (transactionId: string, event: SandboxPaymentEvent) =>
      call<{ queued: boolean }>("POST", `/transactions/${id(transactionId)}/notify`, { event }),
  };
}

const DETECT_TIMEOUT_MS = 1_500;
const DETECT_CACHE_MS = 60_000;
const detectCache = new Map<string, { isSandbox: boolean; webhookUrl: string | null; until: number }>();

async function controlFor(accountId: string, timeoutMs?: number) {
  const credentials = await getAccountCredentials(accountId);
  if (!credentials) return null;
  return sandboxControl({
    baseUrl: credentials.baseUrl,
    publicKey: credentials.publicKey,
    secretKey: credentials.secretKey,
    timeoutMs: timeoutMs ?? 10_000,
  });
}

/**
 * A keyless probe: the sandbox publishes its OpenAPI document with a "(sandbox)" title. Only a
 * base URL that answers it directly (no redirect) is ever sent the keys by the control client.
 */
async function looksLikeSandbox(accountId: string): Promise<boolean> {
  const credentials = await getAccountCredentials(accountId);
  if (!credentials) return false;
  const res = await fetch(`${credentials.baseUrl.replace(/\/+$/, "")}/openapi.json`, {
    redirect: "manual",
    signal: AbortSignal.timeout(DETECT_TIMEOUT_MS),
  });
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => {});
    return false;
  }
  const doc = (await res.json().catch(() => null)) as { info?: { title?: unknown } } | null;
  return typeof doc?.info?.title === "string" && doc.info.title.includes("(sandbox)");
}

/**
 * Whether the account's base URL is the sandbox gateway: it answers the keyless probe, then its
 * control API answers the account's keys with its settings. Anything else (a real gateway, an
 * error, a redirect, a timeout) means no.
 */
export async function detectSandbox(accountId: string, { fresh = false } = {}): Promise<{ isSandbox: boolean; webhookUrl: string | null }> {
  const cached = detectCache.get(accountId);
  if (!fresh && cached && cached.until > Date.now()) return cached;
  let result = { isSandbox: false, webhookUrl: null as string | null };
  try {
    const control = (await looksLikeSandbox(accountId)) ? await controlFor(accountId, DETECT_TIMEOUT_MS) : null;
    const settings = control ? await control.settings() : null;
    if (settings && "webhookUrl" in settings) result = { isSandbox: true, webhookUrl: settings.webhookUrl ?? null };
  } catch {
    // not a sandbox, or unreachable
  }
  detectCache.set(accountId, { ...result, until: Date.now() + DETECT_CACHE_MS });
  return result;
}

/**
 * Points the sandbox producer's default webhook URL (used by hosted checkout sales) at this
 * console. Returns false when the account is not on the sandbox.
 */
export async function configureSandboxWebhookUrl(accountId: string): Promise<boolean> {
  const { isSandbox } = await detectSandbox(accountId, { fresh: true });
  if (!isSandbox) return false;
  const control = await controlFor(accountId);
  if (!control) return false;
  const { webhookUrl } = await control.setWebhookUrl(webhookUrlFor(accountId));
  detectCache.set(accountId, { isSandbox: true, webhookUrl, until: Date.now() + DETECT_CACHE_MS });
  return true;
}

export type EmitResult = { ok: true } | { ok: false; status: number; message: string };

/** Makes the sandbox (re)send one payment notification for a transaction, without moving its state. */
export async function emitSandboxNotification(accountId: string, transactionId: string, event: SandboxPaymentEvent): Promise<EmitResult> {
  const control = await controlFor(accountId);
  if (!control) return { ok: false, status: 404, message: "unknown account" };
  try {
    await control.notify(transactionId, event);
    return { ok: true };
  } catch (error) {
    if (error instanceof SandboxControlError) return { ok: false, status: error.status, message: error.message };
    return { ok: false, status: 0, message: error instanceof Error ? error.message : String(error) };
  }
}
