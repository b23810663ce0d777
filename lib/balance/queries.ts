import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { getDb, type Database, type Tx } from "@/lib/db/client";
import type { MovementKind } from "@/lib/db/schema";
import { TIME_ZONE } from "@/lib/locale";
import type { SalesPeriod } from "@/lib/sales/period";

/**
 * The producer's balance as the console calculates it from the movements it knows
 * (lib/ledger/movements.ts), carried forward from the last balance the producer read on the
 * gateway's panel, if any. The interface has no balance endpoint: every figure here is a
 * calculation and says so (docs/balance.md).
 *
 * The sums read the per-day totals (ledger_movement_days, kept by a trigger) for whole São Paulo
 * days and the movements themselves only for the partial days at the ends, so a figure costs the
 * same whether the account has a month or three years of history.
 */

type Executor = Database | Tx;
export type Amounts = { availableCents: number; pendingCents: number };
export type Baseline = Amounts & { entryId: string | null; readAt: Date | null };

const zone = sql.raw(`'${TIME_ZONE}'`);
const spDay = (instant: SQL) => sql`((${instant}) at time zone ${zone})::date`;
const dayStartOf = (day: SQL) => sql`((${day})::timestamp at time zone ${zone})`;

/** A position in time: every movement before it (and, at the same instant, with a smaller id) counts. */
export type Point = { at: Date; id?: string };

function beforePoint(point: Point): SQL {
  return point.id === undefined
    ? sql`m.occurred_at <= ${point.at.toISOString()}::timestamptz`
    : sql`(m.occurred_at, m.id) < (${point.at.toISOString()}::timestamptz, ${point.id})`;
}

/**
 * The sum of the account's movements after `after` (exclusive; null: from the first) up to `until`
 * (inclusive, or strictly before a line when it names an id).
 */
export async function sumMovements(db: Executor, accountId: string, after: Date | null, until: Point): Promise<Amounts> {
  const afterAt = after ? sql`${after.toISOString()}::timestamptz` : null;
  const untilAt = sql`${until.at.toISOString()}::timestamptz`;
  const afterDay = afterAt ? spDay(afterAt) : sql`'-infinity'::date`;
  const untilDay = spDay(untilAt);
  const afterCondition = afterAt ? sql`and m.occurred_at > ${afterAt}` : sql``;
  const result = await db.execute<{ available: string | null; pending: string | null }>(sql`
    with parts as (
      select available_cents, pending_cents from ledger_movement_days
      where account_id = ${accountId} and day > ${afterDay} and day < ${untilDay}
        and ${afterDay} < ${untilDay}
      union all
      -- the first partial day (the whole of it before the last one)
      select m.available_cents, m.pending_cents from ledger_movements m
      where m.account_id = ${accountId} ${afterCondition}
        and ${afterAt ? sql`${afterDay} < ${untilDay}` : sql`false`}
        and m.occurred_at < ${dayStartOf(sql`${afterDay} + 1`)}
      union all
      -- the last partial day, up to the point
      select m.available_cents, m.pending_cents from ledger_movements m
      where m.account_id = ${accountId} ${afterCondition}
        and m.occurred_at >= ${dayStartOf(untilDay)} and ${beforePoint(until)}
    )
    select sum(available_cents)::text as available, sum(pending_cents)::text as pending from parts`);
  const row = result.rows[0];
  return { availableCents: Number(row?.available ?? 0), pendingCents: Number(row?.pending ?? 0) };
}

/** The last balance the producer entered at or before `at`, or zero from the first movement when there is none. */
export async function baselineAt(db: Executor, accountId: string, at: Date): Promise<Baseline> {
  const result = await db.execute<{ id: string; available_cents: string; pending_cents: string; read_at: Date | string }>(sql`
    select id, available_cents::text, pending_cents::text, read_at from balance_entries
    where account_id = ${accountId} and read_at <= ${at.toISOString()}::timestamptz
    order by read_at desc, created_at desc limit 1`);
  const row = result.rows[0];
  if (!row) return { availableCents: 0, pendingCents: 0, entryId: null, readAt: null };
  return {
    availableCents: Number(row.available_cents),
    pendingCents: Number(row.pending_cents),
    entryId: row.id,
    readAt: new Date(row.read_at),
  };
}

