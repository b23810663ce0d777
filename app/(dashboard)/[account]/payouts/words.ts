import type { BadgeProps } from "@/components/ui/badge";
import type { PayoutBatchState } from "@/lib/db/tables/payout-batches";
import type { PayoutRowOutcome } from "@/lib/payout-batches/outcome";

type Tone = NonNullable<BadgeProps["variant"]>;

/** A batch's state as a colour beside its words (`vocab.batch.*`). */
export const STATE_TONE: Record<PayoutBatchState, Tone> = {
  DRAFT: "secondary",
  AWAITING_APPROVAL: "warning",
  REJECTED: "destructive",
  RUNNING: "info",
  PAUSED: "warning",
  CANCELED: "secondary",
  FINISHED: "success",
};

/** A row's outcome as a colour beside its words (`payouts.outcomes.*`): unknown is never red, sent is never green. */
export const OUTCOME_TONE: Record<PayoutRowOutcome, Tone> = {
  draft: "outline",
  queued: "outline",
  sending: "info",
  sent: "info",
  completed: "success",
  failed: "destructive",
  unknown: "warning",
  refused: "destructive",
  canceled: "secondary",
};

/** The rows a batch page lists per page. */
export const ROWS_PER_PAGE = 50;
