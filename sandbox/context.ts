import type { SandboxDb } from "./db/client";
import { producers, type transactions } from "./db/schema";
import type { FaultRegistry } from "./faults";
import type { LookupMeter } from "./lookup-limits";
import type { InsertBatcher } from "./domain/insert-batcher";
import type { WebhookWorker } from "./webhooks/worker";

export type Producer = typeof producers.$inferSelect;

import type { SandboxLogger } from "./lib/logger";

export type { SandboxLogger };

export type SandboxContext = {
  db: SandboxDb;
  driver: "pglite" | "postgres";
  /** `http://host:port` without trailing slash: base of every URL the sandbox hands out. */
  publicUrl: string;
  producers: ProducerDirectory;
  worker: WebhookWorker;
  faults: FaultRegistry;
  /** Lookups received per second, and the 429s a test asked for (lookup-limits.ts). */
  lookups: LookupMeter;
  batcher: InsertBatcher;
  /** Concurrent `pay` transitions, written together (domain/pay-batcher.ts; typed here so that file can import this one). */
  payments: { pay(producer: Producer, id: string, now: Date, dated: boolean): Promise<typeof transactions.$inferSelect> };
  log: SandboxLogger;
};

/**
 * Producers are few and read on every request, so they are cached in memory; writes go through
 * here so the cache never goes stale (the sandbox is a single process per database).
 */
export class ProducerDirectory {
  private byPublicKey = new Map<string, Producer>();
  private byId = new Map<string, Producer>();

  constructor(private readonly db: SandboxDb) {}

  async load(): Promise<void> {
    const rows = await this.db.select().from(producers);
    this.byPublicKey.clear();
    this.byId.clear();
    for (const row of rows) this.put(row);
  }

  put(row: Producer): void {
    this.byPublicKey.set(row.publicKey, row);
    this.byId.set(row.id, row);
  }

  findByPublicKey(publicKey: string): Producer | undefined {
    return this.byPublicKey.get(publicKey);
  }

  get(id: string): Producer | undefined {
    return this.byId.get(id);
  }

  /** The producer's sandbox clock (wall clock plus the offset moved by /sandbox/v1/clock/advance). */
  now(producerId: string): Date {
    return new Date(Date.now() + (this.byId.get(producerId)?.clockOffsetMs ?? 0));
  }
}
