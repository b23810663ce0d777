import "server-only";
import { and, eq, inArray, or, sql } from "drizzle-orm";
import { writeAudit } from "@/lib/audit/log";
import { databaseCapabilities } from "@/lib/db/capabilities";
import { getDb } from "@/lib/db/client";
import { ledgerTransactions, webhookEvents, type OperationKind, type SubmissionState } from "@/lib/db/schema";
import { emitAfterCommit, notifyFeed, toFeedEvent } from "@/lib/feed/signal";
import { gatewayForAccount } from "@/lib/gateway/connection";
import { isGatewayError, type GatewayClient, type TransactionRecord } from "@/lib/gateway";
import { knownOrigin, requestOrigin } from "@/lib/gateway/origin";
import { parseGatewayTime } from "@/lib/gateway/time";
import { ledgerStatusChange } from "@/lib/status/ledger";
import { machineForOperation, stateOf } from "@/lib/status/machine";
import { closeOpenCheck, latestCheck, reconcileConfig, type GatewayCheck } from "./checks";
import {
  failureSet,
  inFlightForMs,
  lookupErrorInfo,
  submit,
  type SubmissionActor,
  type SubmissionDefinition,
  type SubmissionErrorInfo,
} from "./engine";

/**
 * The transactions kind of submission: charges, deposits and subscriptions, recorded in
 * `ledger_transactions` (lib/db/tables/ledger.ts) beside what webhooks and lookups reported.
 */

export type OperationActor = SubmissionActor;
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

/** Subscriptions are not transactions: a lookup miss proves nothing about them. */
const LOOKUP_PROVES_ABSENCE = new Set(["pix_charge", "card_charge", "boleto_charge", "crypto_charge", "pix_deposit"]);
/** A notification naming a transaction the gateway does not know is contradicted after this many misses. */
export const CONFIRM_MISSES = 3;

/** The lookup misses in a row a check has seen so far (its last attempt's included). */
export function missesOf(check: Pick<GatewayCheck, "lastOutcome" | "attempts">): number {
  return check.lastOutcome === "not_found_yet" ? check.attempts - 1 : 0;
}

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
    async created(row, response, input) {
      const facts = input.read(response);
      const change = facts.status ? ledgerStatusChange(row, { status: facts.status, source: "creation", at: new Date() }) : { set: {} };
      return update(row.id, {
        submission: "SUBMITTED",
        response: response as Record<string, unknown>,
        gatewayTransactionId: facts.gatewayTransactionId ?? null,
        ...change.set,
        feeCents: facts.feeCents ?? null,
        error: null,
      });
    },
    failed: (row, outcome, error) => update(row.id, failureSet(outcome, error)),
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
      const result = await settleLedgerRow(check.accountId, check.targetId, check.createdAt, missesOf(check));
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
  return { row: settled, outcome, error: result.error };
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

export type SettleOutcome =
  | "settled" // nothing left to check: the record settled by itself
  | "found" // the gateway has it: status applied through the status machine
  | "absent" // a lookup long enough after sending found nothing: safe to send again
  | "not_found_yet" // a miss that proves nothing yet
  | "contradicted" // the gateway does not confirm what a notification said
  | "in_flight" // the request may still be on its way
  | "lookup_failed";

/**
 * Asks the gateway about one ledger row and settles it: an UNKNOWN or stuck submission, or a
 * notification parked as "confirming". Every status change goes through the status machine.
 * `sentAt` is when the submission (or the notification) started waiting: the check's own
 * creation time, never the row's `updated_at`, which every notification moves (a late
 * TRANSACTION_CREATED made a crashed submission look in flight again and cost its first check a
 * whole step of the schedule). An in-flight answer carries `retryAfterMs`: when the wait ends.
 */
