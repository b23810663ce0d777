import "server-only";
import { closeDb, getDb } from "@/lib/db/client";
import { stopFeedListener, subscribeSignal } from "@/lib/feed/bus";
import { startJobs, stopJobs } from "@/lib/runtime/jobs";
import { backgroundJobs } from "./jobs";

/**
 * The console's background work in a process of its own (`npm start` on Postgres; the console's
 * web processes then run with RECONCILER=worker): every job kept running, each woken by its
 * signal (a stored group's STORED_CHANNEL wakes the applier at once) and its interval, which
 * catches whatever a missed signal left behind. Safe beside other processes doing the same:
 * every batch and check is claimed with skip locked.
 */
export async function runBackgroundProcess(): Promise<{ stop: () => Promise<void> }> {
  if (process.env.RECONCILER === "worker")
    throw new Error("the background process cannot run with RECONCILER=worker (that setting is for the web processes)");
  await getDb();
  await startJobs(backgroundJobs, subscribeSignal);
  let stopped: Promise<void> | null = null;
  return {
    // A safe point: no new signal or tick starts work; the passes in flight end after their batch
    // or claim, the deliveries in flight get their answers recorded; then the LISTEN connection
    // and the pool close. Whatever is left stays stored for the next worker.
    stop: () =>
      (stopped ??= (async () => {
        await stopJobs(backgroundJobs);
        await stopFeedListener();
        await closeDb();
      })()),
  };
}
