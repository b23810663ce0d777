import { inArray, sql } from "drizzle-orm";
import type { SandboxDb } from "../db/client";
import { balanceMovements, transactions, webhookOutbox } from "../db/schema";
import type { Producer, SandboxContext } from "../context";
import { badRequest, conflict, notFound } from "../lib/errors";
import { newEndToEndId } from "../lib/ids";
import { availableAtFor, saleMovements } from "./balance";
import { paymentOutboxRow, subscriptionFor, TRANSITIONS, webhookTarget, type TxRow } from "./transactions";

type Item = {
  producer: Producer;
  id: string;
  now: Date;
  /** x-sandbox-at given: the payment may not be dated before the transaction's creation. */
  dated: boolean;
  resolve: (row: TxRow) => void;
  reject: (err: unknown) => void;
};

const MAX_BATCH = 128;
/** An item of the batch that passed the checks and waits for the update. */
const PENDING = Symbol("pending");
const PAY = TRANSITIONS.pay;

/**
 * Coalesces concurrent `pay` transitions into one database transaction of a few multi-row
 * statements (read, update, sale movements, outbox), whatever the number of payments: on PGlite
 * the cost is per statement and per commit, so paying one by one (seven statements each) capped
 * the sandbox far below 300 pay calls a second on a busy host. Each caller still gets its own
 * answer (its row, or its own 404/409/400), and its webhook is in the outbox when it gets it.
 * If the batch fails as a whole, each payment is retried on its own (`fallback`), so only the
 * caller whose payment is at fault sees the error.
 */
export class PayBatcher {
  private queue: Item[] = [];
  private running = false;

  constructor(
    private readonly ctx: Pick<SandboxContext, "db" | "publicUrl" | "worker">,
    private readonly fallback: (producer: Producer, id: string, now: Date, dated: boolean) => Promise<TxRow>,
  ) {}

  pay(producer: Producer, id: string, now: Date, dated: boolean): Promise<TxRow> {
    return new Promise((resolve, reject) => {
      this.queue.push({ producer, id, now, dated, resolve, reject });
      if (!this.running) {
        this.running = true;
        // Let calls that arrived in the same tick join the first batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        // One payment per transaction in a batch: a second pay of the same one waits for the next
        // batch and meets the first one's result (409), as it would one by one.
        const batch: Item[] = [];
        const ids = new Set<string>();
        const rest: Item[] = [];
        for (const item of this.queue) {
          if (batch.length < MAX_BATCH && !ids.has(item.id)) {
            ids.add(item.id);
            batch.push(item);
          } else rest.push(item);
        }
        this.queue = rest;
        let outcomes: Array<TxRow | Error | typeof PENDING>;
        try {
          outcomes = await this.write(batch);
        } catch {
          for (const item of batch) {
            try {
              item.resolve(await this.fallback(item.producer, item.id, item.now, item.dated));
            } catch (err) {
              item.reject(err);
            }
          }
          continue;
        }
        batch.forEach((item, i) => {
          const outcome = outcomes[i];
          if (outcome === PENDING) item.reject(new Error("payment left undecided"));
          else if (outcome instanceof Error) item.reject(outcome);
          else item.resolve(outcome);
        });
        if (outcomes.some((o) => o !== PENDING && !(o instanceof Error))) this.ctx.worker.wake();
      }
    } finally {
      this.running = false;
    }
  }

  /** The batch in one database transaction; per item its paid row or the error its caller gets. */
  private write(batch: Item[]): Promise<Array<TxRow | Error | typeof PENDING>> {
    const db: SandboxDb = this.ctx.db;
    return db.transaction(async (tx) => {
      const current = await tx
        .select({
          id: transactions.id,
          producerId: transactions.producerId,
          status: transactions.status,
          pixCode: transactions.pixCode,
          createdAt: transactions.createdAt,
          paymentMethod: transactions.paymentMethod,
          purchaseType: transactions.purchaseType,
        })
        .from(transactions)
        .where(
          inArray(
            transactions.id,
            batch.map((item) => item.id),
          ),
        );
      const byId = new Map(current.map((row) => [row.id, row]));
      const outcomes: Array<TxRow | Error | typeof PENDING> = [];
      const patches: Array<Record<string, string | null>> = [];
      for (const item of batch) {
        const cur = byId.get(item.id);
        if (!cur || cur.producerId !== item.producer.id) {
          outcomes.push(notFound(`Transação ${item.id} não encontrada`));
          continue;
        }
        if (item.dated && item.now.getTime() < cur.createdAt.getTime()) {
          outcomes.push(
            badRequest(`x-sandbox-at: "pay" não pode acontecer antes de ${cur.createdAt.toISOString()} (a criação da transação)`),
          );
          continue;
        }
        if (!PAY.from.includes(cur.status)) {
          outcomes.push(invalidPay(cur.status));
          continue;
        }
        outcomes.push(PENDING);
        patches.push({
          id: item.id,
          payed_at: item.now.toISOString(),
          end_to_end_id: cur.pixCode ? newEndToEndId(item.now) : null,
          available_at: availableAtFor(item.producer, cur, item.now).toISOString(),
        });
      }
      if (patches.length > 0) {
        // The status condition keeps the transition safe against a concurrent change (Postgres).
        const res = await tx.execute(sql`
          update transactions as t set status = ${PAY.to}, payed_at = v.payed_at, updated_at = v.payed_at, status_description = null,
            end_to_end_id = coalesce(v.end_to_end_id, t.end_to_end_id), available_at = v.available_at
          from jsonb_to_recordset(${JSON.stringify(patches)}::jsonb) as v(id text, payed_at timestamptz, end_to_end_id text, available_at timestamptz)
          where t.id = v.id and t.status in (${sql.join(
            PAY.from.map((s) => sql`${s}`),
            sql`, `,
          )})
          returning t.id`);
        const paid = new Set((res as unknown as { rows: Array<{ id: string }> }).rows.map((r) => r.id));
        const updated =
          paid.size === 0
            ? []
            : await tx
                .select()
                .from(transactions)
                .where(inArray(transactions.id, [...paid]));
        const rows = new Map(updated.map((row) => [row.id, row]));
        const movements = [];
        const outbox: Array<typeof webhookOutbox.$inferInsert> = [];
        for (let i = 0; i < batch.length; i++) {
          if (outcomes[i] !== PENDING) continue;
          const item = batch[i];
          const row = rows.get(item.id);
          // Paid by someone else between the read and the update.
          if (!row) {
            const [now] = await tx
              .select({ status: transactions.status })
              .from(transactions)
              .where(inArray(transactions.id, [item.id]));
            outcomes[i] = invalidPay(now?.status);
            continue;
          }
          outcomes[i] = row;
          movements.push(...saleMovements(row));
          const url = webhookTarget(row, item.producer);
          if (url) {
            const subscription = row.subscriptionId ? await subscriptionFor(tx, row) : null;
            outbox.push(paymentOutboxRow(row, item.producer, PAY.event, this.ctx.publicUrl, subscription, url));
          }
        }
        if (movements.length > 0) await tx.insert(balanceMovements).values(movements).onConflictDoNothing();
        if (outbox.length > 0) await tx.insert(webhookOutbox).values(outbox);
      }
      return outcomes;
    });
  }
}

function invalidPay(status: string | undefined) {
  return conflict(`Não é possível aplicar "pay" a uma transação em status ${status}; "pay" só vale a partir de ${PAY.from.join(", ")}`);
}
