import type { ActionResult } from "./safe-action";

/** The browser never got the action's answer: the request failed, or what came back was not one. */
export type NoAnswer = { noAnswer: true; error: unknown };

function isActionResult(value: unknown): value is ActionResult<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { ok?: unknown }).ok === "boolean";
}

/**
 * Calls a server action from the browser and tells its answer apart from no answer at all (the
 * server died mid-request, the network dropped, a proxy answered instead). Without an answer the
 * outcome is unknown: the action may have done its work, so the caller must not call it a failure
 * and must send the same values again (the same identifier) if it retries.
 */
export async function answerOf<R>(call: () => Promise<ActionResult<R>>): Promise<ActionResult<R> | NoAnswer> {
  let result: unknown;
  try {
    result = await call();
  } catch (error) {
    return { noAnswer: true, error };
  }
  return isActionResult(result) ? (result as ActionResult<R>) : { noAnswer: true, error: new Error("not an action result") };
}

export function isNoAnswer<R>(value: ActionResult<R> | NoAnswer): value is NoAnswer {
  return "noAnswer" in value;
}
