import "server-only";
import { getDb, type Database } from "@/lib/db/client";
import { auditLog } from "@/lib/db/schema";
import { groupCommit } from "@/lib/runtime/group-commit";

export type AuditEntry = {
  actor?: { id: string; email: string } | null;
  accountId?: string | null;
  action: string;
  target?: string | null;
  details?: Record<string, unknown>;
  ip?: string | null;
};

/** Details must never carry secrets: callers pass last-4 fragments at most. */
export async function writeAudit(entry: AuditEntry, db?: Database): Promise<void> {
  const database = db ?? (await getDb());
  await database.insert(auditLog).values(auditRow(entry));
}

function auditRow(entry: AuditEntry) {
  return {
    userId: entry.actor?.id ?? null,
    userEmail: entry.actor?.email ?? null,
    accountId: entry.accountId ?? null,
    action: entry.action,
    target: entry.target ?? null,
    details: entry.details ?? null,
    ip: entry.ip ?? null,
  };
}

/** writeAudit, inserted in one statement with the other entries of this process written at about the same time. */
export const writeAuditBatched = groupCommit("audit-entries", async (entries: AuditEntry[]) => {
  const db = await getDb();
  await db.insert(auditLog).values(entries.map(auditRow));
});
