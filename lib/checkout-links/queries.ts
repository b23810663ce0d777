import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { checkoutLinks } from "@/lib/db/schema";

/** A created link (only those are listed: a refused or unanswered one has no URL). */
export type CheckoutLinkDto = Omit<typeof checkoutLinks.$inferSelect, "accountId" | "checkoutUrl"> & { checkoutUrl: string };

function toDto({ checkoutUrl, ...row }: typeof checkoutLinks.$inferSelect): CheckoutLinkDto | null {
  if (checkoutUrl === null) return null;
  const dto: Omit<typeof checkoutLinks.$inferSelect, "checkoutUrl" | "accountId"> & { accountId?: string; checkoutUrl: string } = {
    ...row,
    checkoutUrl,
  };
  delete dto.accountId;
  return dto;
}

export async function listCheckoutLinks(accountId: string, limit = 200): Promise<CheckoutLinkDto[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(checkoutLinks)
    .where(and(eq(checkoutLinks.accountId, accountId), eq(checkoutLinks.submission, "SUBMITTED")))
    .orderBy(desc(checkoutLinks.createdAt))
    .limit(limit);
  return rows.flatMap((row) => toDto(row) ?? []);
}

export async function getCheckoutLink(accountId: string, id: string): Promise<CheckoutLinkDto | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(checkoutLinks)
    .where(and(eq(checkoutLinks.accountId, accountId), eq(checkoutLinks.id, id)))
    .limit(1);
  return row ? toDto(row) : null;
}
