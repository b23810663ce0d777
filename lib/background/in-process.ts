import "server-only";
import { subscribeSignal } from "@/lib/feed/bus";
import { startJobs, stopJobs } from "@/lib/runtime/jobs";
import { backgroundJobs } from "./jobs";

/**
 * Where the background work runs, by RECONCILER: unset, here (this driver); `worker`, in a
 * background process of its own (./worker-process.ts; `npm start` on Postgres); `cron`, in
 * bounded passes after responses and on the cron tick (./serverless.ts; Vercel); `off`, nowhere.
 */
function backgroundWorkRunsHere(): boolean {
  return !["off", "cron", "worker"].includes(process.env.RECONCILER ?? "");
}

/**
 * On a Node host (PGlite, or Postgres without a worker) the console's own process keeps every
 * job running: each process may, since every claim is made with skip locked.
 */
export function startBackgroundWork(): void {
  if (backgroundWorkRunsHere()) void startJobs(backgroundJobs, subscribeSignal);
}

/** Stops the jobs; resolves once the work in hand has ended (at its current batch). */
export async function stopBackgroundWork(): Promise<void> {
  await stopJobs(backgroundJobs);
}
