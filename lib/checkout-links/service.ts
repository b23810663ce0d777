import "server-only";
import { isGatewayError } from "@/lib/gateway";
import { submit, type SubmissionActor } from "@/lib/submissions/engine";
import type { CheckoutLinkInput } from "./schemas";
import { checkoutLinkSubmissions } from "./submission";

/** Why the gateway did not create the link; the action turns it into a message. */
export type CheckoutLinkRefusalReason = "forbidden" | "keysRejected" | "gatewayRefused" | "outcomeUnknown" | "gatewayUnavailable";

export class CheckoutLinkRefusedError extends Error {
  constructor(
    readonly reason: CheckoutLinkRefusalReason,
    /** The gateway's own words, shown as secondary text. */
    readonly gatewayMessage?: string,
  ) {
    super(`checkout link refused: ${reason}`);
  }
}

/**
 * Creates a hosted checkout link through the submission engine (lib/submissions/engine.ts):
 * recorded before the request leaves, the answer classified once.
 */
export async function createCheckoutLink(params: {
  accountId: string;
  actor: SubmissionActor;
  ip: string | null;
  input: CheckoutLinkInput;
}): Promise<{ id: string; checkoutUrl: string }> {
  const { accountId, actor, ip, input } = params;
  const result = await submit(checkoutLinkSubmissions, { accountId, actor, ip, input }, { actor, ip });
  // Each submission has an identifier of its own: nothing is ever replayed.
  if (result.replayed) throw new Error("checkout link identifier reused");
  const { row, error } = result;
  if (result.outcome === "created" && row.checkoutUrl) return { id: row.id, checkoutUrl: row.checkoutUrl };
  if (!isGatewayError(error)) throw error;
  const message = error.gatewayMessage ?? error.issues?.map((i) => `${i.path}: ${i.message}`).join("; ");
  // An answer the console could not read (a 4xx with a proxy's page, say) refuses nothing: the engine kept the link UNKNOWN.
  if (result.outcome === "unknown") throw new CheckoutLinkRefusedError("outcomeUnknown", message);
  switch (error.kind) {
    case "forbidden":
      throw new CheckoutLinkRefusedError("forbidden", message);
    case "auth":
      throw new CheckoutLinkRefusedError("keysRejected", message);
    case "validation":
    case "invalid_request":
    case "conflict":
      throw new CheckoutLinkRefusedError("gatewayRefused", message);
    default:
      throw new CheckoutLinkRefusedError("gatewayUnavailable", message);
  }
}
