import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { MOVEMENT_KINDS, type MovementKind } from "@/lib/db/schema";
import { hasControlCharacters } from "@/lib/http/input";
import { param, parseSearchParams, type ParamProblem, type RawSearchParams } from "@/lib/http/search-params";
import { saoPauloDate } from "@/lib/i18n/format";
import { TIME_ZONE } from "@/lib/locale";
import { checkPeriod, InvalidPeriodError, type SalesPeriod } from "@/lib/sales/period";
import type { BalanceEntryRow } from "./entries";
import { decodeStatementCursor, type Amounts, type BalanceFigures, type KindTotal, type MonthClosing } from "./queries";
import { statementKindSchema } from "./schemas";

/**
 * What the Saldo page and its exports read from their address, and the page's figures put in the
 * shape it shows them: the period's outflow, what the figures are calculated from, each entry's
 * unexplained difference and the month's closing as lines that add up.
 */

export type BalanceQuery = {
  period: SalesPeriod;
  kinds: MovementKind[];
  cursor: string | null;
  /** The closing's month, `YYYY-MM`: as asked, else the period's last day's. */
  month: string;
  problems: ParamProblem[];
  /** Dates that each parse but do not make a period: the page says so and shows this month. */
  periodRefused: boolean;
  /** The period is the default one (this month), none was asked for. */
  defaultPeriod: boolean;
  /** from, to and kind as a query string (`?from=…&to=…&kind=a,b`): what the exports and the pager carry on. */
  search: string;
};

const MONTH = /^(20\d\d|2100)-(0[1-9]|1[0-2])$/;

/** `kind` repeated or as a comma list; each value a movement kind, any other one dropped with a problem. */
function parseKinds(raw: RawSearchParams["kind"]): { kinds: MovementKind[]; bad: boolean } {
  const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((value) => value.split(","));
  const chosen = new Set<MovementKind>();
  let bad = false;
  for (const value of values.map((v) => v.trim()).filter(Boolean)) {
    const parsed = hasControlCharacters(value) ? null : statementKindSchema.safeParse(value);
    if (parsed?.success) chosen.add(parsed.data);
    else bad = true;
  }
  return { kinds: MOVEMENT_KINDS.filter((kind) => chosen.has(kind)), bad };
}

export function balanceQuery(raw: RawSearchParams, today = saoPauloDate()): BalanceQuery {
  const { values, problems } = parseSearchParams(raw, {
    from: param.day(),
    to: param.day(),
    cursor: param.custom(
      z.string().refine((value) => decodeStatementCursor(value) !== null),
      "page",
    ),
    month: param.custom(z.string().regex(MONTH), "choice"),
  });
  const { kinds, bad } = parseKinds(raw.kind);
  if (bad) problems.push({ param: "kind", reason: "choice" });
  let period: SalesPeriod = { from: `${today.slice(0, 8)}01`, to: today };
  let periodRefused = false;
  let defaultPeriod = true;
  if (values.from || values.to) {
    try {
      period = checkPeriod({ from: values.from ?? values.to!, to: values.to ?? values.from! });
      defaultPeriod = false;
    } catch (error) {
      if (!(error instanceof InvalidPeriodError)) throw error;
      periodRefused = true;
    }
  }
  const search = new URLSearchParams({ from: period.from, to: period.to });
  if (kinds.length > 0) search.set("kind", kinds.join(","));
  return {
    period,
    kinds,
    cursor: values.cursor ?? null,
    month: values.month ?? period.to.slice(0, 7),
    problems,
    periodRefused,
    defaultPeriod,
    search: `?${search.toString().replace(/%2C/g, ",")}`,
  };
}

/** The month before or after `YYYY-MM`. */
export function shiftMonth(month: string, by: number): string {
  const [year, m] = month.split("-").map(Number) as [number, number];
  const index = year * 12 + (m - 1) + by;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
}

const TRANSFER_KINDS: readonly MovementKind[] = ["transfer", "transfer_fee", "transfer_returned", "transfer_fee_returned"];

/** What left the balance in the period: transfers and their fees, net of what failed transfers gave back. */
export function periodOutflow(totals: readonly KindTotal[]): { cents: number; transfers: number; returned: number } {
  let moved = 0;
  for (const total of totals) if (TRANSFER_KINDS.includes(total.kind)) moved += total.availableCents + total.pendingCents;
  const count = (kind: MovementKind) => totals.find((t) => t.kind === kind)?.count ?? 0;
  return { cents: 0 - moved, transfers: count("transfer"), returned: count("transfer_returned") };
}

