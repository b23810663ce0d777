import "server-only";
import { desc, eq, sql } from "drizzle-orm";
import { writeAudit } from "@/lib/audit/log";
import { toCents } from "@/lib/br/money";
import { getDb } from "@/lib/db/client";
import { balanceEntries } from "@/lib/db/schema";
import { TIME_ZONE } from "@/lib/locale";
import { balanceAt } from "./queries";
import { balanceEntrySchema, type BalanceEntryInput } from "./schemas";

/** A read of the gateway's panel may be a few minutes ahead of this server's clock, never more. */
const FUTURE_TOLERANCE_MS = 5 * 60_000;

export class EntryInFutureError extends Error {
  constructor() {
    super("balance entry read in the future");
  }
}

export type BalanceEntryRow = {
  id: string;
  availableCents: number;
  pendingCents: number;
  readAt: Date;
  /** What the console had carried forward to the read from the entry before (null: the first entry). */
  carried: { availableCents: number; pendingCents: number } | null;
  /** Entered − carried: money the movements the console knows do not explain. */
  difference: { availableCents: number; pendingCents: number } | null;
  byEmail: string | null;
  createdAt: Date;
};

/**
 * Records what the gateway's panel showed. The console's own figure at that instant is kept beside
 * it, so the gap between them ("diferença não explicada") is shown and audited with the entry.
 */
export async function recordBalanceEntry(
  accountId: string,
  input: BalanceEntryInput,
  actor: { id: string; email: string },
  ip?: string | null,
): Promise<BalanceEntryRow> {
  const entry = balanceEntrySchema.parse(input);
  const db = await getDb();
  const zone = sql.raw(`'${TIME_ZONE}'`);
  const at = await db.execute<{ at: Date | string }>(
    sql`select (${`${entry.readDay} ${entry.readTime}`}::timestamp at time zone ${zone}) as at`,
  );
  const readAt = new Date(at.rows[0].at);
  if (readAt.getTime() > Date.now() + FUTURE_TOLERANCE_MS) throw new EntryInFutureError();
  const carried = await balanceAt(accountId, { at: readAt }, db);
  const hadBaseline = carried.baseline.entryId !== null;
  const [row] = await db
    .insert(balanceEntries)
    .values({
      accountId,
      availableCents: toCents(entry.available),
      pendingCents: toCents(entry.pending),
      readAt,
      carriedAvailableCents: hadBaseline ? carried.availableCents : null,
      carriedPendingCents: hadBaseline ? carried.pendingCents : null,
      byUserId: actor.id,
      byEmail: actor.email,
    })
    .returning();
  const shown = toEntryRow(row);
  await writeAudit({
    actor,
    accountId,
    action: "balance.entry_recorded",
    target: row.id,
    ip: ip ?? null,
    details: {
      readAt: readAt.toISOString(),
      availableCents: shown.availableCents,
      pendingCents: shown.pendingCents,
      carried: shown.carried,
      difference: shown.difference,
    },
  });
  return shown;
}

function toEntryRow(row: typeof balanceEntries.$inferSelect): BalanceEntryRow {
  const carried =
    row.carriedAvailableCents === null || row.carriedPendingCents === null
      ? null
      : { availableCents: row.carriedAvailableCents, pendingCents: row.carriedPendingCents };
  return {
    id: row.id,
    availableCents: row.availableCents,
    pendingCents: row.pendingCents,
    readAt: row.readAt,
    carried,
    difference: carried
      ? { availableCents: row.availableCents - carried.availableCents, pendingCents: row.pendingCents - carried.pendingCents }
      : null,
    byEmail: row.byEmail,
    createdAt: row.createdAt,
  };
}

/** The entries, newest read first. */
export async function listBalanceEntries(accountId: string, limit = 20): Promise<BalanceEntryRow[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(balanceEntries)
    .where(eq(balanceEntries.accountId, accountId))
    .orderBy(desc(balanceEntries.readAt), desc(balanceEntries.createdAt))
    .limit(limit);
  return rows.map(toEntryRow);
}
