/**
 * The console's status machines: the only judge of whether a status reported by the gateway
 * (creation answer, webhook, lookup, reconciler) may replace the one a record has.
 *
 * The gateway's own strings are kept verbatim; each kind maps the spellings the gateways of this
 * family use onto a few console states. A string no table knows is the state "unknown": shown as
 * it is, never read as paid, never final. Final states never go back; a move inside the same
 * state (OK → PENDING, both "awaiting") or between non-final states only wins when it is not
 * older than what the record has; a move forward (awaiting → paid) wins whatever the order of
 * arrival, because the gateway cannot un-pay.
 *
 * Browser-safe: no server imports, so lists and badges use the same tables.
 */

export type StatusMachine<S extends string> = {
  kind: string;
  /** Every console state of this kind, "unknown" included. */
  states: readonly S[];
  /** Gateway spelling (upper case) → console state. */
  aliases: Readonly<Record<string, S>>;
  /** States from which nothing moves any more. */
  finals: ReadonlySet<S>;
  /** The states a record may move to from each state (staying is always allowed). */
  moves: Readonly<Record<S, readonly S[]>>;
  /** Moves into these states change what the console says about money: they are confirmed before they are believed. */
  confirm: ReadonlySet<S>;
  /** The state that means the money arrived (or left, for transfers). */
  done: S;
};

export type Decision<S extends string> = {
  apply: boolean;
  from: S | null;
  to: S;
  /** Why it was not applied: a final state holds, a move the table forbids, or an older report. */
  reason?: "final" | "forbidden" | "stale";
};

function defineMachine<S extends string>(machine: StatusMachine<S>): StatusMachine<S> {
  return machine;
}

export function stateOf<S extends string>(machine: StatusMachine<S>, raw: string | null | undefined): S | null {
  if (raw === null || raw === undefined) return null;
  const key = raw
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, "_");
  return machine.aliases[key] ?? ("unknown" as S);
}

export function isFinal<S extends string>(machine: StatusMachine<S>, raw: string | null | undefined): boolean {
  const state = stateOf(machine, raw);
  return state !== null && machine.finals.has(state);
}

export function needsConfirmation<S extends string>(machine: StatusMachine<S>, raw: string | null | undefined): boolean {
  const state = stateOf(machine, raw);
  return state !== null && machine.confirm.has(state);
}

/**
 * Whether `incoming` (reported at `incomingAt`) may replace `current` (recorded at `currentAt`).
 * Times are the report's own time when it has one, else arrival; null means "no time known".
 */
export function decide<S extends string>(
  machine: StatusMachine<S>,
  current: string | null | undefined,
  incoming: string,
  times: { currentAt?: Date | null; incomingAt?: Date | null } = {},
): Decision<S> {
  const from = stateOf(machine, current);
  const to = stateOf(machine, incoming)!;
  if (from === null) return { apply: true, from, to };
  if (machine.finals.has(from)) {
    // The same final status spelled again (or with more detail) is harmless; anything else is refused.
    return from === to ? { apply: true, from, to } : { apply: false, from, to, reason: "final" };
  }
  const forward = machine.moves[from].includes(to);
  const backward = machine.moves[to].includes(from);
  if (to !== from && !forward) return { apply: false, from, to, reason: "forbidden" };
  if (to !== from && !backward) return { apply: true, from, to };
  // The same state, or two states that can follow each other: the newer report wins.
  const { currentAt, incomingAt } = times;
  if (currentAt && incomingAt && incomingAt < currentAt) return { apply: false, from, to, reason: "stale" };
  return { apply: true, from, to };
}

// ---------------------------------------------------------------------------
// Transactions (charges, deposits, transactions learned from webhooks or lookups)
// ---------------------------------------------------------------------------

export const TRANSACTION_STATES = ["awaiting", "paid", "failed", "canceled", "expired", "refunded", "charged_back", "unknown"] as const;
export type TransactionState = (typeof TRANSACTION_STATES)[number];

export const transactionMachine = defineMachine<TransactionState>({
  kind: "transaction",
  states: TRANSACTION_STATES,
  // The seed shows OK and PENDING at creation, FAILED in lookups and COMPLETED when paid; the
  // other spellings are the ones the family's gateways send (creation answers say OK, later
  // reports PENDING for the same unpaid charge).
  aliases: {
    OK: "awaiting",
    PENDING: "awaiting",
    CREATED: "awaiting",
    WAITING_PAYMENT: "awaiting",
    AWAITING_PAYMENT: "awaiting",
    PROCESSING: "awaiting",
    COMPLETED: "paid",
    PAID: "paid",
    APPROVED: "paid",
    FAILED: "failed",
    REFUSED: "failed",
    DECLINED: "failed",
    CANCELED: "canceled",
    CANCELLED: "canceled",
    EXPIRED: "expired",
    REFUNDED: "refunded",
    CHARGED_BACK: "charged_back",
    CHARGEBACK: "charged_back",
  },
  finals: new Set<TransactionState>(["failed", "canceled", "expired", "refunded", "charged_back"]),
  moves: {
    awaiting: ["paid", "failed", "canceled", "expired", "refunded", "charged_back", "unknown"],
    unknown: ["awaiting", "paid", "failed", "canceled", "expired", "refunded", "charged_back"],
    paid: ["refunded", "charged_back"],
    failed: [],
    canceled: [],
    expired: [],
    refunded: [],
    charged_back: [],
  },
  confirm: new Set<TransactionState>(["paid", "failed", "canceled", "expired", "refunded", "charged_back"]),
  done: "paid",
});

