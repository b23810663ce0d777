import "server-only";
import { closeDb, getDb } from "@/lib/db/client";
import { stopFeedListener, subscribeStored } from "@/lib/feed/bus";
import { kickApplier } from "@/lib/webhooks/applier";
import { startBackgroundWork, stopBackgroundWork } from "./runner";

/**
 * The console's background work in a process of its own (`npm start` on Postgres; the console's
 * web processes then run with RECONCILER=worker): stored notifications onto the ledger and the
 * feed, gateway confirmations, unknown outcomes settled. A stored group's signal (STORED_CHANNEL)
 * wakes the applier at once; the timer catches whatever a missed signal left behind.
 * Safe beside other processes doing the same: every batch and check is claimed with skip locked.
 */
export async function runBackgroundProcess(): Promise<{ stop: () => Promise<void> }> {
  if (process.env.RECONCILER === "worker") throw new Error("the background process cannot run with RECONCILER=worker (that setting is for the web processes)");
  await getDb();
  const unsubscribe = await subscribeStored(() => kickApplier());
  startBackgroundWork();
  return {
    stop: async () => {
      unsubscribe();
      await stopBackgroundWork();
      await stopFeedListener();
      await closeDb();
    },
  };
}
