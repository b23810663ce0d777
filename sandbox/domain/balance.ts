import { and, eq, gt, lte, sql } from "drizzle-orm";
import { formatBrl } from "../../lib/br/money";
import type { Producer } from "../context";
import type { SandboxDb } from "../db/client";
import { balanceMovements, producers, transactions, withdraws } from "../db/schema";
import { ErrorCodes, GatewayError } from "../lib/errors";
import { fromCents, toCents } from "../lib/money";

type Executor = SandboxDb | Parameters<Parameters<SandboxDb["transaction"]>[0]>[0];
type TxRow = typeof transactions.$inferSelect;
type WithdrawRow = typeof withdraws.$inferSelect;
export type MovementInsert = typeof balanceMovements.$inferInsert;

const DAY_MS = 86_400_000;

export const RELEASE_METHODS = ["pix", "boleto", "card", "crypto", "deposit"] as const;
export type ReleaseMethod = (typeof RELEASE_METHODS)[number];
export type ReleaseDays = Record<ReleaseMethod, number>;

export const DEFAULT_RELEASE_DAYS: ReleaseDays = { pix: 0, boleto: 1, card: 30, crypto: 0, deposit: 0 };
export const MAX_RELEASE_DAYS = 365;
export const DEFAULT_OPENING_BALANCE_BRL = 50_000;

/** `pix=0,boleto=1,card=30` (SANDBOX_RELEASE_DAYS); throws on anything else, so a typo stops the start. */
export function parseReleaseDays(text: string | undefined): Partial<ReleaseDays> {
  const out: Partial<ReleaseDays> = {};
  for (const part of (text ?? "").split(",").map((p) => p.trim())) {
    if (!part) continue;
    const match = /^([a-z]+)\s*=\s*(\d{1,3})$/.exec(part);
    const method = match?.[1] as ReleaseMethod | undefined;
    if (!match || !method || !RELEASE_METHODS.includes(method) || Number(match[2]) > MAX_RELEASE_DAYS) {
      throw new Error(
        `SANDBOX_RELEASE_DAYS: "${part}" is not <method>=<days> (methods ${RELEASE_METHODS.join(", ")}; days 0–${MAX_RELEASE_DAYS})`,
      );
    }
    out[method] = Number(match[2]);
  }
  return out;
}

/** The opening balance in centavos: SANDBOX_OPENING_BALANCE (reais), else the default. */
export function openingBalanceCents(value = process.env.SANDBOX_OPENING_BALANCE): number {
  if (value === undefined || value.trim() === "") return DEFAULT_OPENING_BALANCE_BRL * 100;
  const reais = Number(value);
  if (!Number.isFinite(reais) || reais < 0) throw new Error(`SANDBOX_OPENING_BALANCE: "${value}" is not an amount in reais (0 or more)`);
  return toCents(reais);
}

/** Release days in effect for a producer: its own settings over SANDBOX_RELEASE_DAYS over the defaults. */
export function releaseDaysOf(producer: Pick<Producer, "releaseDays">): ReleaseDays {
  return { ...DEFAULT_RELEASE_DAYS, ...parseReleaseDays(process.env.SANDBOX_RELEASE_DAYS), ...(producer.releaseDays ?? {}) };
}

export function releaseMethodOf(tx: Pick<TxRow, "paymentMethod" | "purchaseType">): ReleaseMethod {
  if (tx.purchaseType === "DEPOSIT") return "deposit";
  if (tx.paymentMethod === "CREDIT_CARD") return "card";
  if (tx.paymentMethod === "BOLETO") return "boleto";
  if (tx.paymentMethod === "CRYPTO") return "crypto";
  return "pix";
}

/** payedAt + the method's release days, the same instant N days later. */
export function availableAtFor(producer: Pick<Producer, "releaseDays">, tx: Pick<TxRow, "paymentMethod" | "purchaseType">, payedAt: Date) {
  return new Date(payedAt.getTime() + releaseDaysOf(producer)[releaseMethodOf(tx)] * DAY_MS);
}

