import { type PayoutRowView } from "@/lib/payout-batches/queries";

export const DRAFT_FILTERS = ["all", "errors", "warnings", "valid", "removed"] as const;
export const RESULT_FILTERS = ["all", "completed", "sent", "failed", "unknown", "remaining", "canceled"] as const;
export const SHOW = [...new Set([...DRAFT_FILTERS, ...RESULT_FILTERS])];

export const hasError = (row: PayoutRowView) => row.problems.some((p) => p.severity === "error");
export const hasWarning = (row: PayoutRowView) => row.problems.some((p) => p.severity === "warning");

export function draftFilter(show: string, row: PayoutRowView): boolean {
  if (show === "removed") return row.removed;
  if (row.removed) return false;
  if (show === "errors") return hasError(row);
  if (show === "warnings") return hasWarning(row);
  if (show === "valid") return !hasError(row);
  return true;
}

export function resultFilter(show: string, row: PayoutRowView): boolean {
  if (row.removed) return false;
  switch (show) {
    case "completed":
      return row.outcome === "completed";
    case "sent":
      return row.outcome === "sent";
    case "failed":
      return row.outcome === "failed" || row.outcome === "refused";
    case "unknown":
      return row.outcome === "unknown";
    case "remaining":
      return row.outcome === "queued" || row.outcome === "sending";
    case "canceled":
      return row.outcome === "canceled";
    default:
      return true;
  }
}

/** Problems first (errors, then warnings), then the file's order. */
export function problemRank(row: PayoutRowView): number {
  return hasError(row) ? 0 : hasWarning(row) ? 1 : 2;
}
