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
import { listCheckoutLinks } from "@/lib/checkout-links/queries";
import { getI18n } from "@/lib/i18n/server";

export default async function CheckoutLinksPage({ params }: { params: Promise<{ account: string }> }) {
  const ctx = await requireAccountPage("checkout.create", (await params).account);
  const { t, format } = await getI18n();
  const links = await listCheckoutLinks(ctx.account.id);
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
      {links.length === 0 ? (
        <EmptyState icon={<Link2 />} title={t("checkoutLinks.empty")} description={t("checkoutLinks.emptyHint")} />
      ) : (
        <Card className="py-0">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t("checkoutLinks.product")}</TableHead>
                <TableHead className="text-right">{t("checkoutLinks.price")}</TableHead>
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
                    <TableCell className="max-w-72">
                      <div className="flex items-center gap-1">
                        <span className="truncate font-mono text-xs">{link.checkoutUrl}</span>
                        <CopyButton value={link.checkoutUrl} label={t("checkoutLinks.copy")} size="icon" />
                      </div>
                    </TableCell>
                    <TableCell className="text-muted-foreground">{link.createdByEmail ?? "—"}</TableCell>
                    <TableCell className="whitespace-nowrap text-muted-foreground">{format.dateTimeZoned(link.createdAt)}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Card>
      )}
    </div>
  );
}
