import type { SandboxDb } from "../db/client";
import { balanceMovements, transactions, webhookOutbox } from "../db/schema";

type OutboxInsert = typeof webhookOutbox.$inferInsert;
type MovementInsert = typeof balanceMovements.$inferInsert;
type Item = {
  row: typeof transactions.$inferInsert & { id: string };
  outbox: OutboxInsert[];
  movements: MovementInsert[];
  resolve: (inserted: boolean) => void;
  reject: (err: unknown) => void;
};

const MAX_BATCH = 64;

/**
 * Coalesces concurrent transaction inserts into one multi-row `INSERT … ON CONFLICT DO NOTHING`
 * (plus one outbox insert and one of balance movements, in the same database transaction). Per-statement cost dominates on
 * PGlite, so this is what keeps charge creation fast under concurrency. Each caller learns
 * whether its own row was inserted or hit the identifier's unique index.
 */
export class InsertBatcher {
  private queue: Item[] = [];
  private running = false;

  constructor(private readonly db: SandboxDb) {}

  insert(row: Item["row"], outbox: OutboxInsert[], movements: MovementInsert[] = []): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ row, outbox, movements, resolve, reject });
      if (!this.running) {
        this.running = true;
        // Let requests that arrived in the same tick join the first batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          const inserted = await this.write(batch);
          for (const item of batch) item.resolve(inserted.has(item.row.id));
        } catch {
          // Isolate the failing row: retry one by one so only its caller sees the error.
          for (const item of batch) {
            try {
              item.resolve((await this.write([item])).has(item.row.id));
            } catch (err) {
              item.reject(err);
            }
          }
        }
      }
    } finally {
      this.running = false;
    }
  }

  private async write(batch: Item[]): Promise<Set<string>> {
    const rows = batch.map((item) => item.row);
    const withMore = batch.some((item) => item.outbox.length > 0 || item.movements.length > 0);
    if (!withMore) {
      const res = await this.db.insert(transactions).values(rows).onConflictDoNothing().returning({ id: transactions.id });
      return new Set(res.map((r) => r.id));
    }
    return this.db.transaction(async (db) => {
      const res = await db.insert(transactions).values(rows).onConflictDoNothing().returning({ id: transactions.id });
      const inserted = new Set(res.map((r) => r.id));
      const mine = batch.filter((item) => inserted.has(item.row.id));
      const outbox = mine.flatMap((item) => item.outbox);
      if (outbox.length > 0) await db.insert(webhookOutbox).values(outbox);
      const movements = mine.flatMap((item) => item.movements);
      if (movements.length > 0) await db.insert(balanceMovements).values(movements).onConflictDoNothing();
      return inserted;
    });
  }
}
