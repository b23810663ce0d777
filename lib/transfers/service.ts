import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { ActionError } from "@/lib/actions/safe-action";
import { writeAudit } from "@/lib/audit/log";
import { secondFactorForMoneyOut } from "@/lib/auth/second-factor";
import { fromCents, toCents } from "@/lib/br";
import { encryptSecret } from "@/lib/crypto/secrets";
import { getDb } from "@/lib/db/client";
import { transfers, type Role } from "@/lib/db/schema";
import { checkOwnPassword } from "@/lib/users/dal";
import { isGatewayError, type GatewayError } from "@/lib/gateway";
import { gatewayForAccount, webhookUrlFor } from "@/lib/gateway/connection";
import type { TransferRequest, TransferResponse } from "@/lib/gateway/schemas/transfers";
import { getTransfer, getTransferSettings, transferredTodayCents, type TransferDto } from "./dal";
import type { TransferInput } from "./schemas";
import { callbackKeyHash, newCallbackKey } from "./callback-key";
import { ownerIpOf } from "./owner-ip";
import { explainedRefusal } from "./refusals";
import { closeOpenCheck, delayAfter, enqueueCheck, rescheduleOpenCheck } from "@/lib/reconcile/checks";
import { decide, transferMachine } from "@/lib/status/machine";

/** The account's gateway could not be configured: nothing was sent. */
class GatewayConfigError extends Error {
  constructor(cause: unknown) {
    super("gateway not configured", { cause });
  }
}

function gatewayTimeoutMs(): number {
  return Number(process.env.GATEWAY_TIMEOUT_MS ?? 15_000);
}

type Actor = { id: string; email: string };

/** The action turns this into a message with the amounts formatted for the user's locale. */
export class DailyLimitError extends Error {
  constructor(
    readonly limit: number,
    readonly usedToday: number,
  ) {
    super("daily transfer limit");
  }
  get available(): number {
    return Math.max(0, fromCents(toCents(this.limit) - toCents(this.usedToday)));
  }
}

export type SubmitTransferResult = { transferId: string; replayed: boolean };

/**
 * The second confirmation of money out, refused before anything is recorded: the user's password
 * (throttled per user), and the code from the authenticator app when the user has one. A role
 * that administrators require a second factor for cannot move money without enrolling first.
 */
export async function confirmMoneyOut(
  actor: Actor & { role: Role },
  proof: { password: string; code?: string },
  audit: { accountId: string; ip: string | null; identifier: string },
) {
  const refuse = async (action: string, key: string, field: "password" | "code") => {
    await writeAudit({ actor, accountId: audit.accountId, action, target: audit.identifier, ip: audit.ip });
    throw new ActionError(key, { fieldErrors: { [field]: [key] } });
  };
  const password = await checkOwnPassword(actor.id, proof.password);
  if (password === "throttled") {
    await writeAudit({ actor, accountId: audit.accountId, action: "transfer.password_throttled", target: audit.identifier, ip: audit.ip });
    throw new ActionError("transfers.errors.tooManyAttempts", { fieldErrors: { password: ["transfers.errors.tooManyAttempts"] } });
  }
  if (password === "wrong_password") return refuse("transfer.password_refused", "transfers.errors.wrongPassword", "password");

  const refusal = await secondFactorForMoneyOut(actor, proof.code, { ip: audit.ip, purpose: "transfer" });
  if (refusal === "secondFactorRequired") throw new ActionError("transfers.errors.secondFactorRequired");
  if (refusal === "codeRequired") return refuse("transfer.code_missing", "transfers.errors.codeRequired", "code");
  if (refusal === "tooManyAttempts") throw new ActionError("transfers.errors.tooManyAttempts", { fieldErrors: { code: ["transfers.errors.tooManyAttempts"] } });
  if (refusal === "wrongCode") return refuse("transfer.code_refused", "transfers.errors.wrongCode", "code");
}

function errorSummary(error: GatewayError) {
  return { kind: error.kind, status: error.status, errorCode: error.errorCode, message: error.gatewayMessage };
}

