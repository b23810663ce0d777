import "server-only";
import { closeDb, getDb } from "@/lib/db/client";
import { stopFeedListener, subscribeStored } from "@/lib/feed/bus";
import { kickApplier } from "@/lib/webhooks/applier";
import { startBackgroundWork, stopBackgroundWork } from "./runner";

/** The applier's run in this process (lib/webhooks/applier.ts keeps it on globalThis under this key). */
const applierKey = Symbol.for("merchant-console.webhook-applier");

/** Resolves once the applier run in flight, if any, has ended: each of its batches is one transaction. */
async function applierIdle(): Promise<void> {
  const g = globalThis as typeof globalThis & { [applierKey]?: { applying?: boolean } };
  while (g[applierKey]?.applying) await new Promise((resolve) => setTimeout(resolve, 25));
}

/**
 * The console's background work in a process of its own (`npm start` on Postgres; the console's
 * web processes then run with RECONCILER=worker): stored notifications onto the ledger and the
 * feed, gateway confirmations, unknown outcomes settled. A stored group's signal (STORED_CHANNEL)
 * wakes the applier at once; the timer catches whatever a missed signal left behind.
 * Safe beside other processes doing the same: every batch and check is claimed with skip locked.
 */
export async function runBackgroundProcess(): Promise<{ stop: () => Promise<void> }> {
  if (process.env.RECONCILER === "worker")
    throw new Error("the background process cannot run with RECONCILER=worker (that setting is for the web processes)");
  await getDb();
  const unsubscribe = await subscribeStored(() => kickApplier());
  startBackgroundWork();
  let stopped: Promise<void> | null = null;
  return {
    // A safe point: no new signal or tick starts work; the pass in flight ends after its batch or
    // claim, the deliveries in flight get their answers recorded, the applier's run ends; then
    // the LISTEN connection and the pool close. Whatever is left stays stored for the next worker.
    stop: () =>
      (stopped ??= (async () => {
        unsubscribe();
        await stopBackgroundWork();
        await applierIdle();
        await stopFeedListener();
        await closeDb();
      })()),
  };
}
