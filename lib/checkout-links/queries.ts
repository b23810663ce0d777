import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { checkoutLinks } from "@/lib/db/schema";
import { checkoutPageOf, checkoutSalesByPage, type CheckoutPageSales } from "./sales";

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

export type CheckoutLinkWithSales = CheckoutLinkDto & { sales: CheckoutPageSales | null };

/**
 * The links this console created, each with the sales it brought, and the checkout pages the
 * console learned of from payment notifications only (not created here): every page that sold.
 */
export async function listCheckoutLinksWithSales(
  accountId: string,
): Promise<{ created: CheckoutLinkWithSales[]; learned: CheckoutPageSales[] }> {
  const [links, pages] = await Promise.all([listCheckoutLinks(accountId), checkoutSalesByPage(accountId)]);
  const byPage = new Map(pages.map((sales) => [sales.page, sales]));
  const created = links.map((link) => ({ ...link, sales: byPage.get(checkoutPageOf(link.checkoutUrl)) ?? null }));
  const createdPages = new Set(links.map((link) => checkoutPageOf(link.checkoutUrl)));
  return { created, learned: pages.filter((sales) => !createdPages.has(sales.page)) };
}