/** The balance at a point: the baseline before it, carried forward with every movement since. */
export async function balanceAt(accountId: string, point: Point, db?: Executor): Promise<Amounts & { baseline: Baseline }> {
  const database = db ?? (await getDb());
  const baseline = await baselineAt(database, accountId, point.at);
  const moved = await sumMovements(database, accountId, baseline.readAt, point);
  return {
    availableCents: baseline.availableCents + moved.availableCents,
    pendingCents: baseline.pendingCents + moved.pendingCents,
    baseline,
  };
}

export type BalanceFigures = Amounts & {
  baseline: Baseline;
  /** The first movement the console knows (what the figures start from when no balance was entered). */
  firstMovementAt: Date | null;
  /** Sales whose fee or release date the gateway has not told: the figures cannot include them right. */
  untold: { fee: number; release: number };
  /** Transfers whose outcome the console did not get: their money may or may not have left. */
  unknownTransfers: number;
  calculatedAt: Date;
};

/** Disponível and A liberar now, with what they are calculated from. */
export async function balanceFigures(accountId: string, now = new Date()): Promise<BalanceFigures> {
  const db = await getDb();
  const [balance, facts] = await Promise.all([
    balanceAt(accountId, { at: now }, db),
    db.execute<{ first: Date | string | null; fee: number; release: number; unknown_transfers: number }>(sql`
      select
        (select min(occurred_at) from ledger_movements where account_id = ${accountId}) as first,
        (select count(*)::int from ledger_movements where account_id = ${accountId} and untold like '%fee%') as fee,
        (select count(*)::int from ledger_movements where account_id = ${accountId} and untold like '%release%') as release,
        (select count(*)::int from transfers where account_id = ${accountId} and submission in ('UNKNOWN', 'SUBMITTING')) as unknown_transfers`),
  ]);
  const row = facts.rows[0];
  return {
    availableCents: balance.availableCents,
    pendingCents: balance.pendingCents,
    baseline: balance.baseline,
    firstMovementAt: row?.first ? new Date(row.first) : null,
    untold: { fee: Number(row?.fee ?? 0), release: Number(row?.release ?? 0) },
    unknownTransfers: Number(row?.unknown_transfers ?? 0),
    calculatedAt: now,
  };
}

export type KindTotal = { kind: MovementKind; count: number; availableCents: number; pendingCents: number };

/** The period's movements summed by kind (São Paulo days, both ends included), up to `now`. */
export async function totalsByKind(accountId: string, period: SalesPeriod, now = new Date()): Promise<KindTotal[]> {
  const db = await getDb();
  const result = await db.execute<{ kind: MovementKind; count: number; available: string; pending: string }>(sql`
    select kind, count(*)::int as count, sum(available_cents)::text as available, sum(pending_cents)::text as pending
    from ledger_movements m
    where account_id = ${accountId}
      and occurred_at >= ${dayStartOf(sql`${period.from}::date`)} and occurred_at < ${dayStartOf(sql`${period.to}::date + 1`)}
      and occurred_at <= ${now.toISOString()}::timestamptz
    group by kind`);
  return result.rows.map((r) => ({ kind: r.kind, count: r.count, availableCents: Number(r.available), pendingCents: Number(r.pending) }));
}

export type ReleaseDay = { day: string; amountCents: number; sales: number };

