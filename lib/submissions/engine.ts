import "server-only";
import { writeAudit, writeAuditBatched } from "@/lib/audit/log";
import type { CheckTarget } from "@/lib/db/tables/checks";
import { gatewayForAccount } from "@/lib/gateway/connection";
import { isGatewayError, type GatewayClient } from "@/lib/gateway";
import {
  closeOpenCheck,
  deferRateLimitedCheck,
  delayAfter,
  enqueueCheck,
  finishCheck,
  finishCheckBatched,
  reconcileConfig,
  rescheduleOpenCheck,
  retryCheckLater,
  type GatewayCheck,
} from "./checks";

/**
 * The submission engine: the one path every request that asks the gateway to move money or
 * create something takes (charges, deposits, subscriptions, transfers, refund requests).
 *
 *   record (SUBMITTING, before anything leaves) → send → classify the answer once
 *   (created / rejected / unknown) → an unknown row is settled by the reconciler, which looks it
 *   up and never sends it again.
 *
 * Each kind is one `SubmissionDefinition`: how its row is recorded and settled (its table), how it
 * is sent, how the reconciler looks it up, and what the audit log says.
 */

export function gatewayTimeoutMs(): number {
  return Number(process.env.GATEWAY_TIMEOUT_MS ?? 15_000);
}

/** How much longer a request sent at `sentAt` may still be on its way (> 0: it may). */
export function inFlightForMs(sentAt: Date): number {
  return sentAt.getTime() + gatewayTimeoutMs() + 5_000 - Date.now();
}

export type SubmissionActor = { id: string; email: string };

/** What a refused or unanswered request is recorded with (no secrets: the gateway's own words at most). */
export type SubmissionErrorInfo = { kind: string; status?: number; errorCode?: string; message?: string };

/** created: the gateway answered 2xx; rejected: it refused, nothing was created; unknown: sent, no usable answer. */
export type SubmissionOutcome = "created" | "rejected" | "unknown";

export function submissionErrorInfo(error: unknown): SubmissionErrorInfo {
  if (isGatewayError(error)) return { kind: error.kind, status: error.status, errorCode: error.errorCode, message: error.gatewayMessage };
  return { kind: "internal" };
}

/** What a failed lookup is recorded with: `submissionErrorInfo` without the gateway's error code. */
export function lookupErrorInfo(error: unknown): Omit<SubmissionErrorInfo, "errorCode"> {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { errorCode, ...info } = submissionErrorInfo(error);
  return info;
}

/** The row's fields for a refusal (REJECTED) or a lost answer (UNKNOWN): every kind's `failed` records them. */
export function failureSet(
  outcome: Exclude<SubmissionOutcome, "created">,
  error: SubmissionErrorInfo,
): { submission: "UNKNOWN" | "REJECTED"; error: SubmissionErrorInfo } {
  return { submission: outcome === "unknown" ? "UNKNOWN" : "REJECTED", error };
}

/** Only a clear refusal proves nothing was created; anything else may have left the building. */
function classifyFailure(error: unknown): Exclude<SubmissionOutcome, "created"> {
  return isGatewayError(error) && !error.outcomeUnknown ? "rejected" : "unknown";
}

/** `checkOpened`: the claim already opened the row's check (in its own transaction), so `submit` does not. */
export type Claim<Row> = { claimed: true; row: Row; checkOpened?: true } | { claimed: false; row: Row };

export type AuditEntry = { action: string; target: string | null; details?: Record<string, unknown> };

/** What the reconciler learned about one row by looking it up (never by sending it again). */
export type LookupResult<Row> =
  /** Nothing is left to check: the row settled by itself (`changed: false`) or the lookup settled it. */
  | { state: "done"; outcome: string; row: Row | null; changed: boolean }
  /** The request may still be on its way: come back when it cannot be. Nothing was asked. */
  | { state: "in_flight"; retryAfterMs: number }
  /** Not settled yet: ask again later; past the give-up time a person is asked (`giveUpOutcome`). */
  | { state: "waiting"; outcome: string; row?: Row; giveUpOutcome?: string; error?: SubmissionErrorInfo; retryAfterMs?: number };

/**
 * One kind of submission. `Input` is what the domain hands over (already validated and bound to
 * its identifier), `Row` the recorded row, `Response` the gateway's creation answer.
 */
export type SubmissionDefinition<Input extends { accountId: string }, Row extends { id: string }, Response> = {
  /** The reconciler's queue target for rows of this kind. */
  target: CheckTarget;
  /**
   * Records the row as SUBMITTING before anything is sent, or finds the row that already owns the
   * identifier (`claimed: false`: nothing may be sent). May throw a domain refusal.
   */
  claim(input: Input): Promise<Claim<Row>>;
  /** The one request. */
  send(gateway: GatewayClient, input: Input, row: Row): Promise<Response>;
  /** Records a 2xx answer. */
  created(row: Row, response: Response, input: Input): Promise<Row>;
  /** Records a refusal (REJECTED) or a lost answer (UNKNOWN). */
  failed(row: Row, outcome: Exclude<SubmissionOutcome, "created">, error: SubmissionErrorInfo): Promise<Row>;
  /** The audit entry of a sent (or unsendable) submission. */
  audit(result: { input: Input; row: Row; claimed: Row; outcome: SubmissionOutcome; error?: unknown }): AuditEntry;
  /** The reconciler's lookup of an open check's row. */
  lookup(check: GatewayCheck): Promise<LookupResult<Row>>;
  /** Audit actions of the reconciler: a row settled by a lookup, a row handed to a person. */
  reconciledAction: string;
  needsPersonAction: string;
  needsPersonDetails(
    check: GatewayCheck,
    result: Extract<LookupResult<Row>, { state: "waiting" }>,
  ): { target: string; details: Record<string, unknown> };
  reconciledDetails(check: GatewayCheck, row: Row, outcome: string): Record<string, unknown>;
};

