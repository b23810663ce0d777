import "server-only";
import { runDestinationsOnce, startDestinationWork, stopDestinationWork } from "@/lib/destinations/work";
import { runPayoutsOnce, startPayoutWork, stopPayoutWork } from "@/lib/payout-batches/work";
import { applyPendingEvents, onConfirmationsDue } from "@/lib/webhooks/applier";
import { reconcileConfig } from "@/lib/submissions/checks";
import { runReconcilerOnce } from "./worker";
import { createLogger } from "@/lib/log";

const log = createLogger("reconcile");

type Loop = { timer: NodeJS.Timeout | null; running: boolean; again: boolean; stopping?: boolean; passEnded?: (() => void)[] };
const loopKey = Symbol.for("merchant-console.background-loop");

function loop(): Loop {
  const g = globalThis as typeof globalThis & { [loopKey]?: Loop };
  return (g[loopKey] ??= { timer: null, running: false, again: false });
}

/**
 * One pass of the background work: stored notifications onto the ledger, then due gateway checks;
 * with `destinations`, then the events those confirmations made, sent to the producer's systems,
 * and the approved batches' rows (the serverless mode: a long-running process has its own
 * senders, startDestinationWork and startPayoutWork).
 */
export async function runBackgroundWorkOnce(
  options: { destinations?: boolean } = {},
): Promise<{ applied: number; checked: number; published?: number; attempted?: number; sentRows?: number }> {
  let applied = 0;
  // A process asked to stop ends its pass after the batch or claim in hand (stopBackgroundWork).
  const stopping = () => loop().stopping === true;
  for (let batch = await applyPendingEvents(); batch > 0 && !stopping(); batch = await applyPendingEvents()) applied += batch;
  let checked = 0;
  // A full claim means more may be due; bounded so one pass always ends.
  for (let round = 0; round < 25 && !stopping(); round++) {
    const { claimed, limit } = await runReconcilerOnce();
    checked += claimed;
    if (claimed < limit) break;
  }
  if (!options.destinations) return { applied, checked };
  return { applied, checked, ...(await runDestinationsOnce()), ...(await runPayoutsOnce()) };
}

async function tick(): Promise<void> {
  const l = loop();
  if (l.stopping) return;
  if (l.running) {
    l.again = true;
    return;
  }
  l.running = true;
  try {
    do {
      l.again = false;
      await runBackgroundWorkOnce();
    } while (l.again && !l.stopping);
  } catch (error) {
    log.error("background pass failed", { error });
  } finally {
    l.running = false;
    for (const resolve of l.passEnded?.splice(0) ?? []) resolve();
  }
}

/** Whether this process runs the background work itself (RECONCILER unset); see startBackgroundWork. */
function backgroundWorkRunsHere(): boolean {
  return !["off", "cron", "worker"].includes(process.env.RECONCILER ?? "");
}

/**
 * On a Node host the console settles unknown outcomes and confirms notifications by itself, in
 * every process (the queue is shared and claimed with skip locked). With RECONCILER=worker a
 * process of its own does it (lib/reconcile/background-process.ts; `npm start` on Postgres). On
 * Vercel the cron route (`/api/cron/reconcile`) runs the same pass; set RECONCILER=cron there.
 */
export function startBackgroundWork(): void {
  const l = loop();
  if (l.timer || !backgroundWorkRunsHere()) return;
  l.stopping = false;
  onConfirmationsDue(() => void tick());
  l.timer = setInterval(() => void tick(), reconcileConfig().intervalMs);
  l.timer.unref();
  void tick();
  void startDestinationWork();
  void startPayoutWork();
}

/** Stops the timers; resolves once the pass and the deliveries in flight have ended (at their current batch). */
export async function stopBackgroundWork(): Promise<void> {
  const l = loop();
  if (l.timer) clearInterval(l.timer);
  l.timer = null;
  l.stopping = true;
  const passEnded = l.running ? new Promise<void>((resolve) => (l.passEnded ??= []).push(resolve)) : Promise.resolve();
  await Promise.all([stopDestinationWork(), stopPayoutWork(), passEnded]);
}
