/** Why a transfer was refused; the action turns it into a message (app/(dashboard)/[account]/transfers/actions.ts). */
export type TransferRefusalReason =
  | "ipUnknown"
  | "unresolved"
  | "keysRejected"
  | "forbidden"
  | "gatewayRefused"
  | "rateLimited"
  | "gatewayUnavailable"
  | "wrongPassword"
  | "tooManyAttempts"
  | "secondFactorRequired"
  | "codeRequired"
  | "wrongCode";

export class TransferRefusedError extends Error {
  constructor(
    readonly reason: TransferRefusalReason,
    readonly detail: {
      /** The gateway's own words, shown as secondary text. */
      gatewayMessage?: string;
      /** The form field the refusal is about. */
      field?: "password" | "code";
      /** A refused field the console explains in the user's words (lib/transfers/refusals.ts). */
      explained?: string;
      /** The transfer still waiting for its outcome (reason "unresolved"). */
      transferId?: string;
    } = {},
  ) {
    super(`transfer refused: ${reason}`);
  }
}
