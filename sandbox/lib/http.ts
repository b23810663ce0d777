import { createHash, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import type { HttpBindings } from "@hono/node-server";
import type { z } from "zod";
import type { Producer, SandboxContext } from "../context";
import { badRequest, ErrorCodes, errorResponse, GatewayError } from "./errors";

export type AppEnv = { Bindings: HttpBindings; Variables: { producer: Producer; ignoredFields?: string[] } };
export type AppContext = Context<AppEnv>;

export const MAX_BODY_BYTES = 1024 * 1024;

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type" && /received undefined/.test(issue.message)) return "obrigatório";
  if (issue.code === "invalid_type") return `tipo inválido (esperado ${issue.expected})`;
  if (issue.code === "invalid_format") return issue.message.startsWith("Invalid") ? `formato inválido (${issue.format})` : issue.message;
  if (issue.code === "invalid_value") return `valor não aceito (${issue.values.map(String).join(", ")})`;
  if (issue.code === "too_small")
    return issue.message.startsWith("Too small") ? `abaixo do mínimo (${String(issue.minimum)})` : issue.message;
  if (issue.code === "too_big") return issue.message.startsWith("Too big") ? `acima do máximo (${String(issue.maximum)})` : issue.message;
  if (issue.code === "unrecognized_keys") return `campo desconhecido (${issue.keys.join(", ")})`;
  if (issue.code === "not_multiple_of") return `deve ser múltiplo de ${String(issue.divisor)}`;
  if (issue.code === "invalid_union" || issue.code === "invalid_key" || issue.code === "invalid_element") return "valor inválido";
  // custom: the schemas' own refinements, written in Portuguese.
  return issue.message;
}

/** Formats zod issues as `path.to.field: mensagem; …` (in Portuguese, like the family's gateways) so the caller sees which field is wrong. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      const message = issueMessage(issue);
      return path ? `${path}: ${message}` : message;
    })
    .join("; ");
}

/** Empty strings and nulls count as absent, as the family's gateways read them. */
function withoutBlanks(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutBlanks);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== "" && v !== null)
        .map(([k, v]) => [k, withoutBlanks(v)]),
    );
  }
  return value;
}

/** The fields of `raw` the parsed body does not have: unknown to the interface, ignored. */
export function ignoredFields(raw: unknown, parsed: unknown, prefix = ""): string[] {
  if (!raw || typeof raw !== "object" || Array.isArray(raw) || !parsed || typeof parsed !== "object") return [];
  return Object.entries(raw as Record<string, unknown>).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    if (!(key in (parsed as Record<string, unknown>))) return value === "" || value === null ? [] : [path];
    return ignoredFields(value, (parsed as Record<string, unknown>)[key], path);
  });
}

/** No request of the interface nests deeper than this; deeper bodies are refused before anything walks them. */
const MAX_JSON_DEPTH = 32;

/** What a body must not hold before anything reads it: deeper nesting than the interface has, or NUL characters (no database stores them). */
function unreadable(value: unknown): string | null {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node === "string" && node.includes("\u0000")) return "caractere NUL não é aceito";
    if (!node || typeof node !== "object") continue;
    if (depth > MAX_JSON_DEPTH) return `JSON aninhado demais (máximo ${MAX_JSON_DEPTH} níveis)`;
    for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
      if (key.includes("\u0000")) return "caractere NUL não é aceito";
      stack.push([child, depth + 1]);
    }
  }
  return null;
}

/** Query parameters with NUL characters are refused the same way. */
export function checkQuery(query: Record<string, string>): void {
  if (Object.entries(query).some(([k, v]) => k.includes("\u0000") || v.includes("\u0000"))) throw badRequest("caractere NUL não é aceito");
}

export async function readJson(c: AppContext): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") throw badRequest("Corpo da requisição vazio: envie um objeto JSON");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new GatewayError(400, ErrorCodes.malformedJson, `JSON malformado: ${(err as Error).message}`);
  }
  const problem = unreadable(json);
  if (problem) throw new GatewayError(400, ErrorCodes.malformedJson, problem);
  return json;
}

export async function readBody<T extends z.ZodType>(c: AppContext, schema: T): Promise<z.output<T>> {
  const json = await readJson(c);
  // The gateway interface reads blanks as absent, as the family's gateways do; the control API is exact.
  const lenient = c.req.path.startsWith("/api/v1/gateway/");
  const parsed = schema.safeParse(lenient ? withoutBlanks(json) : json);
  if (!parsed.success) throw badRequest(describeIssues(parsed.error.issues));
  const ignored = ignoredFields(json, parsed.data);
  if (ignored.length > 0) c.set("ignoredFields", ignored);
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
      return errorResponse(c, new GatewayError(401, ErrorCodes.unauthorized, "Cabeçalhos x-public-key e x-secret-key ausentes"));
    }
    const producer = ctx.producers.findByPublicKey(publicKey);
    // Compare against a dummy when the key is unknown so timing does not reveal which part failed.
    const ok = secretMatches(secretKey, producer?.secretKey ?? "\u0000invalid") && !!producer;
    if (!ok || !producer) {
      return errorResponse(c, new GatewayError(401, ErrorCodes.unauthorized, "Chave pública ou secreta inválida"));
    }
    c.set("producer", producer);
    await next();
  };
}
