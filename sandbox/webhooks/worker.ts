import http from "node:http";
import https from "node:https";
import { and, asc, eq, inArray, lte, min, sql } from "drizzle-orm";
import type { SandboxDb } from "../db/client";
import { webhookOutbox } from "../db/schema";
import type { SandboxLogger } from "../lib/logger";

export const WEBHOOK_TIMEOUT_MS = 5_000;
export const WEBHOOK_MAX_ATTEMPTS = 8;
/**
 * Rows claimed at once. Each claim waits for its slowest delivery, so at 16 a receiver answering
 * in 50 ms capped the sandbox near 300 deliveries a second (`npm run bench:chain`).
 */
const BATCH_SIZE = 64;
const IDLE_POLL_MS = 1_000;
/** A claimed row is invisible to other claimers for this long (crash safety). */
const LEASE_MS = WEBHOOK_TIMEOUT_MS + 10_000;
const MAX_DELAY_MS = 60 * 60_000;

type Agents = { http: http.Agent; https: https.Agent };

/**
 * POSTs a body and answers the status code (a redirect is not followed). The whole exchange has
 * WEBHOOK_TIMEOUT_MS. A kept-alive connection the receiver closed meanwhile is retried once on a
 * new one (request.reusedSocket), as the attempt never reached the receiver.
 */
export function postJson(agents: Agents, url: string, headers: Record<string, string>, body: string, retried = false): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const secure = target.protocol === "https:";
    if (!secure && target.protocol !== "http:") return reject(new Error(`protocolo não suportado: ${target.protocol}`));
    const req = (secure ? https : http).request(
      target,
      { method: "POST", agent: secure ? agents.https : agents.http, headers: { ...headers, "content-length": Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on("end", () => {
          clearTimeout(timer);
          resolve(res.statusCode ?? 0);
        });
        res.on("error", (err) => {
          clearTimeout(timer);
          reject(err);
        });
      },
    );
    const timer = setTimeout(() => {
      const err = new Error(`timeout after ${WEBHOOK_TIMEOUT_MS} ms`);
      err.name = "TimeoutError";
      req.destroy(err);
    }, WEBHOOK_TIMEOUT_MS);
    req.on("error", (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (!retried && req.reusedSocket && err.code === "ECONNRESET") resolve(postJson(agents, url, headers, body, true));
      else reject(err);
    });
    req.end(body);
  });
}

export type OutboxRow = typeof webhookOutbox.$inferSelect;

type Delivery = {
  row: OutboxRow;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  status: "DELIVERED" | "FAILED" | "PENDING";
  deliveredAt: Date | null;
  nextAttemptAt: Date;
  finishedAt: Date;
};

/** Delay before attempt n+1 after n failed attempts: base · 2^(n−1), capped at one hour. */
export function retryDelayMs(baseMs: number, failedAttempts: number): number {
  return Math.min(MAX_DELAY_MS, baseMs * 2 ** Math.max(0, failedAttempts - 1));
}

/**
 * Delivers rows of the durable outbox. Wakes at once when a row is enqueued (wake()), otherwise
 * sleeps until the next retry is due (at most IDLE_POLL_MS, so rows written by another process
 * or left over from before a restart are picked up too).
 */
