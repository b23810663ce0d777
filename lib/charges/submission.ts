import "server-only";
import type { OperationKind } from "@/lib/db/schema";
import type { GatewayClient } from "@/lib/gateway";
import type { LedgerRow } from "@/lib/ledger/queries";
import { missesOf, settleLedgerRow } from "@/lib/ledger/settle";
import {
  claimSubmission,
  recordCreation,
  recordFailure,
  type CreationFacts,
  type OperationActor,
  type OperationSummary,
} from "@/lib/ledger/submissions";
import { submit, type SubmissionDefinition } from "@/lib/submissions/engine";

/**
 * The charges' kind of submission: charges, deposits and subscriptions, recorded in the ledger
 * (`lib/ledger/submissions.ts` writes the rows) beside what notifications and lookups reported.
 */

export type RunOperationInput<R> = {
  accountId: string;
  kind: OperationKind;
  identifier: string;
  /** Stored as the record's request: must already be stripped of card number and CVV. */
  storedRequest: Record<string, unknown>;
  summary: OperationSummary;
  actor: OperationActor;
  ip?: string | null;
  send: (gateway: GatewayClient) => Promise<R>;
  read: (response: R) => CreationFacts;
};

export type RunOperationResult = {
  row: LedgerRow;
  /** True when this call did not send anything because the identifier was already submitted. */
  replayed: boolean;
};

/**
 * The definition of the transactions kind. The request and how its answer is read come with each
 * submission (`send`, `read`): the charge kinds' registry (lib/charges) supplies them.
 */
export function transactionSubmissions<R = unknown>(): SubmissionDefinition<RunOperationInput<R>, LedgerRow, R> {
  return {
    target: "ledger",
    async claim(input) {
      const { claimed, row } = await claimSubmission({
        accountId: input.accountId,
        kind: input.kind,
        identifier: input.identifier,
        request: input.storedRequest,
        summary: input.summary,
        actor: input.actor,
      });
      return claimed ? { claimed: true, row } : { claimed: false, row };
    },
    send: (gateway, input) => input.send(gateway),
    created: (row, response, input) => recordCreation(row, response, input.read(response)),
    failed: recordFailure,
    audit: ({ input, row, claimed }) => ({
      action: `operation.${input.kind}`,
      target: row.id,
      details: {
        identifier: input.identifier,
        submission: row.submission,
        status: row.status,
        amountCents: row.amountCents,
        errorKind: row.error?.kind ?? null,
        retry: claimed.createdAt.getTime() !== claimed.updatedAt.getTime(),
      },
    }),
    async lookup(check) {
      const result = await settleLedgerRow(check.accountId, check.targetId, check.createdAt, missesOf(check), {
        refreshSettled: check.reason === "release",
      });
      switch (result.outcome) {
        case "settled":
        case "found":
        case "absent":
        case "contradicted":
          return { state: "done", outcome: result.outcome, row: result.row, changed: result.outcome !== "settled" };
        case "in_flight":
          return { state: "in_flight", retryAfterMs: result.retryAfterMs ?? 0 };
        default:
          return { state: "waiting", outcome: result.outcome, error: result.error, retryAfterMs: result.retryAfterMs };
      }
    },
    reconciledAction: "operation.reconciled",
    reconciledDetails: (check, row, outcome) => ({
      reason: check.reason,
      outcome,
      attempts: check.attempts,
      submission: row.submission,
      status: row.status,
    }),
    needsPersonAction: "operation.needs_person",
    needsPersonDetails: (check, result) => ({
      target: check.targetId,
      details: { reason: check.reason, lastOutcome: result.outcome, attempts: check.attempts },
    }),
  };
}

/**
 * The one path every incoming-money operation takes: record (SUBMITTING) → send → settle as
 * SUBMITTED (2xx), REJECTED (the gateway answered an error: nothing was created) or UNKNOWN
 * (sent, no usable answer). Audited with the user in every case.
 */
export async function runOperation<R>(input: RunOperationInput<R>): Promise<RunOperationResult> {
  const result = await submit(transactionSubmissions<R>(), input, { actor: input.actor, ip: input.ip });
  return { row: result.row, replayed: result.replayed };
}
