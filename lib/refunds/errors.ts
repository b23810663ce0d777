/** Why a refund request was refused or left open; the action turns it into a message (app/(dashboard)/[account]/refunds/actions.ts). */
export type RefundRefusalReason =
  | "duplicate"
  | "notFound"
  | "keysRejected"
  | "gatewayRefused"
  | "rateLimited"
  | "gatewayUnavailable"
  /** Sent, no usable answer: recorded as UNKNOWN, the reconciler settles it by looking the transaction up. */
  | "outcomeUnknown"
  /** An earlier request of this transaction is still waiting for its outcome. */
  | "unresolved"
  /** The refund request named is not one of this account's. */
  | "requestNotFound";

export class RefundRefusedError extends Error {
  constructor(
    readonly reason: RefundRefusalReason,
    /** The gateway's own words, shown as secondary text. */
    readonly gatewayMessage?: string,
  ) {
    super(`refund refused: ${reason}`);
  }
}
