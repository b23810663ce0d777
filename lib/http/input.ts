/** The console's generic limits (the sandbox keeps its own, alike): every refusal is a 4xx with a plain message. */
export const INPUT_LIMITS = {
  maxPathChars: 2_048,
  maxQueryValueChars: 512,
  maxJsonDepth: 32,
  maxStringChars: 10_000,
  maxKeys: 2_000,
} as const;

// NUL and C0 controls other than tab, newline and carriage return.

const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Depth, string length, key count and control characters of a parsed JSON value. */
export function checkJsonValue(value: unknown, limits = INPUT_LIMITS): string | null {
  let keys = 0;
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  while (stack.length) {
    const { v, depth } = stack.pop()!;
    if (depth > limits.maxJsonDepth) return `JSON nested deeper than ${limits.maxJsonDepth} levels`;
    if (typeof v === "string") {
      if (v.length > limits.maxStringChars) return `A string is longer than ${limits.maxStringChars} characters`;
      if (CONTROL_CHARS.test(v)) return "A string contains control characters";
    } else if (typeof v === "number") {
      if (!Number.isFinite(v)) return "A number is out of range";
    } else if (Array.isArray(v)) {
      keys += v.length;
      for (const item of v) stack.push({ v: item, depth: depth + 1 });
    } else if (v && typeof v === "object") {
      for (const [k, item] of Object.entries(v)) {
        keys++;
        if (k.length > 256 || CONTROL_CHARS.test(k)) return "A field name is invalid";
        stack.push({ v: item, depth: depth + 1 });
      }
    }
    if (keys > limits.maxKeys) return `More than ${limits.maxKeys} fields`;
  }
  return null;
}

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

export function hasControlCharacters(text: string): boolean {
  return CONTROL_CHARS.test(text);
}
