import "server-only";
import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import { toCents } from "@/lib/br/money";
import type { Tx } from "@/lib/db/client";
import { ledgerMovements, ledgerTransactions, transfers, type MovementKind } from "@/lib/db/schema";
import { parseGatewayTime } from "@/lib/gateway/time";
import { machineForOperation, stateOf, transferMachine } from "@/lib/status/machine";
import { enqueueChecks } from "@/lib/submissions/checks";
import type { LedgerRow } from "./queries";

/**
 * The money movements a ledger row or a transfer implies, derived again from the row each time it
 * changes, so a fact learned late (a fee, a release date, a refund) corrects them in place. Only
 * confirmed facts are on these rows: a notification's status waits in `pending_status` until the
 * gateway's lookup confirms it, and so it moves no money here.
 *
 * The rules (docs/balance.md): a sale adds its amount to "a liberar" (pending) when paid, its fee
 * and splits take from it; at `availableAt` the net moves to "disponível". A refund or chargeback
 * takes the amount back: from available after the release; before it, the release is cancelled
 * (its net leaves pending) and the rest comes from available. A transfer takes its money from
 * available when the gateway creates it and gives it back if it fails.
 */
export type Movement = {
  kind: MovementKind;
  availableCents: number;
  pendingCents: number;
  occurredAt: Date;
  reference: string | null;
  untold?: string | null;
};

type SaleFacts = Pick<
  LedgerRow,
  | "kind"
  | "status"
  | "statusAt"
  | "paidAt"
  | "availableAt"
  | "reversedAt"
  | "amountCents"
  | "feeCents"
  | "request"
  | "gatewayRecord"
  | "gatewayTransactionId"
>;

/** The splits the console sent with the charge (reais in the request), in cents. */
export function splitsCents(request: Record<string, unknown> | null): number {
  const splits = request?.splits;
  if (!Array.isArray(splits)) return 0;
  return splits.reduce((sum: number, split) => {
    const amount = (split as { amount?: unknown })?.amount;
    return sum + (typeof amount === "number" && Number.isFinite(amount) ? toCents(amount) : 0);
  }, 0);
}

/** The sale's net (amount − fee − splits), or null while its fee is not known. */
export function saleNetCents(row: Pick<SaleFacts, "amountCents" | "feeCents" | "request">): number | null {
  if (row.amountCents === null || row.feeCents === null) return null;
  return row.amountCents - row.feeCents - splitsCents(row.request);
}

export function saleMovements(row: SaleFacts): Movement[] {
  const machine = machineForOperation(row.kind);
  if (machine.kind !== "transaction" || row.amountCents === null) return [];
  const state = stateOf(machine, row.status);
  if (state !== "paid" && state !== "refunded" && state !== "charged_back") return [];
  const reference = row.gatewayTransactionId;
  const recordPaidAt = parseGatewayTime(row.gatewayRecord?.payedAt);
  const reversedAt = state === "paid" ? null : (row.reversedAt ?? row.statusAt);
  const paidAt = row.paidAt ?? recordPaidAt ?? reversedAt ?? row.statusAt;
  if (!paidAt) return [];
  const amount = row.amountCents;
  const fee = row.feeCents ?? 0;
  const splits = splitsCents(row.request);
  const net = amount - fee - splits;
  // A deposit has no fee (the interface's deposit answer has none); any other sale's fee is the gateway's to tell.
  const feeUntold = row.feeCents === null && row.kind !== "pix_deposit";
  const releaseUntold = row.availableAt === null && reversedAt === null;
  const untold = [feeUntold ? "fee" : null, releaseUntold ? "release" : null].filter(Boolean).join(",") || null;
  const out: Movement[] = [{ kind: "sale", availableCents: 0, pendingCents: amount, occurredAt: paidAt, reference, untold }];
  if (fee !== 0) out.push({ kind: "fee", availableCents: 0, pendingCents: -fee, occurredAt: paidAt, reference });
  if (splits !== 0) out.push({ kind: "split", availableCents: 0, pendingCents: -splits, occurredAt: paidAt, reference });
  const releasedBeforeReversal = row.availableAt !== null && (reversedAt === null || row.availableAt <= reversedAt);
  if (row.availableAt !== null && releasedBeforeReversal)
    out.push({ kind: "release", availableCents: net, pendingCents: -net, occurredAt: row.availableAt, reference });
  if (reversedAt) {
    const kind = state === "refunded" ? "refund" : "chargeback";
    out.push(
      releasedBeforeReversal
        ? { kind, availableCents: -amount, pendingCents: 0, occurredAt: reversedAt, reference }
        : { kind, availableCents: -(amount - net), pendingCents: -net, occurredAt: reversedAt, reference },
    );
  }
  return out;
}

