import type { Translate } from "@/lib/i18n/translate";

const KNOWN = new Set(["auth", "forbidden", "not_found", "rate_limited", "timeout", "network", "server", "malformed"]);

/** One sentence for a failed gateway call, by error kind; the gateway's own message is appended when it sent one. */
export function gatewayErrorMessage(t: Translate, error: { kind: string; status?: number; message?: string }): string {
  const base = KNOWN.has(error.kind)
    ? t(`transactions.gatewayErrors.${error.kind}`, { status: error.status ?? "" })
    : t("transactions.gatewayErrors.other", { kind: error.kind });
  return error.message && error.kind !== "auth" ? `${base} — ${error.message}` : base;
}
