import { and, asc, eq, lte, sql } from "drizzle-orm";
import type { Producer, SandboxContext } from "../context";
import type { SandboxDb } from "../db/client";
import { producers, subscriptions, transactions } from "../db/schema";
import { badRequest } from "../lib/errors";
import { prefixedId } from "../lib/ids";
import { fromCents } from "../lib/money";
import { authorizeCard, type CardOutcome } from "../rails/card";
import { resolveCrypto, type CryptoQuote } from "../rails/crypto";
import { amountCents, checkClientDocument } from "./validation";
import { buildCardCharge, buildCryptoCharge, buildPixCharge, type BuiltCharge } from "./charges";
import { enqueuePaymentWebhook, subscriptionSnapshot } from "./transactions";
import { insertMovements, saleMovements } from "./balance";

type SubscriptionRow = typeof subscriptions.$inferSelect;
type Executor = SandboxDb | Parameters<Parameters<SandboxDb["transaction"]>[0]>[0];

export type PeriodicityType = "DAYS" | "WEEKS" | "MONTHS" | "YEARS";

/** Calendar arithmetic in UTC; month ends clamp (Jan 31 + 1 month = Feb 28/29). */
export function addPeriod(date: Date, type: PeriodicityType | string, count: number): Date {
  const d = new Date(date.getTime());
  if (type === "DAYS") return new Date(d.getTime() + count * 86_400_000);
  if (type === "WEEKS") return new Date(d.getTime() + count * 7 * 86_400_000);
  const months = type === "YEARS" ? count * 12 : count;
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d;
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

function buildSubscriptionCharge(ctx: SandboxContext, producer: Producer, sub: SubscriptionRow, n: number, now: Date): BuiltCharge {
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
    const { outcome, ...storedCard } = sub.card;
    return buildCardCharge(ctx, producer, { ...base, storedCard, outcome: outcome as CardOutcome }, now);
  }
  if (sub.kind === "crypto") {
    const resolved = resolveCrypto({ currency: "BRL", cryptoCurrency: sub.cryptoCurrency ?? "", network: sub.network ?? "" });
    if (!resolved.ok) throw new Error(resolved.message);
    return buildCryptoCharge(ctx, producer, { ...base, quote: resolved.quote }, now);
  }
  return buildPixCharge(ctx, producer, base, now);
}

/** Charges charge number n of a subscription inside `db` (a transaction) and moves it forward. */
async function chargeDue(db: Executor, ctx: SandboxContext, producer: Producer, sub: SubscriptionRow, now: Date) {
  const n = sub.chargesCount + 1;
  const built = buildSubscriptionCharge(ctx, producer, sub, n, now);
  const declined = built.row.status === "FAILED";
  const [updatedSub] = await db
    .update(subscriptions)
    .set({
      chargesCount: n,
      nextChargeAt: addPeriod(sub.nextChargeAt, sub.periodicityType, sub.periodicity),
      status: declined ? "FAILED" : sub.status,
      updatedAt: now,
    })
    .where(eq(subscriptions.id, sub.id))
    .returning();
  const inserted = await db.insert(transactions).values(built.row).onConflictDoNothing().returning({ id: transactions.id });
  if (inserted.length > 0) {
    await insertMovements(db, saleMovements(built.row));
    for (const event of built.events) {
      await enqueuePaymentWebhook(db, built.row, producer, event, ctx.publicUrl, subscriptionSnapshot(updatedSub, n));
    }
  }
  return { sub: updatedSub, transactionId: built.row.id, status: built.row.status, response: built.row.response };
}

export async function createSubscription(ctx: SandboxContext, producer: Producer, input: SubscriptionInput) {
  const cents = amountCents(input.amount);
  checkClientDocument(input.client);
  let card: ((ReturnType<typeof authorizeCard> & { ok: true })["stored"] & { outcome: string }) | null = null;
  if (input.kind === "card" && input.card) {
    const auth = authorizeCard(input.card);
    if (!auth.ok) throw badRequest(auth.message);
    card = { ...auth.stored, outcome: auth.outcome };
  }
  let quote: CryptoQuote | null = null;
  if (input.kind === "crypto") {
    const resolved = resolveCrypto({ currency: "BRL", cryptoCurrency: input.cryptoCurrency ?? "", network: input.network ?? "" });
    if (!resolved.ok) throw badRequest(resolved.message);
    quote = resolved.quote;
  }
  const now = ctx.producers.now(producer.id);
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
    nextChargeAt: firstChargeIn > 0 ? addPeriod(now, periodicityType, periodicity * firstChargeIn) : now,
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
      const charged = await chargeDue(db, ctx, producer, sub, now);
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

const MAX_CHARGES_PER_ADVANCE = 500;

/** Moves the producer's sandbox clock and charges every subscription that falls due. */
export async function advanceClock(ctx: SandboxContext, producer: Producer, ms: number) {
  const [updated] = await ctx.db
    .update(producers)
    .set({ clockOffsetMs: sql`${producers.clockOffsetMs} + ${Math.round(ms)}` })
    .where(eq(producers.id, producer.id))
    .returning();
  ctx.producers.put(updated);
  const now = ctx.producers.now(producer.id);
  const charges: Array<{ subscriptionId: string; identifier: string; chargeNumber: number; transactionId: string; status: string }> = [];
  for (let i = 0; i < MAX_CHARGES_PER_ADVANCE; i++) {
    const [due] = await ctx.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.producerId, producer.id), eq(subscriptions.status, "ACTIVE"), lte(subscriptions.nextChargeAt, now)))
      .orderBy(asc(subscriptions.nextChargeAt))
      .limit(1);
    if (!due) break;
    const charged = await ctx.db.transaction((db) => chargeDue(db, ctx, updated, due, now));
    charges.push({
      subscriptionId: due.id,
      identifier: due.identifier,
      chargeNumber: charged.sub.chargesCount,
      transactionId: charged.transactionId,
      status: charged.status,
    });
  }
  if (charges.length > 0) ctx.worker.wake();
  return { now: now.toISOString(), offsetMs: updated.clockOffsetMs, charges };
}