async function settleLedgerRow(
  accountId: string,
  ledgerId: string,
  sentAt: Date,
  misses = 0,
  options: { refreshSettled?: boolean } = {},
): Promise<{ outcome: SettleOutcome; row: LedgerRow | null; error?: SubmissionErrorInfo; retryAfterMs?: number }> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.accountId, accountId), eq(ledgerTransactions.id, ledgerId)));
  if (!row) return { outcome: "settled", row: null };
  const unsettled = row.submission === "UNKNOWN" || row.submission === "SUBMITTING";
  if (!unsettled && !row.pendingStatus && !options.refreshSettled) return { outcome: "settled", row };
  const inFlightFor = inFlightForMs(sentAt);
  if (row.submission === "SUBMITTING" && inFlightFor > 0) return { outcome: "in_flight", row, retryAfterMs: inFlightFor };

  let record: TransactionRecord | null;
  try {
    const gateway = await gatewayForAccount(accountId);
    // An unsettled submission is looked up by the console's own identifier: a gateway id it holds
    // came from a notification, and a miss on someone's id proves nothing about this charge.
    record =
      row.gatewayTransactionId && !unsettled
        ? await gateway.findTransaction({ id: row.gatewayTransactionId })
        : await gateway.findTransaction({ clientIdentifier: row.identifier });
  } catch (error) {
    return {
      outcome: "lookup_failed",
      row,
      error: lookupErrorInfo(error),
      retryAfterMs: isGatewayError(error) ? error.retryAfterMs : undefined,
    };
  }

  if (record) return { outcome: "found", row: await applyLookup(row, record) };

  if (!unsettled && !row.pendingStatus) return { outcome: "not_found_yet", row };
  if (row.pendingStatus && !unsettled) {
    if (misses + 1 < CONFIRM_MISSES) return { outcome: "not_found_yet", row };
    return { outcome: "contradicted", row: await settleConfirmations(row, null) };
  }
  const waited = Date.now() - sentAt.getTime();
  if (unsettled && LOOKUP_PROVES_ABSENCE.has(row.kind) && waited >= reconcileConfig().absentAfterMs) {
    const [absent] = await db
      .update(ledgerTransactions)
      .set({ submission: "ABSENT", lastLookupAt: new Date(), lastLookupStatus: null, updatedAt: new Date() })
      .where(and(eq(ledgerTransactions.id, row.id), inArray(ledgerTransactions.submission, ["UNKNOWN", "SUBMITTING"])))
      .returning();
    return { outcome: "absent", row: absent ?? row };
  }
  await db.update(ledgerTransactions).set({ lastLookupAt: new Date() }).where(eq(ledgerTransactions.id, row.id));
  return { outcome: "not_found_yet", row };
}

/**
 * Records what the gateway's lookup says, through the status machine, and settles parked
 * notifications. The row is read (and locked) here: null when it no longer exists.
 */
export async function applyLookup(row: Pick<LedgerRow, "id">, record: TransactionRecord): Promise<LedgerRow | null> {
  const db = await getDb();
  const now = new Date();
  const updated = await db.transaction(async (tx) => {
    const [current] = await tx.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, row.id)).for("update");
    if (!current) return null;
    const change = ledgerStatusChange(current, {
      status: record.status,
      source: "lookup",
      at: now,
      paidAt: parseGatewayTime(record.payedAt),
    });
    const unsettled = current.submission === "UNKNOWN" || current.submission === "SUBMITTING" || current.submission === "ABSENT";
    const [next] = await tx
      .update(ledgerTransactions)
      .set({
        ...change.set,
        gatewayRecord: record as Record<string, unknown>,
        lastLookupStatus: record.status,
        lastLookupAt: now,
        gatewayTransactionId: current.gatewayTransactionId ?? record.id,
        paymentMethod: current.paymentMethod ?? record.paymentMethod,
        ...(unsettled ? { submission: "SUBMITTED" as const, error: null } : {}),
        updatedAt: now,
      })
      .where(eq(ledgerTransactions.id, row.id))
      .returning();
    return next;
  });
  if (!updated) return null;
  return (await settleConfirmations(updated, record)) ?? updated;
}

/**
 * Marks the notifications parked on this row as confirmed (the gateway agrees) or contradicted
 * (it does not, or does not know the transaction): the gateway wins, the delivery is flagged in
 * the inbox and an audit entry is written. Clears the parked status.
 */
async function settleConfirmations(row: LedgerRow, record: TransactionRecord | null): Promise<LedgerRow> {
  const db = await getDb();
  const database = await databaseCapabilities();
  const machine = machineForOperation(row.kind);
  const gatewayState = record ? stateOf(machine, record.status) : null;
  const { signals, contradicted, settled } = await db.transaction(async (tx) => {
    const [settledRow] = await tx
      .update(ledgerTransactions)
      .set({ pendingStatus: null, pendingStatusAt: null })
      .where(eq(ledgerTransactions.id, row.id))
      .returning();
    const parked = await tx
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.ledgerId, row.id), eq(webhookEvents.confirmation, "confirming")))
      .for("update");
    const contradicted = parked.filter((e) => gatewayState === null || stateOf(machine, e.status) !== gatewayState);
    const confirmed = parked.filter((e) => !contradicted.includes(e));
    const mark = async (events: typeof parked, confirmation: "confirmed" | "contradicted") =>
      events.length === 0
        ? []
        : tx
            .update(webhookEvents)
            .set({
              confirmation,
              ledgerOutcome: confirmation === "confirmed" ? "updated" : "refused",
              feedSeq: sql`nextval(pg_get_serial_sequence('webhook_events', 'feed_seq'))`,
            })
            .where(
              inArray(
                webhookEvents.id,
                events.map((e) => e.id),
              ),
            )
            .returning();
    const changed = [...(await mark(confirmed, "confirmed")), ...(await mark(contradicted, "contradicted"))];
    const signals = changed.map((e) => toFeedEvent(e, true));
    await notifyFeed(tx, signals, database);
    return { signals, contradicted, settled: settledRow ?? row };
  });
  emitAfterCommit(signals, database);
  for (const event of contradicted) {
    await writeAudit({
      accountId: row.accountId,
      action: "webhook.contradicted",
      target: event.id,
      details: { ledgerId: row.id, notified: event.status, gateway: record?.status ?? null, event: event.event },
    });
  }
  return settled;
}
