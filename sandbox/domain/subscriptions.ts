import { and, asc, eq, lte, sql } from "drizzle-orm";
import type { Producer, SandboxContext } from "../context";
import type { SandboxDb } from "../db/client";
import { producers, subscriptions, transactions } from "../db/schema";
import { badRequest } from "../lib/errors";
import { prefixedId } from "../lib/ids";
import { fromCents } from "../lib/money";
import { isExpiryNotPast } from "../../lib/br/card";
import { authorizeCard, type CardOutcome } from "../rails/card";
import { resolveCrypto, type CryptoQuote } from "../rails/crypto";
import { amountCents, checkClientDocument } from "./validation";
import { buildCardCharge, buildCryptoCharge, buildPixCharge, type BuiltCharge } from "./charges";
import { enqueuePaymentWebhook, subscriptionSnapshot } from "./transactions";
import { insertMovements, saleMovements } from "./balance";

type SubscriptionRow = typeof subscriptions.$inferSelect;
type Executor = SandboxDb | Parameters<Parameters<SandboxDb["transaction"]>[0]>[0];

export type PeriodicityType = "DAYS" | "WEEKS" | "MONTHS" | "YEARS";

const SAO_PAULO = "America/Sao_Paulo";
const saoPauloWall = new Intl.DateTimeFormat("en-US", {
  timeZone: SAO_PAULO,
  hourCycle: "h23",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
});

