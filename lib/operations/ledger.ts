import "server-only";
import { and, eq, inArray, or, sql } from "drizzle-orm";
import { writeAudit } from "@/lib/audit/log";
import { getDb } from "@/lib/db/client";
import { ledgerTransactions, type OperationKind, type SubmissionState } from "@/lib/db/schema";
import { gatewayForAccount } from "@/lib/gateway/connection";
import { isGatewayError, type GatewayClient } from "@/lib/gateway";
import { closeOpenCheck, delayAfter, enqueueCheck, latestCheck, rescheduleOpenCheck } from "@/lib/reconcile/checks";
import { settleLedgerRow } from "@/lib/reconcile/worker";
import { ledgerStatusChange } from "@/lib/status/ledger";

function gatewayTimeoutMs(): number {
  return Number(process.env.GATEWAY_TIMEOUT_MS ?? 15_000);
}

export type OperationActor = { id: string; email: string };
export type LedgerRow = typeof ledgerTransactions.$inferSelect;

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
  };
  const [inserted] = await db
    .insert(ledgerTransactions)
    .values({ accountId: input.accountId, kind: input.kind, identifier: input.identifier, origin: "console", submission: "SUBMITTING", ...values })
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

  const existing = await findByIdentifier(input.accountId, input.identifier);
  if (!existing) throw new Error("ledger row vanished during claim");
  if (existing.kind !== input.kind || existing.origin !== "console") throw new IdentifierTakenError(existing);
  if (existing.submission === "ABSENT") throw new IdentifierBoundError(existing);
  return { claimed: false, row: existing };
}

async function findByIdentifier(accountId: string, identifier: string): Promise<LedgerRow | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.accountId, accountId), eq(ledgerTransactions.identifier, identifier)));
  return row ?? null;
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

function errorInfo(error: unknown): OperationErrorInfo {
  if (isGatewayError(error)) {
    return { kind: error.kind, status: error.status, errorCode: error.errorCode, message: error.gatewayMessage };
  }
  return { kind: "internal" };
}

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
 * The one path every incoming-money operation takes: record (SUBMITTING) → send → settle as
 * SUBMITTED (2xx), REJECTED (the gateway answered an error: nothing was created) or UNKNOWN
 * (sent, no usable answer). Audited with the user in every case.
 */
export async function runOperation<R>(input: RunOperationInput<R>): Promise<RunOperationResult> {
  const { claimed, row } = await claimSubmission({
    accountId: input.accountId,
    kind: input.kind,
    identifier: input.identifier,
    request: input.storedRequest,
    summary: input.summary,
    actor: input.actor,
  });
  if (!claimed) return { row, replayed: true };

  // Should this process die before the answer is recorded, the reconciler still settles the row.
  await enqueueCheck({ accountId: input.accountId, target: "ledger", targetId: row.id, reason: "unknown", delayMs: gatewayTimeoutMs() + 15_000 });

  let settled: LedgerRow;
  let gateway: GatewayClient | null = null;
  try {
    gateway = await gatewayForAccount(input.accountId);
  } catch {
    settled = await update(row.id, { submission: "REJECTED", error: { kind: "config" } });
    await closeOpenCheck("ledger", row.id, "rejected");
  }
  if (gateway) {
    try {
      const response = await input.send(gateway);
      const facts = input.read(response);
      const now = new Date();
      const change = facts.status
        ? ledgerStatusChange(row, { status: facts.status, source: "creation", at: now })
        : { set: {} };
      settled = await update(row.id, {
        submission: "SUBMITTED",
        response: response as Record<string, unknown>,
        gatewayTransactionId: facts.gatewayTransactionId ?? null,
        ...change.set,
        feeCents: facts.feeCents ?? null,
        error: null,
      });
      await closeOpenCheck("ledger", row.id, "submitted");
    } catch (error) {
      // Only a clear refusal proves nothing was created; anything else may have left the building.
      const unknown = !isGatewayError(error) || error.outcomeUnknown;
      settled = await update(row.id, { submission: unknown ? "UNKNOWN" : "REJECTED", error: errorInfo(error) });
      if (unknown) await rescheduleOpenCheck("ledger", row.id, delayAfter(0));
      else await closeOpenCheck("ledger", row.id, "rejected");
    }
  }
  await writeAudit({
    actor: input.actor,
    accountId: input.accountId,
    action: `operation.${input.kind}`,
    target: settled!.id,
    details: {
      identifier: input.identifier,
      submission: settled!.submission,
      status: settled!.status,
      amountCents: settled!.amountCents,
      errorKind: settled!.error?.kind ?? null,
      retry: row.createdAt.getTime() !== row.updatedAt.getTime(),
    },
    ip: input.ip ?? null,
  });
  return { row: settled!, replayed: false };
}

/** One ledger row of this account (null for another account's row or an unknown id). */
export async function getOperation(accountId: string, id: string): Promise<LedgerRow | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.accountId, accountId), eq(ledgerTransactions.id, id)));
  return row ?? null;
}

export type CheckOutcome = "found" | "absent" | "not_found_inconclusive" | "lookup_failed";

/**
 * "Verificar agora": the same settlement the reconciler runs on its schedule, on demand. Found →
 * SUBMITTED with the gateway's status (through the status machine); a miss → ABSENT only for
 * charges and deposits, and only once the waiting period since sending has passed.
 */
export async function checkOperationNow(
  accountId: string,
  id: string,
  actor: OperationActor,
  ip?: string | null,
): Promise<{ row: LedgerRow; outcome: CheckOutcome; error?: OperationErrorInfo } | null> {
  const row = await getOperation(accountId, id);
  if (!row) return null;
  const check = await latestCheck("ledger", row.id);
  const sentAt = check?.state === "pending" ? check.createdAt : row.updatedAt;
  const result = await settleLedgerRow(accountId, row.id, sentAt, 0, { refreshSettled: row.submission === "SUBMITTED" });
  const settled = result.row ?? row;
  const outcome: CheckOutcome =
    result.outcome === "found"
      ? "found"
      : result.outcome === "absent"
        ? "absent"
        : result.outcome === "lookup_failed"
          ? "lookup_failed"
          : result.outcome === "settled" && row.submission === "SUBMITTED"
            ? "found"
            : "not_found_inconclusive";
  if (result.outcome === "found" || result.outcome === "absent") await closeOpenCheck("ledger", row.id, result.outcome);
  await writeAudit({
    actor,
    accountId,
    action: "operation.check",
    target: row.id,
    details: { identifier: row.identifier, outcome, before: row.submission, after: settled.submission, status: settled.status },
    ip: ip ?? null,
  });
  return { row: settled, outcome, error: result.error as OperationErrorInfo | undefined };
}

/** Counts rows per identifier; used by tests and diagnostics. */
export async function countOperations(accountId: string, identifier: string): Promise<number> {
  const db = await getDb();
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.accountId, accountId), eq(ledgerTransactions.identifier, identifier)));
  return row?.n ?? 0;
}
