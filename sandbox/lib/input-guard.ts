import type { MiddlewareHandler } from "hono";
import { ErrorCodes, errorBody } from "./errors";

/** Generic limits applied before any route: every refusal is a 4xx with a plain message. */
export const INPUT_LIMITS = {
  maxPathChars: 2_048,
  maxQueryValueChars: 512,
  maxJsonDepth: 32,
  maxStringChars: 10_000,
  maxKeys: 2_000,
} as const;

// NUL and C0 controls other than tab, newline and carriage return.

const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export type InputProblem = string | null;

/** Depth, string length, key count and control characters of a parsed JSON value. */
export function checkJsonValue(value: unknown, limits = INPUT_LIMITS): InputProblem {
  let keys = 0;
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  while (stack.length) {
    const { v, depth } = stack.pop()!;
    if (depth > limits.maxJsonDepth) return `JSON aninhado demais (máximo ${limits.maxJsonDepth} níveis)`;
    if (typeof v === "string") {
      if (v.length > limits.maxStringChars) return `Um texto passa de ${limits.maxStringChars} caracteres`;
      if (CONTROL_CHARS.test(v)) return "Um texto tem caracteres de controle";
    } else if (typeof v === "number") {
      if (!Number.isFinite(v)) return "Um número está fora do intervalo aceito";
    } else if (Array.isArray(v)) {
      keys += v.length;
      for (const item of v) stack.push({ v: item, depth: depth + 1 });
    } else if (v && typeof v === "object") {
      for (const [k, item] of Object.entries(v)) {
        keys++;
        if (k.length > 256 || CONTROL_CHARS.test(k)) return "Um nome de campo é inválido";
        stack.push({ v: item, depth: depth + 1 });
      }
    }
    if (keys > limits.maxKeys) return `Mais de ${limits.maxKeys} campos`;
  }
  return null;
}

/** Quick depth scan on the raw text, so a deeply nested body is refused before JSON.parse recurses. */
export function rawJsonTooDeep(text: string, maxDepth = INPUT_LIMITS.maxJsonDepth): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92) i++;
      else if (ch === 34) inString = false;
      continue;
    }
    if (ch === 34) inString = true;
    else if (ch === 123 || ch === 91) {
      if (++depth > maxDepth) return true;
    } else if (ch === 125 || ch === 93) depth--;
  }
  return false;
}

function safeDecode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

/** Refuses malformed paths, queries and JSON bodies with 400 before any route or database sees them. */
export function inputGuard(limits = INPUT_LIMITS): MiddlewareHandler {
  return async (c, next) => {
    const bad = (message: string) => c.json(errorBody(400, ErrorCodes.validation, message), 400);
    const method = c.req.method;
    // Read the whole body before any answer: an answer sent over an unread body leaves Node draining it, and a
    // drain slower than 500 ms closes the kept-alive connection under the client's next request.
    const body = method === "GET" || method === "HEAD" ? "" : await c.req.text();
    const url = c.req.url;
    const pathStart = url.indexOf("/", url.indexOf("//") + 2);
    const queryStart = url.indexOf("?");
    const rawPath = url.slice(pathStart, queryStart === -1 ? undefined : queryStart);
    if (rawPath.length > limits.maxPathChars) return c.json(errorBody(414, ErrorCodes.validation, "A URL é longa demais"), 414);
    const path = safeDecode(rawPath);
    if (path === null) return bad("A URL não está codificada corretamente");
    if (CONTROL_CHARS.test(path)) return bad("A URL tem caracteres de controle");
    if (queryStart !== -1) {
      const query = url.slice(queryStart + 1);
      if (query.length > limits.maxPathChars) return c.json(errorBody(414, ErrorCodes.validation, "A URL é longa demais"), 414);
      for (const part of query.split("&")) {
        const decoded = safeDecode(part.replace(/\+/g, " "));
        if (decoded === null) return bad("A query string não está codificada corretamente");
        if (CONTROL_CHARS.test(decoded)) return bad("A query string tem caracteres de controle");
        if (decoded.length > limits.maxQueryValueChars)
          return bad(`Um parâmetro da query passa de ${limits.maxQueryValueChars} caracteres`);
      }
    }
    if (method === "POST" || method === "PUT" || method === "PATCH") {
      const type = c.req.header("content-type") ?? "";
      if (type === "" || type.includes("json")) {
        const text = body;
        if (text.trim() !== "") {
          if (rawJsonTooDeep(text, limits.maxJsonDepth)) return bad(`JSON aninhado demais (máximo ${limits.maxJsonDepth} níveis)`);
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            // The route answers malformed JSON with its own message.
            return next();
          }
          const problem = checkJsonValue(parsed, limits);
          if (problem) return bad(problem);
        }
      }
    }
    await next();
  };
}