/** The São Paulo wall clock at an instant (month 0-based). */
function wallOf(ms: number) {
  const parts = Object.fromEntries(saoPauloWall.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  const msPart = ((ms % 1000) + 1000) % 1000;
  return {
    y: Number(parts.year),
    mo: Number(parts.month) - 1,
    d: Number(parts.day),
    h: Number(parts.hour),
    mi: Number(parts.minute),
    s: Number(parts.second),
    ms: msPart,
  };
}

/** How far São Paulo's wall clock is ahead of UTC at an instant (−3 h since 2019). */
function offsetAt(ms: number): number {
  const w = wallOf(ms);
  return Date.UTC(w.y, w.mo, w.d, w.h, w.mi, w.s, w.ms) - ms;
}

/** The instant of a São Paulo wall-clock time (fields may overflow, Date.UTC normalises them). */
function fromWall(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): Date {
  const asUtc = Date.UTC(y, mo, d, h, mi, s, ms);
  const first = asUtc - offsetAt(asUtc);
  return new Date(asUtc - offsetAt(first));
}

/**
 * `count` periods after `date` on the São Paulo calendar, at the same São Paulo time of day.
 * DAYS/WEEKS move the São Paulo date; MONTHS/YEARS move the month and clamp the day to the
 * month's last (Jan 31 + 1 month = Feb 28/29).
 */
export function addPeriod(date: Date, type: PeriodicityType | string, count: number): Date {
  const w = wallOf(date.getTime());
  if (type === "DAYS") return fromWall(w.y, w.mo, w.d + count, w.h, w.mi, w.s, w.ms);
  if (type === "WEEKS") return fromWall(w.y, w.mo, w.d + 7 * count, w.h, w.mi, w.s, w.ms);
  const months = w.mo + (type === "YEARS" ? count * 12 : count);
  const y = w.y + Math.floor(months / 12);
  const mo = ((months % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(y, mo + 1, 0)).getUTCDate();
  return fromWall(y, mo, Math.min(w.d, lastDay), w.h, w.mi, w.s, w.ms);
}

/**
 * When charge number `n` (1-based) of a subscription falls due: always counted from its start
 * (createdAt), so month-end clamping does not drift (Jan 31 → Feb 28 → Mar 31 → Apr 30).
 */
export function chargeDueAt(sub: Pick<SubscriptionRow, "createdAt" | "periodicityType" | "periodicity" | "firstChargeIn">, n: number) {
  return addPeriod(sub.createdAt, sub.periodicityType, sub.periodicity * (sub.firstChargeIn + n - 1));
}

export type SubscriptionInput = {
  kind: "pix" | "card" | "crypto";
  identifier: string;
  amount: number;
  client: { name: string; email: string; phone: string; document: string; address?: unknown };
  product: { id: string; name: string; price: number };
  subscription: { periodicityType: PeriodicityType; periodicity: number; firstChargeIn?: number };
  callbackUrl?: string;
  clientIp?: string;
  card?: { number: string; owner: string; expiresAt: string; cvv: string };
  cryptoCurrency?: string;
  network?: string;
};

const PAYMENT_METHOD = { pix: "PIX", card: "CREDIT_CARD", crypto: "CRYPTO" } as const;

/** The sandbox's subscription response (the interface does not show one). */
function subscriptionResponse(sub: SubscriptionRow, firstCharge: { transactionId: string; response: Record<string, unknown> } | null) {
  return {
    subscriptionId: sub.id,
    identifier: sub.identifier,
    status: sub.status,
    paymentMethod: PAYMENT_METHOD[sub.kind as keyof typeof PAYMENT_METHOD],
    amount: fromCents(sub.amountCents),
    periodicityType: sub.periodicityType,
    periodicity: sub.periodicity,
    firstChargeIn: sub.firstChargeIn,
    nextChargeAt: sub.nextChargeAt.toISOString(),
    createdAt: sub.createdAt.toISOString(),
    transactionId: firstCharge?.transactionId ?? null,
    charge: firstCharge?.response ?? null,
  };
}

function buildSubscriptionCharge(ctx: SandboxContext, producer: Producer, sub: SubscriptionRow, n: number, at: Date): BuiltCharge {
  const base = {
    kind: `subscription-${sub.kind}`,
    identifier: `${sub.identifier}-${n}`,
    amountCents: sub.amountCents,
    client: sub.client,
    products: [{ ...sub.product, quantity: 1 }],
    callbackUrl: sub.callbackUrl,
    purchaseType: "SUBSCRIPTION",
    subscriptionId: sub.id,
    trackProps: { ip: sub.clientIp ?? null, user_agent: null },
  };
  if (sub.kind === "card" && sub.card) {
    const { outcome, expiresAt, ...storedCard } = sub.card;
    // The test card decides every charge; an approving card past its expiry month at the charge's instant declines.
    const expired = outcome === "approve" && expiresAt !== undefined && !isExpiryNotPast(expiresAt, at);
    return buildCardCharge(ctx, producer, { ...base, storedCard, outcome: (expired ? "expired" : outcome) as CardOutcome }, at);
  }
  if (sub.kind === "crypto") {
    const resolved = resolveCrypto({ currency: "BRL", cryptoCurrency: sub.cryptoCurrency ?? "", network: sub.network ?? "" });
    if (!resolved.ok) throw new Error(resolved.message);
    return buildCryptoCharge(ctx, producer, { ...base, quote: resolved.quote }, at);
  }
  return buildPixCharge(ctx, producer, base, at);
}

export type RenewalCharge = {
  subscriptionId: string;
  identifier: string;
  chargeNumber: number;
  transactionId: string;
  status: string;
  dueAt: string;
};

/**
 * Makes the subscription's next charge (number chargesCount + 1), dated `at`, inside `db` (a
 * transaction), and moves the subscription on. The subscription row is claimed first with a
 * compare-and-set on (id, chargesCount, ACTIVE): a concurrent catch-up that charged it already
 * (the row lock makes it wait, then its condition no longer holds) gets null and charges nothing.
 */
async function chargeNext(db: Executor, ctx: SandboxContext, producer: Producer, sub: SubscriptionRow, at: Date) {
  const n = sub.chargesCount + 1;
  const built = buildSubscriptionCharge(ctx, producer, sub, n, at);
  const declined = built.row.status === "FAILED";
  const [updatedSub] = await db
    .update(subscriptions)
    .set({
      chargesCount: n,
      nextChargeAt: chargeDueAt(sub, n + 1),
      status: declined ? "FAILED" : sub.status,
      updatedAt: new Date(),
    })
    .where(and(eq(subscriptions.id, sub.id), eq(subscriptions.chargesCount, sub.chargesCount), eq(subscriptions.status, "ACTIVE")))
    .returning();
  if (!updatedSub) return null;
  // (producer, identifier `<subscription>-<n>`, kind) is unique: a second charge n can never be stored.
  const inserted = await db.insert(transactions).values(built.row).onConflictDoNothing().returning({ id: transactions.id });
  if (inserted.length > 0) {
    await insertMovements(db, saleMovements(built.row));
    for (const event of built.events) {
      await enqueuePaymentWebhook(db, built.row, producer, event, ctx.publicUrl, subscriptionSnapshot(updatedSub, n));
    }
  }
  return { sub: updatedSub, transactionId: built.row.id, status: built.row.status, response: built.row.response };
}

export async function createSubscription(ctx: SandboxContext, producer: Producer, input: SubscriptionInput, at?: Date) {
  const cents = amountCents(input.amount);
  checkClientDocument(input.client);
  // The subscription starts at `at` (x-sandbox-at), else on the producer's sandbox clock.
  const now = at ?? ctx.producers.now(producer.id);
  let card: NonNullable<SubscriptionRow["card"]> | null = null;
  if (input.kind === "card" && input.card) {
    const auth = authorizeCard(input.card, now);
    if (!auth.ok) throw badRequest(auth.message);
    card = { ...auth.stored, outcome: auth.outcome, expiresAt: input.card.expiresAt };
  }
  let quote: CryptoQuote | null = null;
  if (input.kind === "crypto") {
    const resolved = resolveCrypto({ currency: "BRL", cryptoCurrency: input.cryptoCurrency ?? "", network: input.network ?? "" });
    if (!resolved.ok) throw badRequest(resolved.message);
    quote = resolved.quote;
  }
  const firstChargeIn = input.subscription.firstChargeIn ?? 0;
  const { periodicityType, periodicity } = input.subscription;
  const row: typeof subscriptions.$inferInsert = {
    id: prefixedId("sub"),
    producerId: producer.id,
    kind: input.kind,
    identifier: input.identifier,
    status: "ACTIVE",
    amountCents: cents,
    client: input.client as Record<string, unknown>,
    product: input.product,
    periodicityType,
    periodicity,
    firstChargeIn,
    card,
    cryptoCurrency: quote?.cryptoCurrency ?? null,
    network: quote?.network ?? null,
    clientIp: input.clientIp ?? null,
    callbackUrl: input.callbackUrl ?? null,
    chargesCount: 0,
    nextChargeAt: chargeDueAt({ createdAt: now, periodicityType, periodicity, firstChargeIn }, 1),
    response: {},
    createdAt: now,
    updatedAt: now,
  };
  const outcome = await ctx.db.transaction(async (db) => {
    const [inserted] = await db.insert(subscriptions).values(row).onConflictDoNothing().returning();
    if (!inserted) {
      const [existing] = await db
        .select({ response: subscriptions.response })
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.producerId, producer.id),
            eq(subscriptions.kind, input.kind),
            eq(subscriptions.identifier, input.identifier),
          ),
        )
        .limit(1);
      return { response: existing.response, charged: false };
    }
    let sub = inserted;
    let first: { transactionId: string; response: Record<string, unknown> } | null = null;
    if (firstChargeIn === 0) {
      const charged = await chargeNext(db, ctx, producer, sub, now);
      if (!charged) throw new Error("a new subscription could not be claimed for its first charge");
      sub = charged.sub;
      first = { transactionId: charged.transactionId, response: charged.response };
    }
    const response = subscriptionResponse(sub, first);
    await db.update(subscriptions).set({ response }).where(eq(subscriptions.id, sub.id));
    return { response, charged: first !== null };
  });
  if (outcome.charged) ctx.worker.wake();
  return outcome.response;
}