/** What the producer keeps of a transaction: amount − fee − splits (deposits have no fee). */
export function netCents(tx: Pick<TxRow, "amountCents" | "feeCents" | "splitsCents">): number {
  return tx.amountCents - tx.feeCents - tx.splitsCents;
}

/** A paid transaction's sale, fee and splits, pending until its availableAt (available at once when that is its payment). */
export function saleMovements(tx: TxRow): MovementInsert[] {
  if (!tx.payedAt || !tx.availableAt) return [];
  const occurredAt = new Date(tx.payedAt);
  const releaseAt = new Date(tx.availableAt);
  const bucket = releaseAt.getTime() > occurredAt.getTime() ? "pending" : "available";
  const base = {
    producerId: tx.producerId,
    bucket,
    occurredAt,
    releaseAt: bucket === "pending" ? releaseAt : null,
    transactionId: tx.id,
  } as const;
  const rows: MovementInsert[] = [{ ...base, kind: "sale", amountCents: tx.amountCents }];
  if (tx.feeCents !== 0) rows.push({ ...base, kind: "fee", amountCents: -tx.feeCents });
  if (tx.splitsCents !== 0) rows.push({ ...base, kind: "split", amountCents: -tx.splitsCents });
  return rows;
}

export async function insertMovements(db: Executor, rows: MovementInsert[]): Promise<void> {
  if (rows.length > 0) await db.insert(balanceMovements).values(rows).onConflictDoNothing();
}

/**
 * A refund or chargeback takes the transaction's amount back. After its release: all from
 * available. Before: the pending release is cancelled (−net, never released) and the rest
 * (fee + splits) comes from available. A transaction that never added a sale takes nothing back.
 */
export async function reverseSale(db: Executor, tx: TxRow, kind: "refund" | "chargeback", at: Date): Promise<void> {
  const [sale] = await db
    .select({ bucket: balanceMovements.bucket, releaseAt: balanceMovements.releaseAt })
    .from(balanceMovements)
    .where(and(eq(balanceMovements.transactionId, tx.id), eq(balanceMovements.kind, "sale")))
    .limit(1);
  if (!sale) return;
  const base = { producerId: tx.producerId, occurredAt: at, transactionId: tx.id };
  const released = sale.bucket === "available" || !sale.releaseAt || sale.releaseAt.getTime() <= at.getTime();
  if (released) {
    await insertMovements(db, [{ ...base, kind, bucket: "available", amountCents: -tx.amountCents }]);
    return;
  }
  const net = netCents(tx);
  await insertMovements(db, [
    { ...base, kind: "release_cancelled", bucket: "pending", releaseAt: sale.releaseAt, amountCents: -net },
    { ...base, kind, bucket: "available", amountCents: -(tx.amountCents - net) },
  ]);
}

/** What a transfer takes from the balance: its amount, plus the fee when the receiver gets the full amount. */
export function transferDebitCents(w: Pick<WithdrawRow, "amountCents" | "feeCents" | "discountFeeOfReceiver">): number {
  return w.discountFeeOfReceiver ? w.amountCents : w.amountCents + w.feeCents;
}

export function transferMovements(w: WithdrawRow, at: Date): MovementInsert[] {
  const base = { producerId: w.producerId, bucket: "available", occurredAt: at, withdrawId: w.id } as const;
  return [
    { ...base, kind: "transfer", amountCents: -(transferDebitCents(w) - w.feeCents) },
    { ...base, kind: "transfer_fee", amountCents: -w.feeCents },
  ];
}

