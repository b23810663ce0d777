/**
 * The withdraw as the page shows it: the creation answer's fields, with the status the transfer
 * holds now (the gateway's later notification, validated with the transfer's own token) in place
 * of the one the creation answer carried, so the page has one state source.
 */
export function currentWithdraw(
  withdraw: Record<string, unknown> | null,
  transfer: { withdrawStatus: string | null; withdrawStatusAt: Date | string | null },
): Record<string, unknown> | null {
  if (!withdraw) return null;
  if (!transfer.withdrawStatus) return withdraw;
  const next: Record<string, unknown> = { ...withdraw, status: transfer.withdrawStatus };
  const at = transfer.withdrawStatusAt ? new Date(transfer.withdrawStatusAt) : null;
  const answered = typeof withdraw.updatedAt === "string" ? Date.parse(withdraw.updatedAt) : NaN;
  if (at && !Number.isNaN(at.getTime()) && (Number.isNaN(answered) || at.getTime() > answered)) next.updatedAt = at.toISOString();
  return next;
}
