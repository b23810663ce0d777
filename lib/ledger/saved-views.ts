import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { savedViews } from "@/lib/db/schema";
import { cleanFilterParams, type LedgerFilterParams } from "./filters";

export type SavedView = { id: string; name: string; filters: LedgerFilterParams };

/** A user's views on one account; nobody else sees them. */
export async function listSavedViews(userId: string, accountId: string): Promise<SavedView[]> {
  const db = await getDb();
  const rows = await db
    .select({ id: savedViews.id, name: savedViews.name, filters: savedViews.filters })
    .from(savedViews)
    .where(and(eq(savedViews.userId, userId), eq(savedViews.accountId, accountId)))
    .orderBy(asc(savedViews.name));
  return rows.map((row) => ({ ...row, filters: cleanFilterParams(row.filters) }));
}

/** Saving under an existing name replaces that view's filters. */
export async function saveView(userId: string, accountId: string, name: string, filters: LedgerFilterParams): Promise<SavedView> {
  const db = await getDb();
  const clean = cleanFilterParams(filters);
  const [row] = await db
    .insert(savedViews)
    .values({ userId, accountId, name, filters: clean })
    .onConflictDoUpdate({ target: [savedViews.userId, savedViews.accountId, savedViews.name], set: { filters: clean } })
    .returning({ id: savedViews.id, name: savedViews.name });
  return { id: row!.id, name: row!.name, filters: clean };
}

export async function deleteView(userId: string, accountId: string, id: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .delete(savedViews)
    .where(and(eq(savedViews.id, id), eq(savedViews.userId, userId), eq(savedViews.accountId, accountId)))
    .returning({ id: savedViews.id });
  return rows.length > 0;
}