export type SubmitResult<Row> = { replayed: true; row: Row } | { replayed: false; row: Row; outcome: SubmissionOutcome; error?: unknown };

/**
 * Record → send → classify once. Returns the recorded row; `replayed: true` means nothing was sent
 * because the identifier already had a live submission (double click, refresh, concurrent request).
 */
export async function submit<Input extends { accountId: string }, Row extends { id: string }, Response>(
  definition: SubmissionDefinition<Input, Row, Response>,
  input: Input,
  context: { actor: SubmissionActor; ip?: string | null },
): Promise<SubmitResult<Row>> {
  const claim = await definition.claim(input);
  if (!claim.claimed) return { replayed: true, row: claim.row };
  const claimed = claim.row;

  // Should this process die before the answer is recorded, the reconciler still settles the row.
  if (!claim.checkOpened) {
    await enqueueCheck({
      accountId: input.accountId,
      target: definition.target,
      targetId: claimed.id,
      reason: "unknown",
      delayMs: gatewayTimeoutMs() + 15_000,
    });
  }

  const { row, outcome, failure } = await sendAndRecord(definition, input, claimed);
  const entry = definition.audit({ input, row, claimed, outcome, error: failure });
  await writeAudit({
    actor: context.actor,
    accountId: input.accountId,
    action: entry.action,
    target: entry.target,
    details: entry.details,
    ip: context.ip ?? null,
  });
  return { replayed: false, row, outcome, ...(failure === undefined ? {} : { error: failure }) };
}

/** The one request and the record of its answer, classified once; the row's open check follows. */
async function sendAndRecord<Input extends { accountId: string }, Row extends { id: string }, Response>(
  definition: SubmissionDefinition<Input, Row, Response>,
  input: Input,
  claimed: Row,
): Promise<{ row: Row; outcome: SubmissionOutcome; failure?: unknown }> {
  const { target } = definition;
  let gateway: GatewayClient;
  try {
    gateway = await gatewayForAccount(input.accountId);
  } catch (failure) {
    // The request never left: nothing can have been created.
    const row = await definition.failed(claimed, "rejected", { kind: "config" });
    await closeOpenCheck(target, claimed.id, "rejected");
    return { row, outcome: "rejected", failure };
  }
  try {
    const response = await definition.send(gateway, input, claimed);
    const row = await definition.created(claimed, response, input);
    await closeOpenCheck(target, claimed.id, "submitted");
    return { row, outcome: "created" };
  } catch (failure) {
    const outcome = classifyFailure(failure);
    const row = await definition.failed(claimed, outcome, submissionErrorInfo(failure));
    if (outcome === "unknown") await rescheduleOpenCheck(target, claimed.id, delayAfter(0));
    else await closeOpenCheck(target, claimed.id, "rejected");
    return { row, outcome, failure };
  }
}

/** The reconciler's work on one open check of a submission: look it up, then settle, wait or hand it to a person. */
export async function reconcileCheck<Input extends { accountId: string }, Row extends { id: string }, Response>(
  definition: SubmissionDefinition<Input, Row, Response>,
  check: GatewayCheck,
): Promise<void> {
  const result = await definition.lookup(check);
  if (result.state === "done") {
    // Batched with the other checks that end with it: a launch-day burst ends hundreds a second.
    const row = result.changed ? result.row : null;
    await Promise.all([
      finishCheckBatched({ id: check.id, state: "done", outcome: result.outcome }),
      row &&
        writeAuditBatched({
          accountId: check.accountId,
          action: definition.reconciledAction,
          target: check.targetId,
          details: definition.reconciledDetails(check, row, result.outcome),
        }),
    ]);
    return;
  }
  if (result.state === "in_flight") {
    // Nothing was asked: come back when the request can no longer be on its way, at the same step of the schedule.
    await retryCheckLater(check.id, result.retryAfterMs, "in_flight", undefined, { uncount: true });
    return;
  }
  if (result.error?.kind === "rate_limited") {
    // Not answered yet: nothing about the row is known or changed; ask again after Retry-After.
    await deferRateLimitedCheck(check.id, result.retryAfterMs);
    return;
  }
  if (Date.now() - check.createdAt.getTime() >= reconcileConfig().giveUpMs) {
    await finishCheck(check.id, "needs_person", result.giveUpOutcome ?? result.outcome, result.error);
    const { target, details } = definition.needsPersonDetails(check, result);
    await writeAudit({ accountId: check.accountId, action: definition.needsPersonAction, target, details });
    return;
  }
  await retryCheckLater(check.id, Math.max(result.retryAfterMs ?? 0, delayAfter(check.attempts)), result.outcome, result.error);
}
