import "server-only";
import { after } from "next/server";
import { createLogger } from "@/lib/log";
import { runBackgroundWorkOnce } from "./runner";

const log = createLogger("reconcile");

type Pass = { running: Promise<void> | null; again: boolean };
const passKey = Symbol.for("merchant-console.after-response-pass");

function pass(): Pass {
  const g = globalThis as typeof globalThis & { [passKey]?: Pass };
  return (g[passKey] ??= { running: null, again: false });
}

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
 * for it (waitUntil). The cron tick stays the safety net. Elsewhere a background loop does it.
 */
export function continueAfterResponse(): void {
  if (process.env.RECONCILER !== "cron") return;
  after(runPass);
}
