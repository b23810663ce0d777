import { inputProblem } from "./input";

/**
 * A small JSON body for an API route: at most `limit` bytes, parsed, and refused (undefined) when
 * it is too large, not JSON, or hostile (NUL and control characters, absurd depth or size).
 * The caller's schema decides the rest.
 */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) return undefined;
  const text = await request.text();
  if (Buffer.byteLength(text, "utf8") > limit) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return inputProblem(value) ? undefined : value;
}