/** What is due to be released each São Paulo day from now to `days` days ahead (a liberar → disponível). */
export async function releaseCalendar(accountId: string, days = 60, now = new Date()): Promise<ReleaseDay[]> {
  const db = await getDb();
  const result = await db.execute<{ day: string; amount: string; sales: number }>(sql`
    select ${spDay(sql`occurred_at`)}::text as day, sum(available_cents)::text as amount, count(*)::int as sales
    from ledger_movements
    where account_id = ${accountId} and kind = 'release'
      and occurred_at > ${now.toISOString()}::timestamptz
      and occurred_at < ${dayStartOf(sql`${spDay(sql`${now.toISOString()}::timestamptz`)} + ${days + 1}::int`)}
    group by 1 order by 1`);
  return result.rows.map((r) => ({ day: r.day, amountCents: Number(r.amount), sales: r.sales }));
}

export type StatementLine = {
  id: string;
  kind: MovementKind;
  occurredAt: Date;
  reference: string | null;
  ledgerId: string | null;
  transferId: string | null;
  availableCents: number;
  pendingCents: number;
  /** The balance right after this line (null when a kind filter hides lines in between). */
  balance: Amounts | null;
};

export type StatementFilters = { period: SalesPeriod; kinds?: MovementKind[] };
export type StatementPage = { lines: StatementLine[]; opening: Amounts; nextCursor: string | null };

export function encodeStatementCursor(line: Pick<StatementLine, "occurredAt" | "id">): string {
  return `${line.occurredAt.toISOString()}_${line.id}`;
}

export function decodeStatementCursor(cursor: string | null | undefined): Point | null {
  if (!cursor) return null;
  const i = cursor.indexOf("_");
  if (i <= 0) return null;
  const at = new Date(cursor.slice(0, i));
  const id = cursor.slice(i + 1);
  if (Number.isNaN(at.getTime()) || at.getUTCFullYear() < 2000 || at.getUTCFullYear() > 2100 || !/^[\w-]{1,64}$/.test(id)) return null;
  return { at, id };
}

function statementConditions(accountId: string, filters: StatementFilters, now: Date): SQL {
  const { from, to } = filters.period;
  const kinds =
    filters.kinds && filters.kinds.length > 0
      ? sql`and m.kind in (${sql.join(
          filters.kinds.map((k) => sql`${k}`),
          sql`, `,
        )})`
      : sql``;
  return sql`m.account_id = ${accountId}
    and m.occurred_at >= ${dayStartOf(sql`${from}::date`)} and m.occurred_at < ${dayStartOf(sql`${to}::date + 1`)}
    and m.occurred_at <= ${now.toISOString()}::timestamptz ${kinds}`;
}

type LineRow = {
  id: string;
  kind: MovementKind;
  occurred_at: Date | string;
  reference: string | null;
  ledger_id: string | null;
  transfer_id: string | null;
  available_cents: string;
  pending_cents: string;
};

const toLine = (r: LineRow): Omit<StatementLine, "balance"> => ({
  id: r.id,
  kind: r.kind,
  occurredAt: new Date(r.occurred_at),
  reference: r.reference,
  ledgerId: r.ledger_id,
  transferId: r.transfer_id,
  availableCents: Number(r.available_cents),
  pendingCents: Number(r.pending_cents),
});

/** The period's start as an instant (São Paulo midnight). */
export async function periodStart(db: Executor, day: string): Promise<Date> {
  const result = await db.execute<{ at: Date | string }>(sql`select ${dayStartOf(sql`${day}::date`)} as at`);
  return new Date(result.rows[0].at);
}

/**
 * One page of the extrato, oldest first, with the running balance after each line. The balance
 * before the page is the baseline carried forward to its first line.
 */
