import { z } from "zod";
import { hasControlCharacters, INPUT_LIMITS } from "./input";

/** What Next.js hands a page: a key given twice arrives as an array. */
export type RawSearchParams = Record<string, string | string[] | undefined>;

/** Why a value was dropped; each has a sentence in the `params` messages. */
export type ParamReason = "repeated" | "control" | "tooLong" | "day" | "text" | "choice" | "amount" | "page" | "id";

export type ParamProblem = { param: string; reason: ParamReason };

/** One parameter: its schema, and the reason given when a value fails it. */
export type ParamSpec<T> = { schema: z.ZodType<T>; reason: ParamReason };

type Values<S extends Record<string, ParamSpec<unknown>>> = { [K in keyof S]: S[K] extends ParamSpec<infer T> ? T | undefined : never };

// Years 0000 or 275760 pass an ISO pattern but reach the database as an invalid date.
const DAY = z.iso.date().refine((value) => {
  const year = Number(value.slice(0, 4));
  return year >= 2000 && year <= 2100;
});

/** The building blocks pages describe their parameters with. */
export const param = {
  /** Free text (a search, a prefix, a status the gateway spells): trimmed, no control characters. */
  text: (max = 200): ParamSpec<string> => ({ schema: z.string().trim().min(1).max(max), reason: "text" }),
  /** A São Paulo calendar day, `YYYY-MM-DD`, years 2000–2100. */
  day: (): ParamSpec<string> => ({ schema: DAY, reason: "day" }),
  /** One of a known set (an account the user can see, a view, a kind). */
  oneOf: <const T extends string>(values: readonly T[]): ParamSpec<T> => ({
    schema: z.custom<T>((value) => typeof value === "string" && (values as readonly string[]).includes(value)),
    reason: "choice",
  }),
  /** A keyset position: digits only, no leading zero, at most 15 of them (a safe integer). */
  position: (): ParamSpec<number> => ({
    schema: z
      .string()
      .regex(/^[1-9]\d{0,14}$/)
      .transform(Number),
    reason: "page",
  }),
  /** An opaque cursor the page itself wrote (checked again where it is decoded). */
  cursor: (pattern: RegExp = /^[A-Za-z0-9_-]{1,400}$/): ParamSpec<string> => ({ schema: z.string().regex(pattern), reason: "page" }),
  custom: <T>(schema: z.ZodType<T>, reason: ParamReason): ParamSpec<T> => ({ schema, reason }),
};

/**
 * One rule for every page's query string: each known parameter either parses or is dropped (its
 * value is then `undefined`, the page's default) with a problem naming it. A repeated key, a
 * control character (NUL included) or an over-long value is a problem before any schema runs;
 * an empty value is simply absent (what an empty form field sends). Unknown keys are ignored.
 */
export function parseSearchParams<S extends Record<string, ParamSpec<unknown>>>(
  raw: RawSearchParams,
  specs: S,
): { values: Values<S>; problems: ParamProblem[] } {
  const values: Record<string, unknown> = {};
  const problems: ParamProblem[] = [];
  for (const [key, spec] of Object.entries(specs)) {
    const value = Object.hasOwn(raw, key) ? raw[key] : undefined;
    values[key] = undefined;
    if (value === undefined || (typeof value === "string" && value.trim() === "")) continue;
    const reason = preliminary(value) ?? attempt(spec, value as string, values, key);
    if (reason) problems.push({ param: key, reason });
  }
  return { values: values as Values<S>, problems };
}

function preliminary(value: string | string[]): ParamReason | null {
  if (Array.isArray(value)) return "repeated";
  if (hasControlCharacters(value) || /[\t\n\r]/.test(value)) return "control";
  if (value.length > INPUT_LIMITS.maxQueryValueChars) return "tooLong";
  return null;
}

function attempt(spec: ParamSpec<unknown>, value: string, into: Record<string, unknown>, key: string): ParamReason | null {
  const result = spec.schema.safeParse(value);
  if (!result.success) return spec.reason;
  into[key] = result.data;
  return null;
}

/** A URL's query as Next.js hands one to a page (a repeated key as an array), so that a route handler reads it as its page does. */
export function rawSearchParams(url: URL): RawSearchParams {
  const raw: RawSearchParams = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    raw[key] = all.length > 1 ? all : all[0];
  }
  return raw;
}

/** The raw query without the parameters that had a problem: what links and forms may carry on. */
export function withoutProblems(raw: RawSearchParams, problems: readonly ParamProblem[]): RawSearchParams {
  const bad = new Set(problems.map((p) => p.param));
  return Object.fromEntries(Object.entries(raw).filter(([key]) => !bad.has(key)));
}

// Ids the console generates are UUIDs (gen_random_uuid(), crypto.randomUUID()).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A dynamic route segment that names a record by id, or null when it cannot be one (the page
 * answers not found). Next.js may hand the segment still percent-encoded; a malformed escape is
 * not an id either.
 */
export function routeId(segment: string): string | null {
  let value = segment;
  if (value.includes("%")) {
    try {
      value = decodeURIComponent(value);
    } catch {
      return null;
    }
  }
  return UUID.test(value) ? value.toLowerCase() : null;
}
