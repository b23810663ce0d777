import "server-only";
import { getDb, type Database } from "@/lib/db/client";
import { auditLog } from "@/lib/db/schema";

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
  await database.insert(auditLog).values({
    userId: entry.actor?.id ?? null,
    userEmail: entry.actor?.email ?? null,
    accountId: entry.accountId ?? null,
    action: entry.action,
    target: entry.target ?? null,
    details: entry.details ?? null,
    ip: entry.ip ?? null,
  });
}
