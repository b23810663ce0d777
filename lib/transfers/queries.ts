import "server-only";
import { and, asc, desc, eq, gte, inArray, sql } from "drizzle-orm";
import { getDb, type Database } from "@/lib/db/client";
import { saoPauloDate } from "@/lib/i18n/format";
import { transferNotifications, transferSettings, transfers } from "@/lib/db/schema";

/** What pages receive: everything but the encrypted webhook token. */
export type TransferDto = Omit<typeof transfers.$inferSelect, "webhookTokenEncrypted"> & { hasWebhookToken: boolean };
export type TransferNotificationDto = Pick<
  typeof transferNotifications.$inferSelect,
  "id" | "event" | "withdrawStatus" | "payload" | "deliveries" | "receivedAt" | "lastReceivedAt"
>;

function toDto(row: typeof transfers.$inferSelect): TransferDto {
  const { webhookTokenEncrypted, ...rest } = row;
  return { ...rest, hasWebhookToken: Boolean(webhookTokenEncrypted) };
}

export async function listTransfers(accountId: string, limit = 200): Promise<TransferDto[]> {
  const db = await getDb();
  const rows = await db.select().from(transfers).where(eq(transfers.accountId, accountId)).orderBy(desc(transfers.createdAt)).limit(limit);
  return rows.map(toDto);
}

export async function getTransfer(accountId: string, id: string): Promise<TransferDto | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(transfers)
    .where(and(eq(transfers.accountId, accountId), eq(transfers.id, id)))
    .limit(1);
  return row ? toDto(row) : null;
}

export async function listTransferNotifications(transferId: string): Promise<TransferNotificationDto[]> {
  const db = await getDb();
  return db
    .select({
      id: transferNotifications.id,
      event: transferNotifications.event,
      withdrawStatus: transferNotifications.withdrawStatus,
      payload: transferNotifications.payload,
      deliveries: transferNotifications.deliveries,
      receivedAt: transferNotifications.receivedAt,
      lastReceivedAt: transferNotifications.lastReceivedAt,
    })
    .from(transferNotifications)
    .where(eq(transferNotifications.transferId, transferId))
    .orderBy(asc(transferNotifications.receivedAt));
}

export type TransferSettingsDto = { dailyLimitCents: number | null; updatedByEmail: string | null; updatedAt: Date | null };

export async function getTransferSettings(accountId: string, db?: Database): Promise<TransferSettingsDto> {
  const database = db ?? (await getDb());
  const [row] = await database.select().from(transferSettings).where(eq(transferSettings.accountId, accountId)).limit(1);
  return { dailyLimitCents: row?.dailyLimitCents ?? null, updatedByEmail: row?.updatedByEmail ?? null, updatedAt: row?.updatedAt ?? null };
}

export async function saveTransferSettings(
  accountId: string,
  dailyLimitCents: number | null,
  actor: { id: string; email: string },
): Promise<void> {
  const db = await getDb();
  const values = { dailyLimitCents, updatedBy: actor.id, updatedByEmail: actor.email, updatedAt: new Date() };
  await db
    .insert(transferSettings)
    .values({ accountId, ...values })
    .onConflictDoUpdate({ target: transferSettings.accountId, set: values });
}

/** Start of today in São Paulo (no daylight saving since 2019: UTC−3). */
export function startOfSaoPauloDay(now = new Date()): Date {
  return new Date(`${saoPauloDate(now)}T00:00:00-03:00`);
}

/** What counts against the daily limit: anything that may have left (or is leaving) the account today. */
export async function transferredTodayCents(accountId: string, db: Database, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ total: sql<string | null>`sum(${transfers.amountCents})` })
    .from(transfers)
    .where(
      and(
        eq(transfers.accountId, accountId),
        gte(transfers.createdAt, startOfSaoPauloDay(now)),
        inArray(transfers.submission, ["SUBMITTING", "SUBMITTED", "UNKNOWN"]),
      ),
    );
  return Number(row?.total ?? 0);
}
