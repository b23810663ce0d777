import type { PayoutRowExecution } from "@/lib/db/tables/payout-batches";
import type { SubmissionState } from "@/lib/db/tables/ledger";
import { stateOf, transferMachine } from "@/lib/status/machine";

/**
 * What happened to a row, in one word the pages, the progress counts and the results file share.
 * Once a row is sent, its transfer tells the rest: the gateway's answer, then its notification.
 * An unanswered transfer is "unknown", never "failed"; a status the console does not know stays
 * "sent" (shown with the gateway's own spelling), never "completed".
 */
export const PAYOUT_ROW_OUTCOMES = ["draft", "queued", "sending", "sent", "completed", "failed", "unknown", "refused", "canceled"] as const;
export type PayoutRowOutcome = (typeof PAYOUT_ROW_OUTCOMES)[number];

export type RowTransfer = { submission: SubmissionState | null; withdrawStatus: string | null } | null;

export function payoutRowOutcome(execution: PayoutRowExecution | null, transfer: RowTransfer): PayoutRowOutcome {
  switch (execution) {
    case null:
      return "draft";
    case "QUEUED":
      return "queued";
    case "SENDING":
      return "sending";
    case "CANCELED":
      return "canceled";
    case "REFUSED":
      return "refused";
    case "SENT": {
      if (!transfer) return "unknown";
      const state = stateOf(transferMachine, transfer.withdrawStatus);
      if (state === "completed") return "completed";
      if (state === "failed" || state === "canceled") return "failed";
      if (transfer.submission === "REJECTED") return "refused";
      if (transfer.withdrawStatus) return "sent";
      return "unknown";
    }
  }
}

/** The batch page's progress: every row counted once. */
export type PayoutProgress = {
  total: number;
  sent: number;
  completed: number;
  failed: number;
  unknown: number;
  remaining: number;
  canceled: number;
};

export function progressOf(outcomes: Iterable<PayoutRowOutcome>): PayoutProgress {
  const progress: PayoutProgress = { total: 0, sent: 0, completed: 0, failed: 0, unknown: 0, remaining: 0, canceled: 0 };
  for (const outcome of outcomes) {
    progress.total += 1;
    if (outcome === "queued" || outcome === "sending" || outcome === "draft") progress.remaining += 1;
    else if (outcome === "canceled") progress.canceled += 1;
    else {
      progress.sent += outcome === "refused" ? 0 : 1;
      if (outcome === "completed") progress.completed += 1;
      if (outcome === "failed" || outcome === "refused") progress.failed += 1;
      if (outcome === "unknown") progress.unknown += 1;
    }
  }
  return progress;
}
