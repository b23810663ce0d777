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

/** The progress of rows given as (outcome, how many rows have it). */
export function progressOf(counts: Iterable<readonly [PayoutRowOutcome, number]>): PayoutProgress {
  const progress: PayoutProgress = { total: 0, sent: 0, completed: 0, failed: 0, unknown: 0, remaining: 0, canceled: 0 };
  for (const [outcome, n] of counts) {
    progress.total += n;
    if (outcome === "queued" || outcome === "sending" || outcome === "draft") progress.remaining += n;
    else if (outcome === "canceled") progress.canceled += n;
    else {
      if (outcome !== "refused") progress.sent += n;
      if (outcome === "completed") progress.completed += n;
      if (outcome === "failed" || outcome === "refused") progress.failed += n;
      if (outcome === "unknown") progress.unknown += n;
    }
  }
  return progress;
}
