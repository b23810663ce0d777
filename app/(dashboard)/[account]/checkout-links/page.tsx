import { accountPath } from "@/lib/accounts/paths";
import Link from "next/link";
import { Link2, Plus } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { requireAccountPage } from "@/lib/auth/account-page";
import { listCheckoutLinksWithSales } from "@/lib/checkout-links/queries";
import type { CheckoutPageSales } from "@/lib/checkout-links/sales";
import { fromCents } from "@/lib/br/money";
import { currencyFormatter } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import type { Locale } from "@/lib/locale";

/** Revenue per currency, never added together: "R$ 1.234,00 · US$ 10,00". */
function revenueText(locale: Locale, sales: CheckoutPageSales | null): string {
  if (!sales || sales.revenue.length === 0) return "—";
  return sales.revenue.map(({ currency, revenueCents }) => currencyFormatter(locale, currency)(fromCents(revenueCents))).join(" · ");
}

export default async function CheckoutLinksPage({ params }: { params: Promise<{ account: string }> }) {
  const ctx = await requireAccountPage("checkout.create", (await params).account);
  const { t, format, locale } = await getI18n();
  const { created: links, learned } = await listCheckoutLinksWithSales(ctx.account.id);
  const salesCell = (sales: CheckoutPageSales | null) => (
    <>
      <TableCell className="text-right tabular-nums" data-testid="checkout-sales-count">
        {sales?.salesCount ?? 0}
        {sales?.lastSaleAt && (
          <span className="block text-xs text-muted-foreground">
            {t("checkoutLinks.lastSale", { when: format.dateTimeZoned(sales.lastSaleAt) })}
          </span>
        )}
      </TableCell>
      <TableCell className="text-right tabular-nums" data-testid="checkout-sales-revenue">
        {revenueText(locale, sales)}
      </TableCell>
    </>
  );
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("checkoutLinks.title")}
        description={t("checkoutLinks.description")}
        actions={
          <Button asChild>
            <Link href={accountPath(ctx.account.id, "/checkout-links/new")}>
              <Plus /> {t("checkoutLinks.newLink")}
            </Link>
          </Button>
        }
      />
      {links.length === 0 && learned.length === 0 ? (
        <EmptyState icon={<Link2 />} title={t("checkoutLinks.empty")} description={t("checkoutLinks.emptyHint")} />
      ) : (
        <Card className="py-0">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t("checkoutLinks.product")}</TableHead>
                <TableHead className="text-right">{t("checkoutLinks.price")}</TableHead>
                <TableHead className="text-right">{t("checkoutLinks.sales")}</TableHead>
                <TableHead className="text-right">{t("checkoutLinks.revenue")}</TableHead>
                <TableHead>{t("checkoutLinks.checkoutUrl")}</TableHead>
                <TableHead>{t("checkoutLinks.createdBy")}</TableHead>
                <TableHead>{t("checkoutLinks.createdAt")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {links.map((link) => {
                const price = Number(link.price);
                return (
                  <TableRow key={link.id} data-testid={`checkout-row-${link.productExternalId}`}>
                    <TableCell>
                      <Link href={accountPath(ctx.account.id, `/checkout-links/${link.id}`)} className="font-medium hover:underline">
                        {link.productName}
                      </Link>
                      <span className="block text-xs text-muted-foreground">{link.offerName}</span>
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {Number.isFinite(price) ? format.money(price) : link.price}
                      {link.currency !== "BRL" && <span className="block text-xs text-muted-foreground">{link.currency}</span>}
                    </TableCell>
                    {salesCell(link.sales)}
                    <UrlCell url={link.checkoutUrl} copyLabel={t("checkoutLinks.copy")} />
                    <TableCell className="text-muted-foreground">{link.createdByEmail ?? "—"}</TableCell>
                    <TableCell className="whitespace-nowrap text-muted-foreground">{format.dateTimeZoned(link.createdAt)}</TableCell>
                  </TableRow>
                );
              })}
              {learned.map((sales) => (
                <TableRow key={sales.page} data-testid="checkout-row-learned" data-page={sales.page}>
                  <TableCell>
                    <span className="font-medium">{sales.productName ?? "—"}</span>
                    <span className="block text-xs text-muted-foreground" title={t("checkoutLinks.learnedHint")}>
                      {t("checkoutLinks.learned")}
                      {sales.offerCode && <span className="font-mono"> · {sales.offerCode}</span>}
                    </span>
                  </TableCell>
                  <TableCell className="text-right text-muted-foreground">—</TableCell>
                  {salesCell(sales)}
                  <UrlCell url={sales.page} copyLabel={t("checkoutLinks.copy")} />
                  <TableCell className="text-muted-foreground">—</TableCell>
                  <TableCell className="text-muted-foreground">—</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}
      {(links.length > 0 || learned.length > 0) && <p className="text-sm text-muted-foreground">{t("checkoutLinks.salesHint")}</p>}
    </div>
  );
}

function UrlCell({ url, copyLabel }: { url: string; copyLabel: string }) {
  return (
    <TableCell className="max-w-72">
      <div className="flex items-center gap-1">
        <span className="truncate font-mono text-xs">{url}</span>
        <CopyButton value={url} label={copyLabel} size="icon" />
      </div>
    </TableCell>
  );
}
