import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import type { OutboxSource } from "@/lib/db/tables/destinations";
import { classify, eventBody, type Fact } from "./events";

/** Deliveries were created and are due: processes that send them listen to this. */
export const DUE_CHANNEL = "destination_due";
/** The outbox triggers send this when they record a fact. */
export const OUTBOX_CHANNEL = "event_outbox";

const PUBLISH_BATCH = 256;

type OutboxRow = {
  seq: number;
  id: string;
  account_id: string;
  source: OutboxSource;
  object_id: string;
  previous_status: string | null;
  status: string | null;
  snapshot: Record<string, unknown>;
  occurred_at: Date | string;
};

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
const jsonList = (values: readonly string[]) => sql`(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;

/**
 * Turns recorded facts into events, oldest first: each becomes an event of the vocabulary (with
 * its body written once, so every retry sends the same bytes under the same id) or is skipped,
 * and each event gets one delivery per destination of its account that wants it. Facts are
 * claimed with `for update skip locked`: several processes never publish one twice.
 */
export async function publishPendingFacts(limit = PUBLISH_BATCH): Promise<{ processed: number; published: number; deliveries: number }> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const pending = rowsOf<OutboxRow>(
      await tx.execute(sql`
        select seq, id, account_id, source, object_id, previous_status, status, snapshot, occurred_at from event_outbox
        where state = 'pending' order by seq limit ${limit} for update skip locked`),
    );
    if (pending.length === 0) return { processed: 0, published: 0, deliveries: 0 };

    const facts = pending.filter((row) => row.source !== "test");
    const ledgerIds = [...new Set(facts.filter((f) => f.source === "ledger").map((f) => f.object_id))];
    const accountIds = [...new Set(pending.map((f) => f.account_id))];
    const [notifications, accounts] = await Promise.all([
      ledgerIds.length === 0
        ? []
        : rowsOf<{ ledger_id: string; payload: Record<string, unknown> }>(
            await tx.execute(sql`
              select distinct on (ledger_id) ledger_id, payload from gateway_notifications
              where ledger_id in ${jsonList(ledgerIds)} and kind = 'payment' and coalesce(confirmation, '') <> 'contradicted'
              order by ledger_id, first_received_at desc`),
          ),
      rowsOf<{ id: string; mode: "test" | "live" }>(
        await tx.execute(sql`select id, mode from gateway_accounts where id in ${jsonList(accountIds)}`),
      ),
    ]);
    const notificationOf = new Map(notifications.map((n) => [n.ledger_id, n.payload]));
    const modeOf = new Map(accounts.map((a) => [a.id, a.mode]));

    const outcomes = pending.map((row) => {
      if (row.source === "test") return { seq: row.seq, type: null, payload: null };
      const fact: Fact = {
        id: row.id,
        accountId: row.account_id,
        source: row.source,
        objectId: row.object_id,
        previousStatus: row.previous_status,
        status: row.status,
        snapshot: row.snapshot,
        occurredAt: new Date(row.occurred_at),
      };
      const type = classify(fact);
      if (!type) return { seq: row.seq, type: null, payload: null };
      const body = eventBody(fact, type, {
        mode: modeOf.get(row.account_id) ?? "test",
        notification: notificationOf.get(row.object_id) ?? null,
      });
      return { seq: row.seq, type, payload: body };
    });

    const [counts] = rowsOf<{ published: number; deliveries: number }>(
      await tx.execute(sql`
        with v as (select * from jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb) as v(seq bigint, type text, payload jsonb)),
        published as (
          update event_outbox o set state = case when v.type is null then 'skipped' else 'published' end, type = v.type,
            payload = v.payload, published_at = now()
          from v where o.seq = v.seq
          returning o.id, o.account_id, o.type, o.state),
        created as (
          insert into destination_deliveries (destination_id, account_id, event_id, event_type)
          select d.id, p.account_id, p.id, p.type from published p
          join event_destinations d on d.account_id = p.account_id
          where p.state = 'published' and d.state in ('enabled', 'paused')
            and (d.kind = 'http' or d.last_seen_at > now() - interval '2 minutes')
            and (d.event_types is null or d.event_types ? p.type)
          on conflict do nothing
          returning 1),
        counted as (select (select count(*) from published where state = 'published')::int as published, (select count(*) from created)::int as deliveries)
        select published, deliveries, case when deliveries > 0 then pg_notify(${DUE_CHANNEL}, '') end as signal from counted`),
    );
    return { processed: pending.length, published: counts?.published ?? 0, deliveries: counts?.deliveries ?? 0 };
  });
}

/** Publishes until nothing is pending (bounded, so one pass always ends). */
export async function publishAllPending(): Promise<number> {
  let total = 0;
  for (let round = 0; round < 40; round++) {
    const { processed, published } = await publishPendingFacts();
    total += published;
    if (processed < PUBLISH_BATCH) break;
  }
  return total;
}
