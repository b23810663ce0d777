import { and, asc, desc, eq, inArray, like, sql } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import type { Producer, SandboxContext } from "../context";
import { producers, webhookAttempts, webhookOutbox, withdraws } from "../db/schema";
import { approveRefund, rejectRefund } from "../domain/refunds";
import { advanceClock } from "../domain/subscriptions";
import { balanceAt, MAX_RELEASE_DAYS, releaseDaysOf } from "../domain/balance";
import { settleWithdraw, withdrawJson } from "../domain/transfers";
import {
  applyTransition,
  findOwnTransaction,
  PAYMENT_EVENTS,
  renotify,
  setTransactionStatus,
  toTransactionRecord,
  TRANSITION_TYPES,
} from "../domain/transactions";
import { badRequest, notFound } from "../lib/errors";
import { readBody, type AppEnv } from "../lib/http";
import { REQUEST_TIME_HEADER, requestTime } from "../lib/request-time";
import { faultRequestSchema } from "../faults";
import { lookupLimitsRequestSchema } from "../lookup-limits";
import { httpUrlSchema } from "../contract/requests";

export const transitionRequestSchema = z.strictObject({ type: z.enum(TRANSITION_TYPES) });
export const notifyRequestSchema = z.strictObject({
  event: z.enum(PAYMENT_EVENTS),
  /** Test tool: to this address instead of the transaction's target (a transaction created elsewhere, heard of later). */
  url: httpUrlSchema.optional(),
});
/** Test tool: any status string, outside the transition table (a gateway may report one no table knows). */
export const statusRequestSchema = z.strictObject({
  status: z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, "letras maiúsculas, dígitos e _ (no máximo 64)"),
});
export const clockAdvanceRequestSchema = z
  .strictObject({
    days: z.number().min(0).max(3660).optional(),
    hours: z.number().min(0).max(87_840).optional(),
  })
  .refine((v) => v.days !== undefined || v.hours !== undefined, { message: "informe days (ou hours)" });
const days = z.number().int().min(0).max(MAX_RELEASE_DAYS);
export const settingsRequestSchema = z.strictObject({
  webhookUrl: z
    .url({ protocol: /^https?$/, error: "deve ser uma URL http(s)" })
    .nullable()
    .optional(),
  /** Days from payment to availability, per method; only the methods given change. */
  releaseDays: z.strictObject({ pix: days, boleto: days, card: days, crypto: days, deposit: days }).partial().optional(),
});

