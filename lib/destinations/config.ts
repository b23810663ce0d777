import "server-only";

function numberList(value: string | undefined): number[] | null {
  if (!value) return null;
  const list = value.split(",").map((v) => Number(v.trim()));
  return list.length > 0 && list.every((n) => Number.isFinite(n) && n >= 0) ? list : null;
}

/** Read at each use, so tests and deployments tune them with environment variables (docs/configuration.md). */
export function destinationConfig() {
  return {
    /**
     * The wait before each attempt, the first one included: Standard Webhooks' schedule, immediately
     * then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h. After the last one fails the delivery has failed.
     */
    delaysMs: numberList(process.env.DESTINATION_RETRY_DELAYS_MS) ?? [
      0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ],
    /** Nothing but failures for this long disables a destination (5 days). */
    disableAfterMs: Number(process.env.DESTINATION_DISABLE_AFTER_MS ?? 5 * 24 * 3_600_000),
    /** How long a claimed attempt is reserved for the process sending it (longer than the 15 s timeout). */
    leaseMs: Number(process.env.DESTINATION_LEASE_MS ?? 60_000),
    /** Attempts in flight at once per process. */
    concurrency: Math.max(1, Number(process.env.DESTINATION_CONCURRENCY ?? 64)),
    /** A Retry-After longer than this is held to it. */
    maxRetryAfterMs: 10 * 3_600_000,
    /** How often a process looks for retries that came due (new events wake it at once). */
    intervalMs: Number(process.env.RECONCILE_INTERVAL_MS ?? 2_000),
  };
}