export class WebhookWorker {
  private running = false;
  private loopPromise: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private pendingWake = false;
  /**
   * Kept-alive connections to the receivers: a delivery reuses one instead of opening its own, and
   * node:http costs the sandbox less CPU per delivery than fetch did.
   */
  private readonly agents: Agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: BATCH_SIZE }),
    https: new https.Agent({ keepAlive: true, maxSockets: BATCH_SIZE }),
  };
  /** Earliest retry this worker scheduled and has not claimed yet (rows of other processes: the idle poll). */
  private nextRetryAt: number | null = null;

  constructor(
    private readonly db: SandboxDb,
    private readonly opts: { retryBaseMs: number; log: SandboxLogger; userAgent?: string },
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loopPromise = this.loop();
  }

  wake(): void {
    this.pendingWake = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loopPromise;
    this.loopPromise = null;
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private async loop(): Promise<void> {
    while (this.running) {
      let processed = 0;
      try {
        this.pendingWake = false;
        processed = await this.tick();
      } catch (err) {
        if (this.running) this.opts.log.error(`webhook worker: ${(err as Error).message}`);
        await this.sleep(IDLE_POLL_MS);
        continue;
      }
      // A full claim may have left due rows behind; a wake means new rows. Otherwise nothing is due
      // until the next retry: a partial claim took every due row (no second, empty claim).
      if (processed >= BATCH_SIZE || this.pendingWake || !this.running) continue;
      const nextDue = processed > 0 ? (this.nextRetryAt ?? Infinity) - Date.now() : await this.nextDueInMs().catch(() => IDLE_POLL_MS);
      if (nextDue > 0) await this.sleep(Math.min(nextDue, IDLE_POLL_MS));
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = null;
        done();
      };
    });
  }

  private async nextDueInMs(): Promise<number> {
    const [row] = await this.db
      .select({ next: min(webhookOutbox.nextAttemptAt) })
      .from(webhookOutbox)
      .where(eq(webhookOutbox.status, "PENDING"));
    if (!row?.next) return IDLE_POLL_MS;
    return new Date(row.next).getTime() - Date.now();
  }

  /** Claims due rows (lease) and delivers them concurrently. Returns how many were processed. */
  async tick(): Promise<number> {
    const now = new Date();
    // This claim takes every retry due by now (up to BATCH_SIZE; a full claim is followed by another).
    if (this.nextRetryAt !== null && this.nextRetryAt <= now.getTime()) this.nextRetryAt = null;
    const due = this.db
      .select({ id: webhookOutbox.id })
      .from(webhookOutbox)
      .where(and(eq(webhookOutbox.status, "PENDING"), lte(webhookOutbox.nextAttemptAt, now)))
      .orderBy(asc(webhookOutbox.nextAttemptAt))
      .limit(BATCH_SIZE)
      .for("update", { skipLocked: true });
    const claimed = await this.db
      .update(webhookOutbox)
      .set({ nextAttemptAt: new Date(now.getTime() + LEASE_MS) })
      .where(inArray(webhookOutbox.id, due))
      .returning();
    if (claimed.length === 0) return 0;
    // Rows of one transaction (or withdraw) go out in order; different ones in parallel.
    const groups = new Map<string, OutboxRow[]>();
    for (const row of claimed.sort((a, b) => a.id - b.id)) {
      const key = row.transactionId ?? row.withdrawId ?? `row:${row.id}`;
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    const results: Delivery[] = [];
    await Promise.all(
      [...groups.values()].map(async (rows) => {
        for (const row of rows) results.push(await this.deliver(row));
      }),
    );
    await this.record(results);
    return claimed.length;
  }

  /**
   * Every attempt of a claim and its row's new state, in one statement whatever the number of rows
   * (a data-modifying CTE: atomic without a transaction of its own).
   */
  private async record(results: Delivery[]): Promise<void> {
    if (results.length === 0) return;
    const retries = results.filter((r) => r.status === "PENDING").map((r) => r.nextAttemptAt.getTime());
    if (retries.length > 0) this.nextRetryAt = Math.min(this.nextRetryAt ?? Infinity, ...retries);
    const rows = results.map((r) => ({
      id: r.row.id,
      attempts: r.attempt,
      status: r.status,
      last_status_code: r.statusCode,
      last_error: r.error,
      delivered_at: r.deliveredAt?.toISOString() ?? null,
      next_attempt_at: r.nextAttemptAt.toISOString(),
      updated_at: r.finishedAt.toISOString(),
      started_at: r.startedAt.toISOString(),
      duration_ms: r.durationMs,
    }));
    await this.db.execute(sql`
      with v as (
        select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id bigint, attempts integer, status text,
          last_status_code integer, last_error text, delivered_at timestamptz, next_attempt_at timestamptz, updated_at timestamptz,
          started_at timestamptz, duration_ms integer)
      ), attempts as (
        insert into webhook_attempts (outbox_id, attempt, started_at, duration_ms, status_code, error)
        select id, attempts, started_at, duration_ms, last_status_code, last_error from v
      )
      update webhook_outbox as o set attempts = v.attempts, status = v.status, last_status_code = v.last_status_code,
        last_error = v.last_error, delivered_at = v.delivered_at, next_attempt_at = v.next_attempt_at, updated_at = v.updated_at
      from v where o.id = v.id`);
  }

  /** One attempt; what it did is recorded with the rest of its claim (record). */
  private async deliver(row: OutboxRow): Promise<Delivery> {
    const startedAt = new Date();
    const attempt = row.attempts + 1;
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      statusCode = await postJson(
        this.agents,
        row.url,
        {
          "content-type": "application/json",
          "user-agent": this.opts.userAgent ?? "sandbox-gateway-webhooks/1.0",
          "x-sandbox-delivery": String(row.id),
          "x-sandbox-attempt": String(attempt),
        },
        JSON.stringify(row.payload),
      );
      if (statusCode < 200 || statusCode >= 300) error = `HTTP ${statusCode}`;
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      error = e.name === "TimeoutError" ? `tempo esgotado após ${WEBHOOK_TIMEOUT_MS} ms` : (e.code ?? e.message);
    }
    const durationMs = Date.now() - startedAt.getTime();
    const delivered = error === null;
    const exhausted = !delivered && attempt >= WEBHOOK_MAX_ATTEMPTS;
    const finishedAt = new Date();
    const result: Delivery = {
      row,
      attempt,
      startedAt,
      durationMs,
      statusCode,
      error,
      status: delivered ? "DELIVERED" : exhausted ? "FAILED" : "PENDING",
      deliveredAt: delivered ? finishedAt : null,
      nextAttemptAt: delivered || exhausted ? finishedAt : new Date(finishedAt.getTime() + retryDelayMs(this.opts.retryBaseMs, attempt)),
      finishedAt,
    };
    if (!delivered) {
      // URL host only: query strings may carry tokens.
      let host = row.url;
      try {
        host = new URL(row.url).host;
      } catch {}
      this.opts.log.info(`webhook #${row.id} ${row.event} to ${host} attempt ${attempt} failed: ${error}`);
    }
    return result;
  }
}