/**
 * Whether a charge with this status may still be paid: the one rule behind every code to pay
 * (Pix code and QR code, boleto line and barcode, crypto address) the console shows. A charge the
 * gateway confirmed as paid, refunded or otherwise closed is not; one with no status yet, awaiting
 * payment or in a status no table knows still is (the customer may be paying it right now). A
 * ledger row's kind picks its machine: a subscription is payable until its first payment.
 */
export function isPayable(raw: string | null | undefined, operationKind = "pix_charge"): boolean {
  const state = stateOf(machineForOperation(operationKind), raw);
  return state === null || state === "awaiting" || state === "unknown";
}

// ---------------------------------------------------------------------------
// Subscriptions (the subscription record is "not shown" by the seed: the family's spellings)
// ---------------------------------------------------------------------------

export const SUBSCRIPTION_STATES = ["awaiting", "active", "paused", "canceled", "ended", "unknown"] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

export const subscriptionMachine = defineMachine<SubscriptionState>({
  kind: "subscription",
  states: SUBSCRIPTION_STATES,
  aliases: {
    OK: "awaiting",
    PENDING: "awaiting",
    CREATED: "awaiting",
    WAITING_PAYMENT: "awaiting",
    ACTIVE: "active",
    COMPLETED: "active",
    PAID: "active",
    PAUSED: "paused",
    SUSPENDED: "paused",
    PAST_DUE: "paused",
    OVERDUE: "paused",
    CANCELED: "canceled",
    CANCELLED: "canceled",
    EXPIRED: "ended",
    FINISHED: "ended",
    ENDED: "ended",
  },
  finals: new Set<SubscriptionState>(["canceled", "ended"]),
  moves: {
    awaiting: ["active", "paused", "canceled", "ended", "unknown"],
    unknown: ["awaiting", "active", "paused", "canceled", "ended"],
    active: ["paused", "canceled", "ended"],
    paused: ["active", "canceled", "ended"],
    canceled: [],
    ended: [],
  },
  confirm: new Set<SubscriptionState>(["active", "canceled", "ended"]),
  done: "active",
});

// ---------------------------------------------------------------------------
// Pix transfers (withdraws): the seed shows PENDING at creation
// ---------------------------------------------------------------------------

export const TRANSFER_STATES = ["awaiting", "completed", "failed", "canceled", "unknown"] as const;
export type TransferState = (typeof TRANSFER_STATES)[number];

export const transferMachine = defineMachine<TransferState>({
  kind: "transfer",
  states: TRANSFER_STATES,
  aliases: {
    OK: "awaiting",
    PENDING: "awaiting",
    CREATED: "awaiting",
    PROCESSING: "awaiting",
    IN_PROCESS: "awaiting",
    COMPLETED: "completed",
    PAID: "completed",
    DONE: "completed",
    SUCCESS: "completed",
    FAILED: "failed",
    ERROR: "failed",
    REJECTED: "failed",
    REFUSED: "failed",
    CANCELED: "canceled",
    CANCELLED: "canceled",
  },
  finals: new Set<TransferState>(["completed", "failed", "canceled"]),
  moves: {
    awaiting: ["completed", "failed", "canceled", "unknown"],
    unknown: ["awaiting", "completed", "failed", "canceled"],
    completed: [],
    failed: [],
    canceled: [],
  },
  confirm: new Set<TransferState>(["completed", "failed", "canceled"]),
  done: "completed",
});

// ---------------------------------------------------------------------------
// Refund requests: the seed shows PENDING at creation
// ---------------------------------------------------------------------------

export const REFUND_STATES = ["awaiting", "approved", "refused", "canceled", "unknown"] as const;
export type RefundState = (typeof REFUND_STATES)[number];

export const refundMachine = defineMachine<RefundState>({
  kind: "refund",
  states: REFUND_STATES,
  aliases: {
    PENDING: "awaiting",
    OK: "awaiting",
    CREATED: "awaiting",
    PROCESSING: "awaiting",
    IN_ANALYSIS: "awaiting",
    APPROVED: "approved",
    COMPLETED: "approved",
    REFUNDED: "approved",
    DONE: "approved",
    REJECTED: "refused",
    REFUSED: "refused",
    DENIED: "refused",
    FAILED: "refused",
    CANCELED: "canceled",
    CANCELLED: "canceled",
  },
  finals: new Set<RefundState>(["approved", "refused", "canceled"]),
  moves: {
    awaiting: ["approved", "refused", "canceled", "unknown"],
    unknown: ["awaiting", "approved", "refused", "canceled"],
    approved: [],
    refused: [],
    canceled: [],
  },
  confirm: new Set<RefundState>(["approved"]),
  done: "approved",
});

export const MACHINES = {
  transaction: transactionMachine,
  subscription: subscriptionMachine,
  transfer: transferMachine,
  refund: refundMachine,
} as const;

export type MachineKind = keyof typeof MACHINES;

/** Ledger rows hold charges and deposits (transactions) and subscription definitions. */
export function machineKindForOperation(kind: string): MachineKind {
  return kind.endsWith("_subscription") ? "subscription" : "transaction";
}

export function machineForOperation(kind: string): StatusMachine<string> {
  return MACHINES[machineKindForOperation(kind)] as StatusMachine<string>;
}

/** Every spelling the machine reads as `state`, for queries that select rows by state. */
export function spellingsOf<S extends string>(machine: StatusMachine<S>, state: S): string[] {
  return Object.entries(machine.aliases)
    .filter(([, mapped]) => mapped === state)
    .map(([spelling]) => spelling);
}
