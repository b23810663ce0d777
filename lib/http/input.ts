import { checkJsonValue, INPUT_LIMITS } from "@/sandbox/lib/input-guard";

/**
 * The console's generic input layer (the same limits as the sandbox's): depth, sizes, NUL and
 * control characters, non-finite numbers. Schemas then check meaning; this refuses what no
 * schema should ever have to see (and what a database driver would answer with SQL text).
 */
export function inputProblem(value: unknown): string | null {
  return checkJsonValue(value, INPUT_LIMITS);
}

/** Query strings of route handlers: control characters, over-long values. */
export function searchParamsProblem(url: string): string | null {
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return "The URL is not valid";
  }
  const values: Record<string, string> = {};
  for (const [key, value] of params) {
    if (value.length > INPUT_LIMITS.maxQueryValueChars) return `Query parameter ${key.slice(0, 40)} is too long`;
    values[key] = value;
  }
  return checkJsonValue(values, INPUT_LIMITS);
}

export const badRequest = (message: string) =>
  new Response(JSON.stringify({ error: "invalid_input", message }), {
    status: 400,
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  });

// NUL and C0 controls other than tab, newline and carriage return.
 
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export function hasControlCharacters(text: string): boolean {
  return CONTROL_CHARS.test(text);
}
