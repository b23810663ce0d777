import "server-only";

export {
  createGatewayClient,
  DEFAULT_RETRY,
  type CallOptions,
  type GatewayClient,
  type GatewayClientOptions,
  type RetryOptions,
} from "./client";
export {
  GATEWAY_ERROR_KINDS,
  GatewayError,
  isGatewayError,
  kindForStatus,
  parseRetryAfter,
  type GatewayErrorKind,
  type GatewayIssue,
} from "./errors";
export { consoleLogger, redactingLogger, type GatewayLogger, type LogLevel } from "./log";
export { redact } from "@/lib/log/redact";
export * from "./schemas";
