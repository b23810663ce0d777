import "server-only";
import { writeAudit } from "@/lib/audit/log";
import { secondFactorForMoneyOut } from "@/lib/auth/second-factor";
import type { Role } from "@/lib/db/schema";
import { checkOwnPassword } from "@/lib/users/queries";
import { isGatewayError, type GatewayError } from "@/lib/gateway";
import { webhookUrlFor } from "@/lib/gateway/connection";
import { submit, type SubmissionActor } from "@/lib/submissions/engine";
import type { TransferInput } from "./schemas";
import { newCallbackKey } from "./callback-key";
import { isInsufficientBalance, TransferRefusedError } from "./errors";
import { ownerIpOf } from "./owner-ip";
import { explainedRefusal } from "./refusals";
import { transferSubmissions } from "./submission";

export { DailyLimitError } from "./submission";

export type SubmitTransferResult = { transferId: string; replayed: boolean };

/**
 * The second confirmation of money out, refused before anything is recorded: the user's password
 * (throttled per user), and the code from the authenticator app when the user has one. A role
 * that administrators require a second factor for cannot move money without enrolling first.
 */
export async function confirmMoneyOut(
  actor: SubmissionActor & { role: Role },
  proof: { password: string; code?: string },
  audit: { accountId: string; ip: string | null; identifier: string; prefix?: "transfer" | "payout_batch" },
) {
  const prefix = audit.prefix ?? "transfer";
  const refuse = async (action: string, reason: "wrongPassword" | "codeRequired" | "wrongCode", field: "password" | "code") => {
    await writeAudit({ actor, accountId: audit.accountId, action, target: audit.identifier, ip: audit.ip });
    throw new TransferRefusedError(reason, { field });
  };
  const password = await checkOwnPassword(actor.id, proof.password);
  if (password === "throttled") {
    await writeAudit({ actor, accountId: audit.accountId, action: `${prefix}.password_throttled`, target: audit.identifier, ip: audit.ip });
    throw new TransferRefusedError("tooManyAttempts", { field: "password" });
  }
  if (password === "wrong_password") return refuse(`${prefix}.password_refused`, "wrongPassword", "password");

  const refusal = await secondFactorForMoneyOut(actor, proof.code, { ip: audit.ip, purpose: prefix });
  if (refusal === "secondFactorRequired") throw new TransferRefusedError("secondFactorRequired");
  if (refusal === "codeRequired") return refuse(`${prefix}.code_missing`, "codeRequired", "code");
  if (refusal === "tooManyAttempts") throw new TransferRefusedError("tooManyAttempts", { field: "code" });
  if (refusal === "wrongCode") return refuse(`${prefix}.code_refused`, "wrongCode", "code");
}

function refusalFor(error: GatewayError): TransferRefusedError {
  const gatewayMessage = error.gatewayMessage;
  switch (error.kind) {
    case "auth":
      return new TransferRefusedError("keysRejected", { gatewayMessage });
    case "forbidden":
      return new TransferRefusedError("forbidden", { gatewayMessage });
    case "validation":
    case "conflict":
    case "invalid_request": {
      if (isInsufficientBalance(error)) return new TransferRefusedError("insufficientBalance", { gatewayMessage });
      const said = gatewayMessage ?? error.issues?.map((i) => `${i.path}: ${i.message}`).join("; ");
      return new TransferRefusedError("gatewayRefused", {
        gatewayMessage: said,
        explained: explainedRefusal(gatewayMessage, error.issues) ?? undefined,
      });
    }
    case "rate_limited":
      return new TransferRefusedError("rateLimited", { gatewayMessage });
    default:
      return new TransferRefusedError("gatewayUnavailable", { gatewayMessage });
  }
}

/**
 * Submits a transfer through the submission engine (lib/submissions/engine.ts): recorded
 * (SUBMITTING) before it leaves, so one identifier is never sent twice. A re-submission returns
 * the recorded result; an unresolved one is refused.
 */
export async function submitTransfer(params: {
  accountId: string;
  actor: SubmissionActor;
  ip: string | null;
  input: TransferInput;
}): Promise<SubmitTransferResult> {
  const { accountId, actor, ip, input } = params;
  const ownerIp = ownerIpOf(ip);
  if (!ownerIp) {
    await writeAudit({ actor, accountId, action: "transfer.refused_no_ip", target: input.identifier, ip, details: { ip } });
    throw new TransferRefusedError("ipUnknown");
  }
  // Recorded before the call: a notification on this path authenticates even if the answer (and its token) is lost.
  const callbackKey = newCallbackKey();
  const callbackUrl = webhookUrlFor(accountId, callbackKey);
  const result = await submit(transferSubmissions, { accountId, actor, ip, input, ownerIp, callbackKey, callbackUrl }, { actor, ip });
  const transferId = result.row.id;
  if (result.replayed) {
    if (result.row.submission === "SUBMITTED") return { transferId, replayed: true };
    // SUBMITTING or UNKNOWN: the gateway may have it; only a transfer notification can tell.
    throw new TransferRefusedError("unresolved", { transferId });
  }
  if (result.outcome !== "rejected") return { transferId, replayed: false };
  if (isGatewayError(result.error)) throw refusalFor(result.error);
  throw new TransferRefusedError("gatewayUnavailable");
}
