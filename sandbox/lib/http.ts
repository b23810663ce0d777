import { createHash, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import type { HttpBindings } from "@hono/node-server";
import type { z } from "zod";
import type { Producer, SandboxContext } from "../context";
import { badRequest, ErrorCodes, errorResponse, GatewayError } from "./errors";

export type AppEnv = { Bindings: HttpBindings; Variables: { producer: Producer } };
export type AppContext = Context<AppEnv>;

export const MAX_BODY_BYTES = 1024 * 1024;

/** Formats zod issues as `path.to.field: message; …` so the caller sees which field is wrong. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      let message = issue.message;
      if (issue.code === "unrecognized_keys") message = `unknown field(s) ${issue.keys.join(", ")}`;
      if (issue.code === "invalid_type" && /received undefined/.test(issue.message)) message = "is required";
      return path ? `${path}: ${message}` : message;
    })
    .join("; ");
}

export async function readJson(c: AppContext): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") throw badRequest("Request body is empty; send a JSON object");
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new GatewayError(400, ErrorCodes.malformedJson, `Malformed JSON body: ${(err as Error).message}`);
  }
}

export async function readBody<T extends z.ZodType>(c: AppContext, schema: T): Promise<z.output<T>> {
  const json = await readJson(c);
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw badRequest(describeIssues(parsed.error.issues));
  return parsed.data;
}

/** Socket address of the caller, IPv4-mapped and loopback forms normalised. */
export function callerIp(c: AppContext): string | null {
  const raw = c.env?.incoming?.socket?.remoteAddress;
  return raw ? normalizeIp(raw) : null;
}

export function normalizeIp(ip: string): string {
  const trimmed = ip.trim();
  if (trimmed === "::1") return "127.0.0.1";
  if (trimmed.toLowerCase().startsWith("::ffff:")) return trimmed.slice(7);
  return trimmed;
}

const digest = (value: string) => createHash("sha256").update(value).digest();

function secretMatches(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** Authenticates `x-public-key` + `x-secret-key`; 401 with the error body otherwise. */
export function requireProducer(ctx: SandboxContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const publicKey = c.req.header("x-public-key");
    const secretKey = c.req.header("x-secret-key");
    if (!publicKey || !secretKey) {
      return errorResponse(c, new GatewayError(401, ErrorCodes.unauthorized, "Missing x-public-key or x-secret-key header"));
    }
    const producer = ctx.producers.findByPublicKey(publicKey);
    // Compare against a dummy when the key is unknown so timing does not reveal which part failed.
    const ok = secretMatches(secretKey, producer?.secretKey ?? "\u0000invalid") && !!producer;
    if (!ok || !producer) {
      return errorResponse(c, new GatewayError(401, ErrorCodes.unauthorized, "Invalid public key or secret key"));
    }
    c.set("producer", producer);
    await next();
  };
}
