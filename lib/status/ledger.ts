import "server-only";
import type { ledgerTransactions } from "@/lib/db/schema";
import { decide, machineForOperation, needsConfirmation, stateOf, type Decision } from "./machine";

type LedgerRow = typeof ledgerTransactions.$inferSelect;
type LedgerSet = Partial<typeof ledgerTransactions.$inferInsert>;

/** A status some source reports for a ledger row. Lookups are the gateway's own answer: they need no confirmation. */
export type StatusReport = {
  status: string;
  source: "creation" | "webhook" | "lookup";
  /** When the report says it happened (its own timestamps), else when it arrived. */
  at: Date;
  paidAt?: Date | null;
};

export type StatusOutcome = "updated" | "confirming" | "stale" | "refused" | "unchanged";

/**
 * The one way a ledger row's status changes. Returns the columns to write (possibly none) and
 * what happened: "confirming" when a notification would move money and must first be confirmed
 * by the gateway's lookup (it is parked in `pendingStatus`), "stale"/"refused" when the status
 * machine keeps the current status (the delivery stays in the inbox and timeline only).
 */
export function ledgerStatusChange(
  row: Pick<LedgerRow, "kind" | "status" | "statusAt" | "paidAt" | "pendingStatus">,
  report: StatusReport,
): { outcome: StatusOutcome; set: LedgerSet; decision: Decision<string> } {
  const machine = machineForOperation(row.kind);
  const decision = decide(machine, row.status, report.status, { currentAt: row.statusAt, incomingAt: report.at });
  if (!decision.apply) {
    // The gateway's lookup contradicting a parked notification settles it: the gateway wins.
    const set: LedgerSet = report.source === "lookup" && row.pendingStatus ? { pendingStatus: null, pendingStatusAt: null } : {};
    return { outcome: decision.reason === "stale" ? "stale" : "refused", set, decision };
  }
  const sameState = decision.from !== null && decision.from === decision.to;
  if (report.source === "webhook" && !sameState && needsConfirmation(machine, report.status)) {
    return { outcome: "confirming", set: { pendingStatus: report.status, pendingStatusAt: report.at }, decision };
  }
  const set: LedgerSet = { status: report.status, statusSource: report.source, statusAt: report.at };
  if (report.source === "lookup") Object.assign(set, { pendingStatus: null, pendingStatusAt: null });
  if (machine.kind === "transaction" && stateOf(machine, report.status) === machine.done && !row.paidAt)
    set.paidAt = report.paidAt ?? report.at;
  const unchanged = row.status === report.status;
  return { outcome: unchanged ? "unchanged" : "updated", set, decision };
}
