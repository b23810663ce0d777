import { randomUUID } from "node:crypto";
import { inArray, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { ledgerTransactions } from "@/lib/db/schema";
import { insertParkedPixPayments } from "@/lib/ledger/synthetic/parked";

/**
 * The lookup-ceiling scenario (lib/background/__tests__/lookup-ceiling.test.ts and
 * `npm run bench:ceiling`): paid Pix charges at the sandbox whose PAID notification the ledger has
 * parked ("confirmando"), each with its confirmation check due, oldest first; then the reconciler
 * confirms them through the gateway's lookup.
 */

export type SeededPayment = { index: number; ledgerId: string; identifier: string; transactionId: string };

type Keys = { publicKey: string; secretKey: string };

async function inBatches<T, R>(items: T[], concurrency: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await run(items[i]);
      }
    }),
  );
  return results;
}

async function sandboxCall(url: string, keys: Keys, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-public-key": keys.publicKey, "x-secret-key": keys.secretKey },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`sandbox answered ${response.status} to ${new URL(url).pathname}`);
  return json;
}

/** `count` payments paid at the sandbox and awaiting the console's confirmation, due in index order. */
export async function seedConfirmations(options: {
  sandboxUrl: string;
  keys: Keys;
  accountId: string;
  count: number;
  prefix: string;
}): Promise<SeededPayment[]> {
  const { sandboxUrl, keys, accountId, count, prefix } = options;
  const run = randomUUID().slice(0, 8);
  const created = await inBatches(
    Array.from({ length: count }, (_, index) => index),
    16,
    async (index) => {
      const identifier = `${prefix}-${run}-${String(index).padStart(5, "0")}`;
      const answer = await sandboxCall(`${sandboxUrl}/api/v1/gateway/pix/receive`, keys, {
        identifier,
        amount: 10 + (index % 50),
        client: { name: "Maria Souza", email: "maria@example.com", phone: "(11) 98888-7777", document: "529.982.247-25" },
      });
      const transactionId = String(answer.transactionId);
      await sandboxCall(`${sandboxUrl}/sandbox/v1/transactions/${encodeURIComponent(transactionId)}/events`, keys, { type: "pay" });
      return { index, identifier, transactionId, amountCents: (10 + (index % 50)) * 100 };
    },
  );

  const db = await getDb();
  const payments: SeededPayment[] = [];
  for (let start = 0; start < created.length; start += 500) {
    const batch = created.slice(start, start + 500);
    const rows = await insertParkedPixPayments(accountId, batch);
    const byIdentifier = new Map(rows.map((r) => [r.identifier, r.id]));
    for (const p of batch) {
      payments.push({
        index: p.index,
        ledgerId: byIdentifier.get(p.identifier)!,
        identifier: p.identifier,
        transactionId: p.transactionId,
      });
    }
  }
  // Due oldest first: payment i came due i milliseconds after payment 0, all of them in the past.
  const checks = payments.map((p) => ({ target_id: p.ledgerId, ago_s: (count - p.index) / 1000 }));
  await db.execute(sql`
    insert into gateway_checks (account_id, target, target_id, reason, next_at, created_at)
    select ${accountId}, 'ledger', target_id, 'confirm', now() - make_interval(secs => ago_s), now() - make_interval(secs => ago_s)
    from jsonb_to_recordset(${JSON.stringify(checks)}::jsonb) as r(target_id text, ago_s double precision)`);
  return payments;
}

export type ConfirmationRun = {
  confirmed: number;
  elapsedMs: number;
  /** The most later payments confirmed before one payment (0: strictly in order). */
  maxDisplacement: number;
};

/** Runs the reconciler in this process until every payment is confirmed (or the time is up). */
export async function waitForConfirmations(options: {
  payments: SeededPayment[];
  timeoutMs: number;
  onProgress?: (confirmed: number) => void;
}): Promise<ConfirmationRun> {
  // The job's own pass: the pipeline the background worker runs.
  const { runReconcilerPipeline } = await import("@/lib/background/jobs/gateway-checks");
  const db = await getDb();
  const ids = options.payments.map((p) => p.ledgerId);
  const started = Date.now();
  const remaining = async () =>
    Number(
      (
        await db.execute<{ n: number }>(
          sql`select count(*)::int as n from ledger_transactions where id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)) and pending_status is not null`,
        )
      ).rows[0]?.n ?? 0,
    );
  let left = ids.length;
  while (left > 0 && Date.now() - started < options.timeoutMs) {
    const claimed = await runReconcilerPipeline();
    if (claimed === 0) {
      left = await remaining();
      options.onProgress?.(ids.length - left);
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const elapsedMs = Date.now() - started;
  const rows = await db
    .select({ id: ledgerTransactions.id, at: ledgerTransactions.lastLookupAt, pendingStatus: ledgerTransactions.pendingStatus })
    .from(ledgerTransactions)
    .where(inArray(ledgerTransactions.id, ids));
  const at = new Map(rows.map((r) => [r.id, r.pendingStatus === null && r.at ? r.at.getTime() : Number.POSITIVE_INFINITY]));
  const times = options.payments.map((p) => at.get(p.ledgerId)!);
  let maxDisplacement = 0;
  for (let i = 0; i < times.length; i++) {
    let overtaken = 0;
    for (let j = i + 1; j < times.length; j++) if (times[j] < times[i]) overtaken++;
    maxDisplacement = Math.max(maxDisplacement, overtaken);
  }
  return { confirmed: times.filter((t) => Number.isFinite(t)).length, elapsedMs, maxDisplacement };
}