/** A failed transfer gives back everything it took. */
export function transferReturnedMovements(w: WithdrawRow, at: Date): MovementInsert[] {
  const base = { producerId: w.producerId, bucket: "available", occurredAt: at, withdrawId: w.id } as const;
  return [
    { ...base, kind: "transfer_returned", amountCents: transferDebitCents(w) - w.feeCents },
    { ...base, kind: "transfer_fee_returned", amountCents: w.feeCents },
  ];
}

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** Available balance in centavos at `now`: what is available, plus pending releases already due. */
export async function availableCents(db: Executor, producerId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({
      cents: sql<string>`coalesce(sum(${balanceMovements.amountCents}) filter (where ${balanceMovements.bucket} = 'available' or ${balanceMovements.releaseAt} <= ${at(now)}), 0)`,
    })
    .from(balanceMovements)
    .where(and(eq(balanceMovements.producerId, producerId), lte(balanceMovements.occurredAt, at(now))));
  return Number(row?.cents ?? 0);
}

const saoPauloDay = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" });

/** GET /sandbox/v1/balance: available and pending at the producer's `now`, future releases by São Paulo day. */
export async function balanceAt(db: Executor, producerId: string, now: Date) {
  const available = await availableCents(db, producerId, now);
  const future = await db
    .select({ releaseAt: balanceMovements.releaseAt, cents: sql<string>`sum(${balanceMovements.amountCents})` })
    .from(balanceMovements)
    .where(
      and(
        eq(balanceMovements.producerId, producerId),
        eq(balanceMovements.bucket, "pending"),
        gt(balanceMovements.releaseAt, at(now)),
        lte(balanceMovements.occurredAt, at(now)),
      ),
    )
    .groupBy(balanceMovements.releaseAt);
  const byDay = new Map<string, number>();
  let pending = 0;
  for (const row of future) {
    const cents = Number(row.cents);
    pending += cents;
    const day = saoPauloDay.format(row.releaseAt!);
    byDay.set(day, (byDay.get(day) ?? 0) + cents);
  }
  const releases = [...byDay.entries()]
    .filter(([, cents]) => cents !== 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, cents]) => ({ date, amount: fromCents(cents) }));
  return { currency: "BRL" as const, available: fromCents(available), pending: fromCents(pending), releases };
}

/** Held until the end of the database transaction: what spends the balance is checked and written one at a time per producer. */
export async function lockProducer(db: Executor, producerId: string): Promise<void> {
  await db.select({ id: producers.id }).from(producers).where(eq(producers.id, producerId)).for("update");
}

/** Refuses a debit above the available balance at `now` (inside the transaction that holds the producer's lock). */
export async function refuseAboveAvailable(db: Executor, producerId: string, debitCents: number, now: Date): Promise<void> {
  const available = await availableCents(db, producerId, now);
  if (debitCents > available) {
    throw new GatewayError(
      422,
      ErrorCodes.insufficientBalance,
      `Saldo disponível insuficiente para esta transferência: disponível ${formatBrl(fromCents(available))}, necessário ${formatBrl(fromCents(debitCents))}`,
    );
  }
}

/** Gives every producer without one its opening movement (new producers, and those of a data directory from before the balance). */
export async function ensureOpeningBalances(db: SandboxDb, openingCents: number): Promise<void> {
  await db.execute(sql`
    insert into balance_movements (producer_id, kind, bucket, amount_cents, occurred_at)
    select p.id, 'opening', 'available', ${openingCents}, p.created_at from producers p
    where not exists (select 1 from balance_movements m where m.producer_id = p.id and m.kind = 'opening')
    on conflict do nothing`);
}

/** Creates a producer with its opening balance (tests: a producer that starts at 0). */
export async function createProducer(db: SandboxDb, row: typeof producers.$inferInsert, openingCents: number): Promise<Producer> {
  return db.transaction(async (tx) => {
    const [created] = await tx.insert(producers).values(row).returning();
    await tx
      .insert(balanceMovements)
      .values({ producerId: created.id, kind: "opening", bucket: "available", amountCents: openingCents, occurredAt: created.createdAt });
    return created;
  });
}
