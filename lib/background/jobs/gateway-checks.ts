import "server-only";
import { checkoutLinkSubmissions } from "@/lib/checkout-links/submission";
import { gatewayForAccount } from "@/lib/gateway/connection";
import { isGatewayError, type TransactionRecord } from "@/lib/gateway";
import { refundSubmissions } from "@/lib/refunds/submission";
import {
  claimDueChecks,
  deferRateLimitedCheck,
  delayAfter,
  finishCheck,
  NOTIFICATION_TARGET,
  readNotificationTargetId,
  reconcileConfig,
  retryCheckLater,
  type GatewayCheck,
} from "@/lib/submissions/checks";
import { lookupErrorInfo, reconcileCheck } from "@/lib/submissions/engine";
import { transactionSubmissions } from "@/lib/charges/submission";
import { applyLookup, CONFIRM_MISSES, missesOf } from "@/lib/ledger/settle";
import { transferSubmissions } from "@/lib/transfers/submission";
import { giveUpUnconfirmedNotifications, settleUnconfirmedNotifications } from "@/lib/ledger/notifications";
import { createLogger } from "@/lib/log";
import { defineJob } from "@/lib/runtime/jobs";
import { confirmationsDue } from "@/lib/notifications/applier";

const log = createLogger("reconcile");

/**
 * Notifications about a transaction the ledger does not have: the gateway's lookup by id decides.
 * Found → the row is created from its record (or the notifications join the row that has it);
 * a miss, repeated CONFIRM_MISSES times → contradicted; no answer for the give-up time → a person.
 */
async function processNotificationCheck(check: GatewayCheck): Promise<void> {
  const { giveUpMs } = reconcileConfig();
  const gatewayTransactionId = readNotificationTargetId(check);
  let record: TransactionRecord | null;
  try {
    record = await (await gatewayForAccount(check.accountId)).findTransaction({ id: gatewayTransactionId });
  } catch (error) {
    // A 429 is no answer: the check waits for Retry-After, its give-up clock and misses untouched.
    if (isGatewayError(error) && error.kind === "rate_limited") {
      await deferRateLimitedCheck(check.id, error.retryAfterMs);
      return;
    }
    const info = lookupErrorInfo(error);
    if (Date.now() - check.createdAt.getTime() >= giveUpMs) {
      await finishCheck(check.id, "needs_person", "lookup_failed", info);
      await giveUpUnconfirmedNotifications(check.accountId, gatewayTransactionId, check.attempts);
      return;
    }
    const retryAfterMs = isGatewayError(error) ? error.retryAfterMs : undefined;
    await retryCheckLater(check.id, Math.max(retryAfterMs ?? 0, delayAfter(check.attempts)), "lookup_failed", info);
    return;
  }
  if (!record && missesOf(check) + 1 < CONFIRM_MISSES) {
    await retryCheckLater(check.id, delayAfter(check.attempts), "not_found_yet");
    return;
  }
  const settled = await settleUnconfirmedNotifications(check.accountId, gatewayTransactionId, record);
  // A row gone in the meantime is left alone (applyLookup reads it under lock).
  if (settled.outcome === "attached" && record && settled.ledgerId) await applyLookup({ id: settled.ledgerId }, record);
  // "absent": the gateway does not know the transaction; "contradicted": it does, and says otherwise.
  await finishCheck(check.id, "done", settled.outcome === "contradicted" && !record ? "absent" : settled.outcome);
}

/** Each submission kind's check, by its queue target: the kind's own lookup decides (lib/submissions/engine.ts). */
async function processCheck(check: GatewayCheck): Promise<void> {
  try {
    switch (check.target) {
      case NOTIFICATION_TARGET:
        return await processNotificationCheck(check);
      case "transfer":
        return await reconcileCheck(transferSubmissions, check);
      case "refund":
        return await reconcileCheck(refundSubmissions, check);
      case "checkout_link":
        return await reconcileCheck(checkoutLinkSubmissions, check);
      case "ledger":
        return await reconcileCheck(transactionSubmissions(), check);
    }
  } catch (error) {
    log.error("check failed", { error });
    await retryCheckLater(check.id, delayAfter(check.attempts), "internal", { kind: "internal" }).catch(() => {});
  }
}

/** One claim of up to four times the concurrency, worked by the pipeline's lanes (tests drive the reconciler with it). */
export async function runReconcilerOnce(): Promise<{ claimed: number; limit: number }> {
  const limit = reconcileConfig().concurrency * 4;
  return { claimed: await runReconcilerPipeline(undefined, { claims: 1, claimSize: limit }), limit };
}

/** The most checks one pass claims: a pass always ends, and what is left waits for the next wake. */
const PASS_CLAIM_MAX = 1_600;

/**
 * The checks that come due, worked as a pipeline: `concurrency` in flight at all times, claimed
 * (oldest due first) a few at a time as slots free up, so one slow lookup never holds back the
 * next claim (a claim-all-then-wait round left the slots idle behind its slowest lookup:
 * `npm run bench:chain`).
 */
export async function runReconcilerPipeline(
  stopping: () => boolean = () => false,
  { claims = Number.POSITIVE_INFINITY, claimSize }: { claims?: number; claimSize?: number } = {},
): Promise<number> {
  const { concurrency } = reconcileConfig();
  const queue: GatewayCheck[] = [];
  let claimed = 0;
  let claimsMade = 0;
  let exhausted = false;
  let refill: Promise<void> | null = null;
  const take = async (): Promise<GatewayCheck | undefined> => {
    while (queue.length === 0 && !exhausted && !stopping()) {
      refill ??= claimDueChecks(Math.min(claimSize ?? concurrency, PASS_CLAIM_MAX - claimed))
        .then(
          (checks) => {
            queue.push(...checks);
            claimed += checks.length;
            claimsMade++;
            if (checks.length === 0 || claimed >= PASS_CLAIM_MAX || claimsMade >= claims) exhausted = true;
          },
          (error: unknown) => {
            // The database is unreachable: this pass ends once the checks in hand are done.
            exhausted = true;
            throw error;
          },
        )
        .finally(() => {
          refill = null;
        });
      await refill;
    }
    return queue.shift();
  };
  const lanes = await Promise.allSettled(
    Array.from({ length: concurrency }, async () => {
      for (let check = await take(); check; check = await take()) await processCheck(check);
    }),
  );
  const failed = lanes.find((lane) => lane.status === "rejected");
  if (failed) throw failed.reason;
  return claimed;
}

/**
 * The gateway checks: unknown outcomes settled, notifications confirmed by a lookup. Woken when
 * the applier queued confirmations, and every RECONCILE_INTERVAL_MS for the checks that came due.
 */
export const gatewayChecksJob = defineJob({
  name: "gateway-checks",
  wakeOn: [confirmationsDue],
  intervalMs: () => reconcileConfig().intervalMs,
  pass: ({ stopping }) => runReconcilerPipeline(stopping),
});
