/** Why a transfer was refused; the action turns it into a message (app/(dashboard)/[account]/transfers/actions.ts). */
export type TransferRefusalReason =
  | "ipUnknown"
  | "unresolved"
  | "keysRejected"
  | "forbidden"
  | "gatewayRefused"
  | "insufficientBalance"
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

/**
 * A refusal for lack of balance. The interface names no such error: the family's gateways answer it
 * with an errorCode or message that says so (the sandbox: 422 GATEWAY_INSUFFICIENT_BALANCE, "Saldo
 * disponível insuficiente…"). A clear refusal either way: nothing left, nothing is unknown.
 */
export function isInsufficientBalance(error: { errorCode?: string; gatewayMessage?: string }): boolean {
  return (
    /INSUFFICIENT_(BALANCE|FUNDS)|NO_BALANCE/i.test(error.errorCode ?? "") ||
    /saldo\s+(\S+\s+)?insuficiente|insufficient\s+(balance|funds)/i.test(error.gatewayMessage ?? "")
  );
}
