import "server-only";
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { OUTBOX_CHANNEL } from "./publish";

/**
 * Facts a module records in code rather than by trigger (a subscription's renewal outcome, a
 * state the console calculated): written to the outbox in the caller's transaction, so the fact
 * and its row commit together, under an id made from the fact itself, so recording it twice (two
 * workers, a retry) leaves one row and one event.
 */
export type RecordedFact = {
  accountId: string;
  source: "subscription";
  objectId: string;
  /** What makes the fact itself: the same key is the same fact. */
  key: string;
  previousStatus: string | null;
  status: string | null;
  snapshot: Record<string, unknown>;
};

export function factId(fact: Pick<RecordedFact, "accountId" | "source" | "objectId" | "key">): string {
  const digest = createHash("sha256").update(`${fact.accountId}\u0000${fact.source}\u0000${fact.objectId}\u0000${fact.key}`).digest("hex");
  return `msg_${digest.slice(0, 32)}`;
}

/** Writes the facts (those already recorded are left alone) and wakes the publisher after the commit. */
export async function recordFacts(tx: Tx, facts: readonly RecordedFact[]): Promise<void> {
  if (facts.length === 0) return;
  const rows = facts.map((fact) => ({
    id: factId(fact),
    account_id: fact.accountId,
    source: fact.source,
    object_id: fact.objectId,
    previous_status: fact.previousStatus,
    status: fact.status,
    snapshot: fact.snapshot,
  }));
  await tx.execute(sql`
    insert into event_outbox (id, account_id, source, object_id, previous_status, status, snapshot, occurred_at)
    select v.id, v.account_id, v.source, v.object_id, v.previous_status, v.status, v.snapshot, clock_timestamp()
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id text, account_id text, source text, object_id text,
      previous_status text, status text, snapshot jsonb)
    on conflict (id) do nothing`);
  await tx.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, '')`);
}
