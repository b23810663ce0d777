import "server-only";
import { and, eq, inArray, or, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { ledgerTransactions, type OperationKind, type SubmissionState } from "@/lib/db/schema";
import { knownOrigin, requestOrigin } from "@/lib/gateway/origin";
import { ledgerStatusChange } from "@/lib/status/ledger";
import { failureSet, type SubmissionActor, type SubmissionErrorInfo, type SubmissionOutcome } from "@/lib/submissions/engine";
import { scheduleReleaseLookups, syncSaleMovements } from "./movements";
import { findLedgerRowByIdentifier, type LedgerRow } from "./queries";

/**
 * The ledger's side of a console submission (charges, deposits, subscriptions): the row recorded
 * before anything is sent, then the gateway's answer or the failure. The submission definition
 * that drives these is `lib/charges/submission.ts`.
 */

export type OperationActor = SubmissionActor;

/** Searchable columns filled from the request, so lists never have to dig into `request`. */
export type OperationSummary = {
  amountCents?: number | null;
  currency?: string;
  paymentMethod?: string | null;
  clientName?: string | null;
  clientEmail?: string | null;
  clientDocument?: string | null;
};

/** What the creation answer says, read by each operation (the shapes differ by kind). */
export type CreationFacts = { gatewayTransactionId?: string | null; status?: string | null; feeCents?: number | null };

export type OperationErrorInfo = NonNullable<LedgerRow["error"]>;

/** The identifier already belongs to another operation of this account (another kind, or a webhook/lookup row). */
export class IdentifierTakenError extends Error {
  constructor(readonly existing: LedgerRow) {
    super("identifier already used");
  }
}

/**
 * A clear refusal created nothing, so the identifier may carry corrected values; an ABSENT one
 * (proven by lookups after the waiting period) may only be sent again with the very same body.
 */
const CLAIMABLE: SubmissionState[] = ["REJECTED", "ABSENT"];

/** The identifier is bound to the body first recorded for it: a resend with other values is refused. */
export class IdentifierBoundError extends Error {
  constructor(readonly existing: LedgerRow) {
    super("identifier bound to another request");
  }
}

/**
 * Records the operation as SUBMITTING before anything is sent, or finds the record that already
 * owns this identifier. `claimed` is true only for the one caller that may send the request now:
 * a fresh insert, or a retry of a submission the gateway rejected / a lookup proved absent.
 * Concurrent identical submissions race on the unique (account, identifier) index and on the
 * conditional update, so exactly one of them wins.
 */
export async function claimSubmission(input: {
  accountId: string;
  kind: OperationKind;
  identifier: string;
  request: Record<string, unknown>;
  summary: OperationSummary;
  actor: OperationActor;
}): Promise<{ claimed: boolean; row: LedgerRow }> {
  const db = await getDb();
  const values = {
    request: input.request,
    amountCents: input.summary.amountCents ?? null,
    currency: input.summary.currency ?? "BRL",
    paymentMethod: input.summary.paymentMethod ?? null,
    clientName: input.summary.clientName ?? null,
    clientEmail: input.summary.clientEmail ?? null,
    clientDocument: input.summary.clientDocument ?? null,
    createdBy: input.actor.id,
    createdByEmail: input.actor.email,
    // The sale's product and the producer's "origem" (metadata.origem), for the sales reports.
    ...knownOrigin(requestOrigin(input.request)),
  };
  const [inserted] = await db
    .insert(ledgerTransactions)
    .values({
      accountId: input.accountId,
      kind: input.kind,
      identifier: input.identifier,
      origin: "console",
      submission: "SUBMITTING",
      ...values,
    })
    .onConflictDoNothing({ target: [ledgerTransactions.accountId, ledgerTransactions.identifier] })
    .returning();
  if (inserted) return { claimed: true, row: inserted };

  const sameBody = sql`${ledgerTransactions.request} = ${JSON.stringify(input.request)}::jsonb`;
  const [reclaimed] = await db
    .update(ledgerTransactions)
    .set({ ...values, submission: "SUBMITTING", error: null, response: null, updatedAt: new Date() })
    .where(
      and(
        eq(ledgerTransactions.accountId, input.accountId),
        eq(ledgerTransactions.identifier, input.identifier),
        eq(ledgerTransactions.kind, input.kind),
        eq(ledgerTransactions.origin, "console"),
        inArray(ledgerTransactions.submission, CLAIMABLE),
        or(eq(ledgerTransactions.submission, "REJECTED"), sameBody),
      ),
    )
    .returning();
  if (reclaimed) return { claimed: true, row: reclaimed };

  const existing = await findLedgerRowByIdentifier(input.accountId, input.identifier);
  if (!existing) throw new Error("ledger row vanished during claim");
  if (existing.kind !== input.kind || existing.origin !== "console") throw new IdentifierTakenError(existing);
  if (existing.submission === "ABSENT") throw new IdentifierBoundError(existing);
  return { claimed: false, row: existing };
}

async function update(id: string, set: Partial<typeof ledgerTransactions.$inferInsert>): Promise<LedgerRow> {
  const db = await getDb();
  const [row] = await db
    .update(ledgerTransactions)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(ledgerTransactions.id, id))
    .returning();
  return row;
}

/** The gateway created it: SUBMITTED with what the creation answer says, its status through the status machine. */
export async function recordCreation(row: LedgerRow, response: unknown, facts: CreationFacts): Promise<LedgerRow> {
  const now = new Date();
  const change = facts.status ? ledgerStatusChange(row, { status: facts.status, source: "creation", at: now }) : { set: {} };
  const db = await getDb();
  // A card is paid in its creation answer: its sale's movements are written with the row.
  return db.transaction(async (tx) => {
    const [next] = await tx
      .update(ledgerTransactions)
      .set({
        submission: "SUBMITTED",
        response: response as Record<string, unknown>,
        gatewayTransactionId: facts.gatewayTransactionId ?? null,
        ...change.set,
        feeCents: facts.feeCents ?? null,
        error: null,
        updatedAt: now,
      })
      .where(eq(ledgerTransactions.id, row.id))
      .returning();
    await syncSaleMovements(tx, [next.id]);
    await scheduleReleaseLookups(tx, null, next, now);
    return next;
  });
}

/** REJECTED (the gateway answered an error) or UNKNOWN (sent, no usable answer). */
export function recordFailure(
  row: LedgerRow,
  outcome: Exclude<SubmissionOutcome, "created">,
  error: SubmissionErrorInfo,
): Promise<LedgerRow> {
  return update(row.id, failureSet(outcome, error));
}
