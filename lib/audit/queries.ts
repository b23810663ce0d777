import "server-only";
import { and, desc, eq, ilike, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { auditLog, gatewayAccounts } from "@/lib/db/schema";
import { param, parseSearchParams, type ParamProblem, type RawSearchParams } from "@/lib/http/search-params";

export type AuditFilters = { email?: string; accountId?: string; action?: string; from?: string; to?: string };

/** The audit log's address: `email`, `account` (one of `accountIds`), `action` (a prefix), `from`/`to` days and the `cursor`. */
export function parseAuditParams(
  raw: RawSearchParams,
  accountIds: readonly string[],
): { filters: AuditFilters; cursor: number | null; problems: ParamProblem[] } {
  const { values, problems } = parseSearchParams(raw, {
    email: param.text(),
    account: param.oneOf(accountIds),
    action: param.text(),
    from: param.day(),
    to: param.day(),
    cursor: param.position(),
  });
  const filters: AuditFilters = { email: values.email, accountId: values.account, action: values.action, from: values.from, to: values.to };
  return {
    filters: Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)) as AuditFilters,
    cursor: values.cursor ?? null,
    problems,
  };
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

function conditions(filters: AuditFilters): SQL | undefined {
  const list: SQL[] = [];
  if (filters.email) list.push(ilike(auditLog.userEmail, `%${escapeLike(filters.email)}%`));
  if (filters.accountId) list.push(eq(auditLog.accountId, filters.accountId));
  if (filters.action) list.push(sql`${auditLog.action} like ${`${escapeLike(filters.action)}%`}`);
  if (filters.from) list.push(sql`${auditLog.at} >= (${filters.from}::date::timestamp at time zone 'America/Sao_Paulo')`);
  if (filters.to) list.push(sql`${auditLog.at} < ((${filters.to}::date + 1)::timestamp at time zone 'America/Sao_Paulo')`);
  return list.length ? and(...list) : undefined;
}

/** The id is a bigserial, so newest-first by id is a stable keyset without the timestamp. */
export async function listAuditEntries(filters: AuditFilters, options: { cursor?: number | string | null; limit?: number } = {}) {
  const db = await getDb();
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 200);
  const cursor = options.cursor != null && /^[1-9]\d{0,14}$/.test(String(options.cursor)) ? Number(options.cursor) : null;
  const where = and(conditions(filters), cursor !== null ? sql`${auditLog.id} < ${cursor}` : undefined);
  const rows = await db
    .select({
      id: auditLog.id,
      at: auditLog.at,
      userEmail: auditLog.userEmail,
      accountId: auditLog.accountId,
      accountName: gatewayAccounts.name,
      action: auditLog.action,
      target: auditLog.target,
      details: auditLog.details,
      ip: auditLog.ip,
    })
    .from(auditLog)
    .leftJoin(gatewayAccounts, eq(gatewayAccounts.id, auditLog.accountId))
    .where(where)
    .orderBy(desc(auditLog.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return { rows: page, nextCursor: rows.length > limit ? String(page.at(-1)!.id) : null };
}
export type AuditRow = Awaited<ReturnType<typeof listAuditEntries>>["rows"][number];

/** The lookups recorded for one ledger row, oldest first, for the transaction timeline. */
export async function lookupsForTransaction(accountId: string, ledgerId: string) {
  const db = await getDb();
  return db
    .select({ id: auditLog.id, at: auditLog.at, userEmail: auditLog.userEmail, action: auditLog.action, details: auditLog.details })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.accountId, accountId),
        eq(auditLog.target, ledgerId),
        sql`${auditLog.action} in ('transactions.lookup', 'transactions.add_from_lookup')`,
      ),
    )
    .orderBy(auditLog.id)
    .limit(200);
}