function refusalFor(error: GatewayError): ActionError {
  const message = error.gatewayMessage;
  switch (error.kind) {
    case "auth":
      return new ActionError("transfers.errors.keysRejected", { message });
    case "forbidden":
      return new ActionError("transfers.errors.forbidden", { message });
    case "validation":
    case "conflict":
    case "invalid_request": {
      const said = message ?? error.issues?.map((i) => `${i.path}: ${i.message}`).join("; ");
      return new ActionError(explainedRefusal(message, error.issues) ?? "transfers.errors.gatewayRefused", { message: said });
    }
    case "rate_limited":
      return new ActionError("transfers.errors.rateLimited", { message });
    default:
      return new ActionError("transfers.errors.gatewayUnavailable", { message });
  }
}

function stateOf(existing: TransferDto): SubmitTransferResult {
  if (existing.submission === "SUBMITTED") return { transferId: existing.id, replayed: true };
  // SUBMITTING or UNKNOWN: the gateway may have it; only a transfer notification can tell.
  throw new ActionError("transfers.errors.unresolved", { message: existing.id });
}

/**
 * Records the transfer (SUBMITTING) before it leaves, so one identifier is never sent twice:
 * a re-submission returns the recorded result, an unresolved one is refused.
 */
export async function submitTransfer(params: {
  accountId: string;
  actor: Actor;
  ip: string | null;
  input: TransferInput;
}): Promise<SubmitTransferResult> {
  const { accountId, actor, input } = params;
  const ip = params.ip;
  const ownerIp = ownerIpOf(ip);
  if (!ownerIp) {
    await writeAudit({ actor, accountId, action: "transfer.refused_no_ip", target: input.identifier, ip, details: { ip } });
    throw new ActionError("transfers.errors.ipUnknown");
  }
  const amountCents = toCents(input.amount);
  // Recorded before the call: a notification on this path authenticates even if the answer (and its token) is lost.
  const callbackKey = newCallbackKey();
  const callbackUrl = webhookUrlFor(accountId, callbackKey);
  const db = await getDb();

  const claimed = await db.transaction(async (tx) => {
    // Serialises this account's transfers so two submissions cannot both slip under the daily limit.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`transfers:${accountId}`}))`);
    const [existing] = await tx
      .select()
      .from(transfers)
      .where(and(eq(transfers.accountId, accountId), eq(transfers.identifier, input.identifier)))
      .limit(1);
    if (existing && existing.submission !== "REJECTED" && existing.submission !== "ABSENT") {
      return { kind: "existing", id: existing.id } as const;
    }
    const settings = await getTransferSettings(accountId, tx);
    if (settings.dailyLimitCents !== null) {
      const used = await transferredTodayCents(accountId, tx);
      if (used + amountCents > settings.dailyLimitCents) {
        return { kind: "overLimit", limit: settings.dailyLimitCents, used } as const;
      }
    }
    const values = {
      accountId,
      identifier: input.identifier,
      submission: "SUBMITTING" as const,
      amountCents,
      discountFeeOfReceiver: input.discountFeeOfReceiver,
      pixKeyType: input.pix.type,
      pixKey: input.pix.key,
      ownerName: input.owner.name,
      ownerDocumentType: input.owner.document.type,
      ownerDocumentNumber: input.owner.document.number,
      ownerIp,
      callbackUrl,
      callbackKeyHash: callbackKeyHash(callbackKey),
      error: null,
      createdBy: actor.id,
      createdByEmail: actor.email,
      updatedAt: new Date(),
    };
    let id: string;
    if (existing) {
      await tx.update(transfers).set(values).where(eq(transfers.id, existing.id));
      id = existing.id;
    } else {
      const [row] = await tx.insert(transfers).values(values).returning({ id: transfers.id });
      id = row!.id;
    }
    // If this process dies before the answer is recorded, the reconciler still finds the transfer.
    await enqueueCheck({ accountId, target: "transfer", targetId: id, reason: "unknown", delayMs: gatewayTimeoutMs() + 15_000 }, tx);
    return { kind: "claimed", id } as const;
  });

  if (claimed.kind === "existing") {
    const existing = await getTransfer(accountId, claimed.id);
    return stateOf(existing!);
  }
  if (claimed.kind === "overLimit") {
    const { limit, used } = claimed;
    await writeAudit({
      actor,
      accountId,
      action: "transfer.refused_daily_limit",
      target: input.identifier,
      ip,
      details: { amount: input.amount, limit: fromCents(limit), usedToday: fromCents(used) },
    });
    throw new DailyLimitError(fromCents(limit), fromCents(used));
  }

  const transferId = claimed.id;
  const request: TransferRequest = {
    identifier: input.identifier,
    amount: input.amount,
    discountFeeOfReceiver: input.discountFeeOfReceiver,
    callbackUrl,
    pix: input.pix,
    owner: { ip: ownerIp, name: input.owner.name, document: input.owner.document },
  };
  const auditDetails = {
    transferId,
    amount: input.amount,
    discountFeeOfReceiver: input.discountFeeOfReceiver,
    pixKeyType: input.pix.type,
    ownerName: input.owner.name,
  };

  let response: TransferResponse;
  try {
    const gateway = await gatewayForAccount(accountId).catch((error: unknown) => {
      throw new GatewayConfigError(error);
    });
    response = await gateway.createTransfer(request);
  } catch (error) {
    // Only a clear refusal (or a request that never left) is REJECTED; anything else may have moved money.
    const rejected = error instanceof GatewayConfigError || (isGatewayError(error) && !error.outcomeUnknown);
    const summary = isGatewayError(error) ? errorSummary(error) : { kind: error instanceof GatewayConfigError ? "config" : "internal" };
    await db
      .update(transfers)
      .set({ submission: rejected ? "REJECTED" : "UNKNOWN", error: summary, updatedAt: new Date() })
      .where(eq(transfers.id, transferId));
    if (rejected) await closeOpenCheck("transfer", transferId, "rejected");
    else await rescheduleOpenCheck("transfer", transferId, delayAfter(0));
    await writeAudit({
      actor,
      accountId,
      action: rejected ? "transfer.rejected" : "transfer.outcome_unknown",
      target: input.identifier,
      ip,
      details: { ...auditDetails, errorKind: summary.kind, status: isGatewayError(error) ? error.status : undefined, errorCode: isGatewayError(error) ? error.errorCode : undefined },
    });
    if (!rejected) return { transferId, replayed: false };
    if (isGatewayError(error)) throw refusalFor(error);
    throw new ActionError("transfers.errors.gatewayUnavailable");
  }

  const { webhookToken, withdraw, payoutAccount, receiptUrl } = response;
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ status: transfers.withdrawStatus, at: transfers.withdrawStatusAt })
      .from(transfers)
      .where(eq(transfers.id, transferId))
      .for("update");
    // A notification may have overtaken this answer: the status machine decides.
    const decision = decide(transferMachine, current?.status ?? null, withdraw.status, { currentAt: current?.at ?? null, incomingAt: new Date() });
    await tx
      .update(transfers)
      .set({
        submission: "SUBMITTED",
        withdrawId: withdraw.id,
        ...(decision.apply ? { withdrawStatus: withdraw.status, withdrawStatusSource: "creation" as const, withdrawStatusAt: new Date() } : {}),
        feeCents: typeof withdraw.feeAmount === "number" ? toCents(withdraw.feeAmount) : null,
        withdraw,
        payoutAccount,
        receiptUrl: receiptUrl ?? null,
        webhookTokenEncrypted: encryptSecret(webhookToken),
        updatedAt: new Date(),
      })
      .where(eq(transfers.id, transferId));
    await closeOpenCheck("transfer", transferId, "submitted", tx);
  });
  await writeAudit({
    actor,
    accountId,
    action: "transfer.submitted",
    target: input.identifier,
    ip,
    details: { ...auditDetails, withdrawId: withdraw.id, status: withdraw.status },
  });
  return { transferId, replayed: false };
}