type TransferFacts = Pick<
  typeof transfers.$inferSelect,
  | "submission"
  | "amountCents"
  | "feeCents"
  | "discountFeeOfReceiver"
  | "withdrawStatus"
  | "withdrawStatusAt"
  | "withdraw"
  | "withdrawId"
  | "createdAt"
>;

export function transferMovements(row: TransferFacts): Movement[] {
  // Only a transfer the gateway created took money; an unknown outcome is not guessed either way.
  if (row.submission !== "SUBMITTED" || !row.withdrawId) return [];
  const reference = row.withdrawId;
  const at = parseGatewayTime(row.withdraw?.createdAt) ?? row.createdAt;
  const fee = row.feeCents ?? 0;
  // With the fee taken from what the receiver gets, the balance pays the amount; otherwise amount + fee.
  const sent = row.discountFeeOfReceiver ? row.amountCents - fee : row.amountCents;
  const out: Movement[] = [{ kind: "transfer", availableCents: -sent, pendingCents: 0, occurredAt: at, reference }];
  if (fee !== 0) out.push({ kind: "transfer_fee", availableCents: -fee, pendingCents: 0, occurredAt: at, reference });
  const state = stateOf(transferMachine, row.withdrawStatus);
  if (state === "failed" || state === "canceled") {
    const back = row.withdrawStatusAt ?? at;
    out.push({ kind: "transfer_returned", availableCents: sent, pendingCents: 0, occurredAt: back, reference });
    if (fee !== 0) out.push({ kind: "transfer_fee_returned", availableCents: fee, pendingCents: 0, occurredAt: back, reference });
  }
  return out;
}

/**
 * Lines that happen at one instant (a sale, its fee, a Pix release at D+0) are ordered by id in the
 * extrato: an id made of the owner and the movement's place in its story keeps them in that order.
 */
const STORY_ORDER: Record<MovementKind, number> = {
  sale: 1,
  fee: 2,
  split: 3,
  release: 4,
  refund: 5,
  chargeback: 5,
  transfer: 1,
  transfer_fee: 2,
  transfer_returned: 3,
  transfer_fee_returned: 4,
};
const movementId = (ownerId: string, kind: MovementKind) => `${ownerId}_${STORY_ORDER[kind]}${kind}`;

/** Writes what each movement says now, removes those it no longer implies; untouched rows are left alone (the day sums follow). */
async function replaceMovements(
  tx: Tx,
  accountId: string,
  owner: { ledgerId: string } | { transferId: string },
  movements: Movement[],
): Promise<void> {
  const column = "ledgerId" in owner ? ledgerMovements.ledgerId : ledgerMovements.transferId;
  const ownerId = "ledgerId" in owner ? owner.ledgerId : owner.transferId;
  const kinds = movements.map((m) => m.kind);
  await tx
    .delete(ledgerMovements)
    .where(kinds.length > 0 ? and(eq(column, ownerId), notInArray(ledgerMovements.kind, kinds)) : eq(column, ownerId));
  if (movements.length === 0) return;
  const target =
    "ledgerId" in owner ? [ledgerMovements.ledgerId, ledgerMovements.kind] : [ledgerMovements.transferId, ledgerMovements.kind];
  const where = "ledgerId" in owner ? sql`${ledgerMovements.ledgerId} is not null` : sql`${ledgerMovements.transferId} is not null`;
  await tx
    .insert(ledgerMovements)
    .values(movements.map((m) => ({ id: movementId(ownerId, m.kind), accountId, ...owner, ...m, untold: m.untold ?? null })))
    .onConflictDoUpdate({
      target,
      targetWhere: where,
      set: MOVEMENT_UPSERT_SET,
      setWhere: MOVEMENT_CHANGED,
    });
}

const MOVEMENT_UPSERT_SET = {
  availableCents: sql`excluded.available_cents`,
  pendingCents: sql`excluded.pending_cents`,
  occurredAt: sql`excluded.occurred_at`,
  reference: sql`excluded.reference`,
  untold: sql`excluded.untold`,
};
// An unchanged movement is not rewritten (the day sums' trigger would take it out and put it back).
const MOVEMENT_CHANGED = sql`(${ledgerMovements.availableCents}, ${ledgerMovements.pendingCents}, ${ledgerMovements.occurredAt}, ${ledgerMovements.reference}, ${ledgerMovements.untold})
  is distinct from (excluded.available_cents, excluded.pending_cents, excluded.occurred_at, excluded.reference, excluded.untold)`;

