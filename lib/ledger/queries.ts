import "server-only";
import { and, eq, gte, lte, or, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { ledgerTransactions as lt } from "@/lib/db/schema";
import { TIME_ZONE } from "@/lib/locale";
import { LEDGER_SEARCH_TEXT_SQL, ledgerCursorParts, searchPatterns, type LedgerFilters } from "./filters";

export { TIME_ZONE };

/** Start of a São Paulo calendar day as an instant (the database applies the zone's rules, DST included). */
const dayStart = (date: string) => sql`(${date}::date::timestamp at time zone ${sql.raw(`'${TIME_ZONE}'`)})`;
const nextDayStart = (date: string) => sql`((${date}::date + 1)::timestamp at time zone ${sql.raw(`'${TIME_ZONE}'`)})`;

export function ledgerConditions(accountId: string, filters: LedgerFilters): SQL {
  const conditions: SQL[] = [eq(lt.accountId, accountId)];
  if (filters.status) conditions.push(eq(lt.status, filters.status));
  if (filters.method) conditions.push(eq(lt.paymentMethod, filters.method));
  if (filters.from) conditions.push(sql`${lt.createdAt} >= ${dayStart(filters.from)}`);
  if (filters.to) conditions.push(sql`${lt.createdAt} < ${nextDayStart(filters.to)}`);
  if (filters.minCents !== undefined) conditions.push(gte(lt.amountCents, filters.minCents));
  if (filters.maxCents !== undefined) conditions.push(lte(lt.amountCents, filters.maxCents));
  if (filters.q) {
    const matches = searchPatterns(filters.q).map((pattern) => sql`${sql.raw(LEDGER_SEARCH_TEXT_SQL)} like ${pattern}`);
    conditions.push(matches.length === 1 ? matches[0]! : or(...matches)!);
  }
  return and(...conditions)!;
}

/**
 * Keyset cursor: the last row's created_at as Postgres prints it (microseconds kept, which a JS
 * Date would lose) and its id.
 */
export function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString("base64url");
}

export function decodeCursor(cursor: string | undefined | null): { createdAt: string; id: string } | null {
  return ledgerCursorParts(cursor);
}

/** Matches the indexes' DESC NULLS LAST exactly; a plain DESC (NULLS FIRST) would not use them. */
export const NEWEST_FIRST = [sql`${lt.createdAt} desc nulls last`, sql`${lt.id} desc nulls last`] as const;

const before = (cursor: { createdAt: string; id: string }) =>
  sql`(${lt.createdAt}, ${lt.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id})`;

const listColumns = {
  id: lt.id,
  kind: lt.kind,
  origin: lt.origin,
  submission: lt.submission,
  identifier: lt.identifier,
  gatewayTransactionId: lt.gatewayTransactionId,
  status: lt.status,
  paymentMethod: lt.paymentMethod,
  amountCents: lt.amountCents,
  feeCents: lt.feeCents,
  clientName: lt.clientName,
  clientEmail: lt.clientEmail,
  clientDocument: lt.clientDocument,
  createdAt: lt.createdAt,
  updatedAt: lt.updatedAt,
  paidAt: lt.paidAt,
  cursorTs: sql<string>`${lt.createdAt}::text`,
};

export type LedgerListRow = Omit<Awaited<ReturnType<typeof selectPage>>[number], "cursorTs">;
export type LedgerPage = { rows: LedgerListRow[]; nextCursor: string | null };

async function selectPage(accountId: string, filters: LedgerFilters, limit: number, cursor: string | null | undefined) {
  const db = await getDb();
  const after = decodeCursor(cursor);
  const where = after ? and(ledgerConditions(accountId, filters), before(after)) : ledgerConditions(accountId, filters);
  return db
    .select(listColumns)
    .from(lt)
    .where(where)
    .orderBy(...NEWEST_FIRST)
    .limit(limit);
}

/** Newest first, `limit` rows after `cursor` (never OFFSET: page N costs what page 1 costs). */
export async function listLedger(
  accountId: string,
  filters: LedgerFilters,
  options: { limit?: number; cursor?: string | null } = {},
): Promise<LedgerPage> {
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 500);
  const rows = await selectPage(accountId, filters, limit + 1, options.cursor);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor = rows.length > limit && last ? encodeCursor(last.cursorTs, last.id) : null;
  const rowsOut: LedgerListRow[] = page.map((row) => {
    const copy: Partial<typeof row> = { ...row };
    delete copy.cursorTs;
    return copy as LedgerListRow;
  });
  return { rows: rowsOut, nextCursor };
}

export async function countLedger(accountId: string, filters: LedgerFilters): Promise<number> {
  const db = await getDb();
  const [row] = await db
    .select({ n: sql<string>`count(*)` })
    .from(lt)
    .where(ledgerConditions(accountId, filters));
  return Number(row?.n ?? 0);
}

export type LedgerRow = typeof lt.$inferSelect;

/** One ledger row of this account (null for another account's row or an unknown id). */
export async function getLedgerRow(accountId: string, id: string): Promise<LedgerRow | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(lt)
    .where(and(eq(lt.accountId, accountId), eq(lt.id, id)))
    .limit(1);
  return row ?? null;
}

/** The row that owns this identifier in the account (identifiers are unique per account). */
export async function findLedgerRowByIdentifier(accountId: string, identifier: string): Promise<LedgerRow | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(lt)
    .where(and(eq(lt.accountId, accountId), eq(lt.identifier, identifier)))
    .limit(1);
  return row ?? null;
}

/** Counts rows per identifier; used by tests and diagnostics. */
export async function countOperations(accountId: string, identifier: string): Promise<number> {
  const db = await getDb();
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(lt)
    .where(and(eq(lt.accountId, accountId), eq(lt.identifier, identifier)));
  return row?.n ?? 0;
}

/** The ledger row of a gateway transaction id in this account (what its webhooks and lookups recorded). */
export async function findLedgerByGatewayId(accountId: string, gatewayTransactionId: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(lt)
    .where(and(eq(lt.accountId, accountId), eq(lt.gatewayTransactionId, gatewayTransactionId)))
    .limit(1);
  return row ?? null;
}

/**
 * Distinct values of a column for the filter menus, by a skip scan over the (account, column,
 * created_at) index: a handful of index probes instead of reading every row.
 */
async function distinctValues(accountId: string, column: "status" | "payment_method"): Promise<string[]> {
  const db = await getDb();
  const col = sql.raw(`"${column}"`);
  const result = await db.execute<{ value: string }>(sql`
    with recursive v(value) as (
      (select ${col} from ledger_transactions where account_id = ${accountId} and ${col} is not null order by ${col} limit 1)
      union all
      select (select ${col} from ledger_transactions where account_id = ${accountId} and ${col} > v.value order by ${col} limit 1)
      from v where v.value is not null
    )
    select value from v where value is not null
  `);
  return result.rows.map((row) => row.value);
}

export const listLedgerStatuses = (accountId: string) => distinctValues(accountId, "status");
export const listLedgerMethods = (accountId: string) => distinctValues(accountId, "payment_method");
