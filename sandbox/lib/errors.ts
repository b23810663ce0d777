import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** Error codes of the sandbox. Only GATEWAY_INVALID_ARGUMENT is named by the interface. */
export const ErrorCodes = {
  validation: "GATEWAY_VALIDATION_ERROR",
  malformedJson: "GATEWAY_MALFORMED_JSON",
  unauthorized: "GATEWAY_UNAUTHORIZED",
  forbidden: "GATEWAY_FORBIDDEN",
  notFound: "GATEWAY_NOT_FOUND",
  invalidArgument: "GATEWAY_INVALID_ARGUMENT",
  insufficientBalance: "GATEWAY_INSUFFICIENT_BALANCE",
  invalidTransition: "SANDBOX_INVALID_TRANSITION",
  payloadTooLarge: "GATEWAY_PAYLOAD_TOO_LARGE",
  rateLimited: "GATEWAY_RATE_LIMITED",
  injectedFault: "SANDBOX_INJECTED_FAULT",
  internal: "GATEWAY_INTERNAL_ERROR",
} as const;

export class GatewayError extends Error {
  constructor(
    readonly statusCode: ContentfulStatusCode,
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new GatewayError(400, ErrorCodes.validation, message);
export const notFound = (message: string) => new GatewayError(404, ErrorCodes.notFound, message);
export const invalidArgument = (message: string) => new GatewayError(422, ErrorCodes.invalidArgument, message);
export const conflict = (message: string) => new GatewayError(409, ErrorCodes.invalidTransition, message);

export function errorBody(statusCode: number, errorCode: string, message: string) {
  return { statusCode, errorCode, message };
}

export function errorResponse(c: Context, err: GatewayError, headers?: Record<string, string>) {
  return c.json(errorBody(err.statusCode, err.errorCode, err.message), err.statusCode, headers);
}