/** Derives the movements of these ledger rows again, in the transaction that changed them. */
export async function syncSaleMovements(tx: Tx, ledgerIds: string[]): Promise<void> {
  if (ledgerIds.length === 0) return;
  const rows = await tx
    .select({
      id: ledgerTransactions.id,
      accountId: ledgerTransactions.accountId,
      kind: ledgerTransactions.kind,
      status: ledgerTransactions.status,
      statusAt: ledgerTransactions.statusAt,
      paidAt: ledgerTransactions.paidAt,
      availableAt: ledgerTransactions.availableAt,
      reversedAt: ledgerTransactions.reversedAt,
      amountCents: ledgerTransactions.amountCents,
      feeCents: ledgerTransactions.feeCents,
      request: ledgerTransactions.request,
      gatewayRecord: ledgerTransactions.gatewayRecord,
      gatewayTransactionId: ledgerTransactions.gatewayTransactionId,
    })
    .from(ledgerTransactions)
    .where(inArray(ledgerTransactions.id, ledgerIds));
  if (rows.length === 1) return replaceMovements(tx, rows[0]!.accountId, { ledgerId: rows[0]!.id }, saleMovements(rows[0]!));
  await replaceSaleMovements(
    tx,
    rows.map((row) => ({ accountId: row.accountId, ledgerId: row.id, movements: saleMovements(row) })),
  );
}

/** replaceMovements for many ledger rows in two statements (a batch of lookups ends together). */
async function replaceSaleMovements(tx: Tx, owners: { accountId: string; ledgerId: string; movements: Movement[] }[]): Promise<void> {
  const keep = owners.map((o) => ({ ledger_id: o.ledgerId, kinds: o.movements.map((m) => m.kind) }));
  await tx.execute(sql`
    delete from ledger_movements m using jsonb_to_recordset(${JSON.stringify(keep)}::jsonb) as k(ledger_id text, kinds text[])
    where m.ledger_id = k.ledger_id and not (m.kind = any(k.kinds))`);
  const values = owners.flatMap((o) =>
    o.movements.map((m) => ({
      id: movementId(o.ledgerId, m.kind),
      accountId: o.accountId,
      ledgerId: o.ledgerId,
      ...m,
      untold: m.untold ?? null,
    })),
  );
  if (values.length === 0) return;
  await tx
    .insert(ledgerMovements)
    .values(values)
    .onConflictDoUpdate({
      target: [ledgerMovements.ledgerId, ledgerMovements.kind],
      targetWhere: sql`${ledgerMovements.ledgerId} is not null`,
      set: MOVEMENT_UPSERT_SET,
      setWhere: MOVEMENT_CHANGED,
    });
}

/** Derives a transfer's movements again, in the transaction that changed it. */
export async function syncTransferMovements(tx: Tx, transferId: string): Promise<void> {
  const [row] = await tx.select().from(transfers).where(eq(transfers.id, transferId));
  if (!row) return;
  await replaceMovements(tx, row.accountId, { transferId: row.id }, transferMovements(row));
}

/**
 * What a lookup tells about the balance beyond the status: the release date (kept as the gateway
 * says, moved when it moves) and, once refunded or charged back, when. A reversal keeps the first
 * time the ledger learned of it; `reportedAt` is the confirmed notification's own time, if any.
 */
export function balanceFactsFromRecord(
  current: Pick<LedgerRow, "kind" | "reversedAt" | "availableAt">,
  record: { status: string; availableAt?: unknown; refundedAt?: unknown },
  reportedAt: Date | null,
  now: Date,
): Pick<LedgerRow, "availableAt" | "reversedAt"> {
  const machine = machineForOperation(current.kind);
  const state = machine.kind === "transaction" ? stateOf(machine, record.status) : null;
  const reversed = state === "refunded" || state === "charged_back";
  return {
    availableAt: parseGatewayTime(record.availableAt) ?? current.availableAt,
    reversedAt: current.reversedAt ?? (reversed ? (parseGatewayTime(record.refundedAt) ?? reportedAt ?? now) : null),
  };
}

/**
 * The lookups that learn and confirm a sale's release, two at most (the interface asks callers not
 * to poll): one soon after a paid sale whose release date no lookup has told yet, and one at the
 * release date the first one learned, to catch a date that moved. A date learned by the second
 * one is recorded but looked up no more.
 */
export async function scheduleReleaseLookups(
  tx: Tx,
  before: Pick<LedgerRow, "availableAt" | "lastLookupAt"> | null,
  after: Pick<LedgerRow, "id" | "accountId" | "kind" | "status" | "availableAt">,
  now: Date,
): Promise<void> {
  const machine = machineForOperation(after.kind);
  if (machine.kind !== "transaction" || stateOf(machine, after.status) !== "paid") return;
  let delayMs: number | null = null;
  if (after.availableAt === null && before?.lastLookupAt == null) delayMs = 0;
  else if (after.availableAt !== null && (before === null || before.availableAt === null) && after.availableAt > now)
    delayMs = after.availableAt.getTime() - now.getTime();
  if (delayMs === null) return;
  await enqueueChecks([{ accountId: after.accountId, target: "ledger", targetId: after.id, reason: "release", delayMs }], tx);
}
