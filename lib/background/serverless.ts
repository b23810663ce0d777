import "server-only";
import { after } from "next/server";
import { runDestinationsOnce } from "@/lib/destinations/work";
import { createLogger } from "@/lib/log";
import { runPayoutsOnce } from "@/lib/payout-batches/work";
import { runJobPass } from "@/lib/runtime/jobs";
import { processState } from "@/lib/runtime/state";
import { applierJob } from "@/lib/notifications/applier";
import { gatewayChecksJob } from "./jobs/gateway-checks";

const log = createLogger("reconcile");

/**
 * One bounded pass of the background work: stored notifications onto the ledger, then due
 * gateway checks; with `destinations`, then the events those confirmations made, sent to the
 * producer's systems, and the approved batches' rows (the cron tick and `after()` a response).
 */
export async function runBackgroundWorkOnce(
  options: { destinations?: boolean } = {},
): Promise<{ applied: number; checked: number; published?: number; attempted?: number; sentRows?: number }> {
  const applied = await runJobPass(applierJob);
  const checked = await runJobPass(gatewayChecksJob);
  if (!options.destinations) return { applied, checked };
  return { applied, checked, ...(await runDestinationsOnce()), ...(await runPayoutsOnce()) };
}

type Pass = { running: Promise<void> | null; again: boolean };
const pass = processState<Pass>("after-response-pass", () => ({ running: null, again: false }));

function runPass(): Promise<void> {
  const p = pass();
  if (p.running) {
    p.again = true;
    return p.running;
  }
  p.running = (async () => {
    try {
      do {
        p.again = false;
        await runBackgroundWorkOnce({ destinations: true });
      } while (p.again);
    } catch (error) {
      log.error("background pass after a response failed", { error });
    } finally {
      p.running = null;
    }
  })();
  return p.running;
}

/**
 * Serverless mode (RECONCILER=cron): nothing runs between cron ticks, which come every minute at
 * best. So the work a request made (a notification to apply and confirm, an event to deliver)
 * starts right after its answer: Next's after() runs it, and Vercel keeps the function alive
 * for it (waitUntil). The cron tick (`/api/cron/reconcile`) stays the safety net.
 */
export function continueAfterResponse(): void {
  if (process.env.RECONCILER !== "cron") return;
  after(runPass);
}
