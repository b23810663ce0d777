import "server-only";
import { defineJob } from "@/lib/runtime/jobs";
import { announceStates } from "./events";
import { recalculateSummaries } from "./summaries";

const BATCH = 500;
/** Overdue and lost begin at São Paulo midnights, or with a recalculation: looked for after each, and every minute. */
const ANNOUNCE_EVERY_MS = 60_000;
let lastAnnounced = 0;

/**
 * Keeps the subscriptions' summaries up to date: takes the queue of recalculations (a charge
 * confirmed, a notification learned, the account's rules changed) a batch at a time. A page
 * reading an account takes that account's queue itself first, so this is what keeps the rest
 * current, and what takes a whole account's recalculation after its rules changed. Then it
 * records the overdue and lost episodes that began (lib/subscriptions/events.ts).
 */
export const subscriptionSummariesJob = defineJob({
  name: "subscription-summaries",
  intervalMs: () => Number(process.env.SUBSCRIPTION_SUMMARY_INTERVAL_MS ?? 2_000),
  async pass({ stopping }) {
    let done = 0;
    for (let batch = BATCH; batch === BATCH && !stopping();) {
      batch = await recalculateSummaries({ limit: BATCH });
      done += batch;
    }
    if (!stopping() && (done > 0 || Date.now() - lastAnnounced >= ANNOUNCE_EVERY_MS)) {
      lastAnnounced = Date.now();
      for (let batch = BATCH; batch >= BATCH && !stopping();) {
        batch = await announceStates({ limit: BATCH });
        done += batch;
      }
    }
    return done;
  },
});