/** Control API of the sandbox (`/sandbox/v1`), always scoped to the authenticated producer. */
export function controlRoutes(ctx: SandboxContext) {
  const app = new Hono<AppEnv>();

  app.post("/transactions/:id/events", async (c) => {
    const producer = c.get("producer");
    const now = c.req.header(REQUEST_TIME_HEADER) ? requestTime(c) : undefined;
    const { type } = await readBody(c, transitionRequestSchema);
    const row = await applyTransition(ctx, producer, c.req.param("id"), type, { now });
    return c.json(toTransactionRecord(row, producer, ctx.publicUrl));
  });

  app.post("/transactions/:id/notify", async (c) => {
    const producer = c.get("producer");
    const { event, url } = await readBody(c, notifyRequestSchema);
    const tx = await findOwnTransaction(ctx.db, producer.id, c.req.param("id"));
    if (!tx) throw notFound(`Transação ${c.req.param("id")} não encontrada`);
    const queued = await renotify(ctx, producer, tx, event, url);
    if (!queued) throw badRequest("A transação não tem callbackUrl e o produtor não tem URL de webhook padrão (PUT /sandbox/v1/settings)");
    return c.json({ queued: true, event, transaction: toTransactionRecord(tx, producer, ctx.publicUrl) });
  });

  app.post("/transactions/:id/status", async (c) => {
    const producer = c.get("producer");
    const { status } = await readBody(c, statusRequestSchema);
    const row = await setTransactionStatus(ctx, producer, c.req.param("id"), status);
    return c.json(toTransactionRecord(row, producer, ctx.publicUrl));
  });

  app.post("/refunds/:id/approve", async (c) => c.json(await approveRefund(ctx, c.get("producer"), c.req.param("id"))));
  app.post("/refunds/:id/reject", async (c) => c.json(await rejectRefund(ctx, c.get("producer"), c.req.param("id"))));
  /** Test tool: the producer's withdraws (optionally those whose identifier starts with a prefix), oldest first. */
  app.get("/withdraws", async (c) => {
    const producer = c.get("producer");
    const prefix = c.req.query("identifierPrefix");
    const status = c.req.query("status");
    const conditions = [eq(withdraws.producerId, producer.id)];
    if (prefix) conditions.push(like(withdraws.identifier, `${prefix.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`));
    if (status) conditions.push(eq(withdraws.status, status));
    const rows = await ctx.db
      .select()
      .from(withdraws)
      .where(and(...conditions))
      .orderBy(asc(withdraws.createdAt))
      .limit(10_000);
    return c.json({ withdraws: rows.map((row) => ({ ...withdrawJson(row), identifier: row.identifier })) });
  });
  app.post("/withdraws/:id/complete", async (c) => c.json(await settleWithdraw(ctx, c.get("producer"), c.req.param("id"), "complete")));
  app.post("/withdraws/:id/fail", async (c) => c.json(await settleWithdraw(ctx, c.get("producer"), c.req.param("id"), "fail")));

  app.get("/clock", (c) => {
    const producer = c.get("producer");
    const current = ctx.producers.get(producer.id) ?? producer;
    return c.json({ now: ctx.producers.now(producer.id).toISOString(), offsetMs: current.clockOffsetMs });
  });

  app.post("/clock/advance", async (c) => {
    const body = await readBody(c, clockAdvanceRequestSchema);
    const ms = (body.days ?? 0) * 86_400_000 + (body.hours ?? 0) * 3_600_000;
    return c.json(await advanceClock(ctx, c.get("producer"), ms));
  });

  /** How many of the producer's notifications are waiting, delivered or given up (a demo waits for pending 0). */
  app.get("/deliveries/summary", async (c) => {
    const rows = await ctx.db
      .select({ status: webhookOutbox.status, n: sql<number>`count(*)::int` })
      .from(webhookOutbox)
      .where(eq(webhookOutbox.producerId, c.get("producer").id))
      .groupBy(webhookOutbox.status);
    const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
    return c.json({ pending: count("PENDING"), delivered: count("DELIVERED"), failed: count("FAILED") });
  });

  app.get("/deliveries", async (c) => {
    const producer = c.get("producer");
    const transactionId = c.req.query("transactionId");
    const withdrawId = c.req.query("withdrawId");
    const limit = Math.min(500, Math.max(1, Number(c.req.query("limit") ?? 100) || 100));
    const conditions = [eq(webhookOutbox.producerId, producer.id)];
    if (transactionId) conditions.push(eq(webhookOutbox.transactionId, transactionId));
    if (withdrawId) conditions.push(eq(webhookOutbox.withdrawId, withdrawId));
    const rows = await ctx.db
      .select()
      .from(webhookOutbox)
      .where(and(...conditions))
      .orderBy(desc(webhookOutbox.id))
      .limit(limit);
    const attempts = rows.length
      ? await ctx.db
          .select()
          .from(webhookAttempts)
          .where(
            inArray(
              webhookAttempts.outboxId,
              rows.map((r) => r.id),
            ),
          )
          .orderBy(webhookAttempts.attempt)
      : [];
    return c.json({
      deliveries: rows.map((row) => ({
        id: row.id,
        kind: row.kind,
        event: row.event,
        url: row.url,
        transactionId: row.transactionId,
        withdrawId: row.withdrawId,
        status: row.status,
        attempts: row.attempts,
        lastStatusCode: row.lastStatusCode,
        lastError: row.lastError,
        nextAttemptAt: row.status === "PENDING" ? row.nextAttemptAt.toISOString() : null,
        createdAt: row.createdAt.toISOString(),
        deliveredAt: row.deliveredAt ? row.deliveredAt.toISOString() : null,
        payload: row.payload,
        attemptLog: attempts
          .filter((a) => a.outboxId === row.id)
          .map((a) => ({
            attempt: a.attempt,
            startedAt: a.startedAt.toISOString(),
            durationMs: a.durationMs,
            statusCode: a.statusCode,
            error: a.error,
          })),
      })),
    });
  });

  app.get("/faults", (c) => c.json({ faults: ctx.faults.list(c.get("producer").id) }));
  app.post("/faults", async (c) => {
    const producer = c.get("producer");
    const spec = await readBody(c, faultRequestSchema);
    if (spec.status === undefined && spec.latencyMs === undefined && !spec.dropConnection && !spec.malformedBody) {
      throw badRequest("Informe ao menos um de status, latencyMs, dropConnection, malformedBody");
    }
    ctx.faults.add(producer.id, spec);
    return c.json({ faults: ctx.faults.list(producer.id) });
  });
  app.delete("/faults", (c) => {
    ctx.faults.clear(c.get("producer").id);
    return c.json({ faults: [] });
  });

  /** Lookups received per second and the 429s asked for (sandbox choice: the interface names no rate limit). */
  app.get("/lookups", (c) => c.json(ctx.lookups.stats(c.get("producer").id)));
  app.put("/lookups", async (c) => {
    const producerId = c.get("producer").id;
    ctx.lookups.setLimits(producerId, await readBody(c, lookupLimitsRequestSchema));
    return c.json(ctx.lookups.stats(producerId));
  });
  app.delete("/lookups", (c) => {
    const producerId = c.get("producer").id;
    ctx.lookups.resetStats(producerId);
    return c.json(ctx.lookups.stats(producerId));
  });

  /** The balance at the producer's sandbox clock (sandbox choice: the interface has no balance endpoint). */
  app.get("/balance", async (c) => {
    const producerId = c.get("producer").id;
    return c.json(await balanceAt(ctx.db, producerId, ctx.producers.now(producerId)));
  });

  const settingsJson = (p: Producer) => ({ webhookUrl: p.webhookUrl ?? null, releaseDays: releaseDaysOf(p) });
  app.get("/settings", (c) => c.json(settingsJson(ctx.producers.get(c.get("producer").id)!)));
  app.put("/settings", async (c) => {
    const producer = c.get("producer");
    const body = await readBody(c, settingsRequestSchema);
    const current = ctx.producers.get(producer.id)!;
    const patch: Partial<Producer> = {};
    if (body.webhookUrl !== undefined) patch.webhookUrl = body.webhookUrl;
    if (body.releaseDays) {
      const given = Object.fromEntries(Object.entries(body.releaseDays).filter(([, days]) => days !== undefined));
      patch.releaseDays = { ...(current.releaseDays ?? {}), ...given };
    }
    if (Object.keys(patch).length === 0) return c.json(settingsJson(current));
    const [updated] = await ctx.db.update(producers).set(patch).where(eq(producers.id, producer.id)).returning();
    ctx.producers.put(updated);
    return c.json(settingsJson(updated));
  });

  return app;
}