/** At most this many charges per catch-up call (the rest on the next one). */
const MAX_CHARGES_PER_CATCH_UP = 500;

/**
 * Charges every charge of the producer's ACTIVE subscriptions that fell due at or before `now`
 * (nextChargeAt ≤ now), oldest first, each dated at its own due instant. Several missed periods
 * give several charges. Safe to run concurrently with itself (see chargeNext).
 */
export async function chargeDueRenewals(ctx: SandboxContext, producerId: string, now: Date): Promise<RenewalCharge[]> {
  const charges: RenewalCharge[] = [];
  for (let i = 0; i < MAX_CHARGES_PER_CATCH_UP; i++) {
    const [due] = await ctx.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.producerId, producerId), eq(subscriptions.status, "ACTIVE"), lte(subscriptions.nextChargeAt, now)))
      .orderBy(asc(subscriptions.nextChargeAt), asc(subscriptions.id))
      .limit(1);
    if (!due) break;
    const producer = ctx.producers.get(producerId);
    if (!producer) break;
    const at = due.nextChargeAt;
    const charged = await ctx.db.transaction((db) => chargeNext(db, ctx, producer, due, at));
    if (!charged) continue; // charged meanwhile by another catch-up: read again
    charges.push({
      subscriptionId: due.id,
      identifier: due.identifier,
      chargeNumber: charged.sub.chargesCount,
      transactionId: charged.transactionId,
      status: charged.status,
      dueAt: at.toISOString(),
    });
  }
  if (charges.length > 0) ctx.worker.wake();
  return charges;
}

/** Moves the producer's sandbox clock and charges every subscription that falls due (`{"days":0}`: up to now). */
export async function advanceClock(ctx: SandboxContext, producer: Producer, ms: number) {
  const [updated] = await ctx.db
    .update(producers)
    .set({ clockOffsetMs: sql`${producers.clockOffsetMs} + ${Math.round(ms)}` })
    .where(eq(producers.id, producer.id))
    .returning();
  ctx.producers.put(updated);
  const now = ctx.producers.now(producer.id);
  const charges = await chargeDueRenewals(ctx, producer.id, now);
  return { now: now.toISOString(), offsetMs: updated.clockOffsetMs, charges };
}

export const DEFAULT_RENEWAL_INTERVAL_MS = 60_000;

/**
 * The sandbox's own schedule: every `intervalMs` it charges what fell due for every producer with
 * an ACTIVE subscription, each at its own sandbox clock. One run at a time; `stop` waits for it.
 */
export class RenewalScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly ctx: SandboxContext,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    if (this.intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.runOnce(), this.intervalMs);
    this.timer.unref();
  }

  /** One catch-up over every producer; resolves to the number of charges made. */
  runOnce(): Promise<number> {
    this.running ??= this.catchUp().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async catchUp(): Promise<number> {
    let total = 0;
    try {
      const rows = await this.ctx.db
        .selectDistinct({ producerId: subscriptions.producerId })
        .from(subscriptions)
        .where(eq(subscriptions.status, "ACTIVE"));
      for (const { producerId } of rows) {
        total += (await chargeDueRenewals(this.ctx, producerId, this.ctx.producers.now(producerId))).length;
      }
    } catch (err) {
      this.ctx.log.error(`subscription renewals: ${(err as Error).message ?? err}`);
    }
    return total;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