export type FigureSource =
  | { kind: "entry"; readAt: Date; movements: number }
  | { kind: "first"; firstAt: Date }
  /** Nothing known yet: no entry, no movement. */
  | { kind: "nothing" };

/** What the figures start from: the last entry (with the movements counted since), else the first movement known. */
export function figureSource(figures: Pick<BalanceFigures, "baseline" | "firstMovementAt">, movementsSinceEntry: number): FigureSource {
  if (figures.baseline.readAt) return { kind: "entry", readAt: figures.baseline.readAt, movements: movementsSinceEntry };
  if (figures.firstMovementAt) return { kind: "first", firstAt: figures.firstMovementAt };
  return { kind: "nothing" };
}

/** How many movements happened after `after` up to `now`: what carries the last entry to the figures. */
export async function movementsSince(accountId: string, after: Date, now = new Date()): Promise<number> {
  const db = await getDb();
  const result = await db.execute<{ count: number }>(sql`
    select count(*)::int as count from ledger_movements
    where account_id = ${accountId} and occurred_at > ${after.toISOString()}::timestamptz and occurred_at <= ${now.toISOString()}::timestamptz`);
  return Number(result.rows[0]?.count ?? 0);
}

export type EntryNote = { kind: "first" } | { kind: "none" } | ({ kind: "difference" } & Amounts);

/** An entry beside what the console had carried to it: the first has nothing to compare with. */
export function entryNote(entry: Pick<BalanceEntryRow, "difference">): EntryNote {
  if (!entry.difference) return { kind: "first" };
  const { availableCents, pendingCents } = entry.difference;
  return availableCents === 0 && pendingCents === 0 ? { kind: "none" } : { kind: "difference", availableCents, pendingCents };
}

export type ClosingView = {
  opening: Amounts;
  lines: (Amounts & { kind: MovementKind; count: number })[];
  closing: Amounts;
  /** opening + every line = closing, in both buckets, to the cent. */
  adds: boolean;
};

/** The month's closing as lines in the kinds' order, with the check that they add up. */
export function closingView(closing: Pick<MonthClosing, "opening" | "movements" | "closing">): ClosingView {
  const lines = MOVEMENT_KINDS.flatMap((kind) => {
    const total = closing.movements.find((m) => m.kind === kind);
    return total ? [{ kind, count: total.count, availableCents: total.availableCents, pendingCents: total.pendingCents }] : [];
  });
  const sum = (bucket: keyof Amounts) => lines.reduce((acc, line) => acc + line[bucket], closing.opening[bucket]);
  return {
    opening: closing.opening,
    lines,
    closing: closing.closing,
    adds: sum("availableCents") === closing.closing.availableCents && sum("pendingCents") === closing.closing.pendingCents,
  };
}

export type UpcomingRelease = { id: string; occurredAt: Date; reference: string | null; ledgerId: string | null; amountCents: number };

/**
 * Releases of the period still to come (the extrato lists only what has happened): what a day of
 * the release calendar links to. At most `limit`, soonest first.
 */
export async function upcomingReleases(accountId: string, period: SalesPeriod, now = new Date(), limit = 100): Promise<UpcomingRelease[]> {
  const db = await getDb();
  const zone = sql.raw(`'${TIME_ZONE}'`);
  const result = await db.execute<{
    id: string;
    occurred_at: Date | string;
    reference: string | null;
    ledger_id: string | null;
    amount: string;
  }>(sql`
    select id, occurred_at, reference, ledger_id, available_cents::text as amount from ledger_movements
    where account_id = ${accountId} and kind = 'release'
      and occurred_at > ${now.toISOString()}::timestamptz
      and occurred_at >= (${period.from}::date::timestamp at time zone ${zone})
      and occurred_at < ((${period.to}::date + 1)::timestamp at time zone ${zone})
    order by occurred_at, id limit ${limit}`);
  return result.rows.map((r) => ({
    id: r.id,
    occurredAt: new Date(r.occurred_at),
    reference: r.reference,
    ledgerId: r.ledger_id,
    amountCents: Number(r.amount),
  }));
}
