/**
 * Logging for the gateway client: every field set goes through `redact` (lib/log/redact.ts).
 *
 * No `server-only` here so that the webhook route, the sandbox and scripts can reuse it;
 * nothing in this module holds a key.
 */
import { redact, type RedactOptions } from "../log/redact";

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface GatewayLogger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}

function isSilentByDefault(): boolean {
  return process.env.NODE_ENV === "test" && process.env.GATEWAY_LOG !== "1";
}

/** JSON lines on the console; silent under NODE_ENV=test unless GATEWAY_LOG=1. */
export const consoleLogger: GatewayLogger = {
  log(level, message, fields) {
    if (isSilentByDefault()) return;
    const line = JSON.stringify({ time: new Date().toISOString(), level, scope: "gateway", message, ...fields });
    if (level === "error" || level === "warn") console.error(line);
    else console.log(line);
  },
};

/** Wraps a logger so every field set passes through `redact` first, and a throwing logger cannot break a call. */
export function redactingLogger(inner: GatewayLogger, options: RedactOptions = {}): GatewayLogger {
  return {
    log(level, message, fields) {
      try {
        inner.log(level, redact(message, options), fields === undefined ? undefined : redact(fields, options));
      } catch {
        // Logging must never turn a successful payment call into a failure.
      }
    },
  };
}
