import "server-only";
import { defineJob, runJobPass } from "@/lib/runtime/jobs";
import { destinationConfig } from "./config";
import { claimAttempts, loadTargets, recordResults, sendAttempt } from "./deliver";
import { DUE_CHANNEL, OUTBOX_CHANNEL, publishAllPending } from "./publish";

/**
 * The producer's deliveries, sent: up to DESTINATION_CONCURRENCY in flight per process, each
 * one that ends making room for the next due one; the results are written together. Woken by
 * new deliveries (DUE_CHANNEL) and every interval for the retries that came due.
 */
export const destinationDeliveriesJob = defineJob({
  name: "destination-deliveries",
  wakeOn: [DUE_CHANNEL],
  intervalMs: () => destinationConfig().intervalMs,
  concurrency: () => destinationConfig().concurrency,
  async claim(limit) {
    const claimed = await claimAttempts({ limit });
    if (claimed.length === 0) return [];
    const targets = await loadTargets(claimed);
    return claimed.map((attempt) => ({ attempt, target: targets.get(attempt.destinationId) }));
  },
  run: ({ attempt, target }) => sendAttempt(attempt, target),
  record: recordResults,
});

/**
 * The events the outbox triggers wrote, turned into deliveries (their signal, OUTBOX_CHANNEL, wakes
 * it); the sender then takes them at once.
 */
export const destinationOutboxJob = defineJob({
  name: "destination-outbox",
  wakeOn: [OUTBOX_CHANNEL],
  intervalMs: () => destinationConfig().intervalMs,
  async pass() {
    const published = await publishAllPending();
    destinationDeliveriesJob.wake();
    return published;
  },
});

/**
 * One bounded pass (the serverless drivers, tests): publishes what the outbox holds and sends
 * what is due until nothing is or `budgetMs` is spent.
 */
export async function runDestinationsOnce(budgetMs = 20_000): Promise<{ published: number; attempted: number }> {
  const published = await runJobPass(destinationOutboxJob);
  return { published, attempted: await runJobPass(destinationDeliveriesJob, budgetMs) };
}