export async function statementPage(
  accountId: string,
  filters: StatementFilters,
  options: { limit?: number; cursor?: string | null } = {},
  now = new Date(),
): Promise<StatementPage> {
  const db = await getDb();
  const limit = Math.min(Math.max(options.limit ?? 100, 1), 1000);
  const cursor = decodeStatementCursor(options.cursor);
  const after = cursor ? sql`and (m.occurred_at, m.id) > (${cursor.at.toISOString()}::timestamptz, ${cursor.id})` : sql``;
  const result = await db.execute<LineRow>(sql`
    select m.id, m.kind, m.occurred_at, m.reference, m.ledger_id, m.transfer_id, m.available_cents::text, m.pending_cents::text
    from ledger_movements m
    where ${statementConditions(accountId, filters, now)} ${after}
    order by m.occurred_at, m.id limit ${limit + 1}`);
  const rows = result.rows.slice(0, limit).map(toLine);
  const filtered = (filters.kinds?.length ?? 0) > 0;
  const startAt = await periodStart(db, filters.period.from);
  // Anchored at the period's start, as the month's closing is: the running balance never jumps at an entry inside it.
  const anchor = await baselineAt(db, accountId, startAt);
  const openingPoint: Point = rows[0] ? { at: rows[0].occurredAt, id: rows[0].id } : { at: startAt, id: "" };
  const moved = await sumMovements(db, accountId, anchor.readAt, openingPoint);
  const opening: Amounts = {
    availableCents: anchor.availableCents + moved.availableCents,
    pendingCents: anchor.pendingCents + moved.pendingCents,
  };
  let running: Amounts = opening;
  const lines = rows.map((line): StatementLine => {
    running = { availableCents: running.availableCents + line.availableCents, pendingCents: running.pendingCents + line.pendingCents };
    return { ...line, balance: filtered ? null : running };
  });
  const last = rows.at(-1);
  return {
    lines,
    opening,
    nextCursor: result.rows.length > limit && last ? encodeStatementCursor(last) : null,
  };
}

export type MonthClosing = {
  month: string;
  opening: Amounts;
  movements: KindTotal[];
  closing: Amounts;
  /** The closing is at the month's end, or now for the month under way. */
  closedAt: Date;
};

/** A month's closing: opening (its first instant) + its movements = closing (its end, or now). */
export async function monthClosing(accountId: string, month: string, now = new Date()): Promise<MonthClosing> {
  const db = await getDb();
  const bounds = await db.execute<{ start: Date | string; end: Date | string; last: string }>(sql`
    select ${dayStartOf(sql`${`${month}-01`}::date`)} as start,
      ${dayStartOf(sql`(${`${month}-01`}::date + interval '1 month')::date`)} as end,
      ((${`${month}-01`}::date + interval '1 month')::date - 1)::text as last`);
  const start = new Date(bounds.rows[0].start);
  const end = new Date(bounds.rows[0].end);
  const closedAt = end.getTime() <= now.getTime() ? new Date(end.getTime() - 1) : now;
  // Anchored once, at the month's start, so opening + movements = closing whatever entries the month holds.
  const baseline = await baselineAt(db, accountId, start);
  const [beforeStart, untilClose, movements] = await Promise.all([
    sumMovements(db, accountId, baseline.readAt, { at: start, id: "" }),
    sumMovements(db, accountId, baseline.readAt, { at: closedAt }),
    totalsByKind(accountId, { from: `${month}-01`, to: bounds.rows[0].last }, closedAt),
  ]);
  return {
    month,
    opening: {
      availableCents: baseline.availableCents + beforeStart.availableCents,
      pendingCents: baseline.pendingCents + beforeStart.pendingCents,
    },
    movements,
    closing: {
      availableCents: baseline.availableCents + untilClose.availableCents,
      pendingCents: baseline.pendingCents + untilClose.pendingCents,
    },
    closedAt,
  };
}

/** What the pages that send money out show beside the amount (components/payments/balance-estimate.tsx). */
export async function availableEstimate(accountId: string): Promise<{ availableCents: number; entryReadAt: string | null }> {
  const { availableCents, baseline } = await balanceAt(accountId, { at: new Date() });
  return { availableCents, entryReadAt: baseline.readAt?.toISOString() ?? null };
}
