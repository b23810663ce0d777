import { notFound } from "next/navigation";
import { CodeWord } from "@/components/ui/code-word";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { routeId } from "@/lib/http/search-params";
import Link from "next/link";
import { StatusBadge } from "@/components/payments/status-badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { getCheckoutLink } from "@/lib/checkout-links/queries";
import { checkoutSalesByPage, latestCheckoutSales } from "@/lib/checkout-links/sales";
import { fromCents } from "@/lib/br/money";
import { currencyFormatter } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { languageName } from "@/lib/i18n/format";
import { requireAccountPage } from "@/lib/auth/account-page";
import { accountPath } from "@/lib/accounts/paths";
import { SharePanel } from "./share-panel";

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[11rem_1fr] sm:gap-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm break-words">{children}</dd>
    </div>
  );
}

export default async function CheckoutLinkPage({ params }: { params: Promise<{ account: string; id: string }> }) {
  const id = routeId((await params).id) ?? notFound();
  const ctx = await requireAccountPage("checkout.create", (await params).account);
  const link = await getCheckoutLink(ctx.account.id, id);
  if (!link) notFound();
  const { t, format, locale } = await getI18n();
  const [[sales = null], latest] = await Promise.all([
    checkoutSalesByPage(ctx.account.id, link.checkoutUrl),
    latestCheckoutSales(ctx.account.id, link.checkoutUrl),
  ]);
  const money = (cents: number | null, currency: string) => (cents === null ? "—" : currencyFormatter(locale, currency)(fromCents(cents)));
  const language = (code: string) => (code === "all" ? t("checkoutLinks.allLanguages") : languageName(locale, code));
  const settings = (link.request.settings ?? {}) as { paymentMethods?: string[]; acceptedDocs?: string[] };
  const price = Number(link.price);
  return (
    <div className="space-y-6">
      <PageHeader
        back={{ href: accountPath(ctx.account.id, "/checkout-links"), label: t("checkoutLinks.back") }}
        title={link.productName}
        description={link.offerName}
      />
      <Card>
        <CardContent>
          <SharePanel url={link.checkoutUrl} productName={link.productName} />
        </CardContent>
      </Card>
      <Card data-testid="checkout-link-sales">
        <CardHeader>
          <CardTitle>{t("checkoutLinks.salesTitle")}</CardTitle>
        </CardHeader>
        <CardContent className="space-y-4">
          <dl className="grid gap-4 sm:grid-cols-2">
            <div>
              <dt className="text-sm text-muted-foreground">{t("checkoutLinks.sales")}</dt>
              <dd className="text-2xl font-semibold tabular-nums" data-testid="checkout-sales-count">
                {sales?.salesCount ?? 0}
              </dd>
            </div>
            <div>
              <dt className="text-sm text-muted-foreground">{t("checkoutLinks.revenue")}</dt>
              <dd className="text-2xl font-semibold tabular-nums" data-testid="checkout-sales-revenue">
                {sales?.revenue.length ? sales.revenue.map((entry) => money(entry.revenueCents, entry.currency)).join(" · ") : "—"}
              </dd>
            </div>
          </dl>
          {latest.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("checkoutLinks.noSales")}</p>
          ) : (
            <div className="space-y-2">
              <h3 className="text-sm font-medium">{t("checkoutLinks.latestSales")}</h3>
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t("checkoutLinks.saleCustomer")}</TableHead>
                    <TableHead>{t("checkoutLinks.salePaidAt")}</TableHead>
                    <TableHead className="text-right">{t("checkoutLinks.saleAmount")}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {latest.map((sale) => (
                    <TableRow key={sale.ledgerId} data-testid="checkout-sale">
                      <TableCell>
                        <Link href={accountPath(ctx.account.id, `/transactions/${sale.ledgerId}`)} className="hover:underline">
                          {sale.clientName ?? sale.identifier}
                        </Link>{" "}
                        <StatusBadge status={sale.status} />
                      </TableCell>
                      <TableCell className="whitespace-nowrap text-muted-foreground">{format.dateTimeZoned(sale.paidAt)}</TableCell>
                      <TableCell className="text-right tabular-nums">{money(sale.amountCents, sale.currency)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          )}
          <p className="text-xs text-muted-foreground">{t("checkoutLinks.salesHint")}</p>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t("checkoutLinks.offer")}</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="divide-y">
            <Row label={t("checkoutLinks.price")}>{Number.isFinite(price) ? format.money(price) : link.price}</Row>
            <Row label={t("checkoutLinks.currency")}>{link.currency === "all" ? t("checkoutLinks.all") : link.currency}</Row>
            <Row label={t("checkoutLinks.lang")}>
              <span title={link.lang}>{language(link.lang)}</span>
            </Row>
            <Row label={t("checkoutLinks.externalId")}>
              <span className="font-mono text-xs">{link.productExternalId}</span>
            </Row>
            <Row label={t("checkoutLinks.paymentMethods")}>
              {settings.paymentMethods?.length
                ? settings.paymentMethods.map((method, i) => (
                    <span key={method}>
                      {i > 0 && ", "}
                      <CodeWord group="method" code={method} />
                    </span>
                  ))
                : "—"}
            </Row>
            <Row label={t("checkoutLinks.acceptedDocs")}>{settings.acceptedDocs?.join(", ") ?? "—"}</Row>
            <Row label={t("checkoutLinks.createdBy")}>{link.createdByEmail ?? "—"}</Row>
            <Row label={t("checkoutLinks.createdAt")}>{format.dateTimeZoned(link.createdAt)}</Row>
          </dl>
        </CardContent>
      </Card>
    </div>
  );
}
