import Link from "next/link";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { accountPath } from "@/lib/accounts/paths";
import { requireAccountPage } from "@/lib/auth/account-page";
import type { RawSearchParams } from "@/lib/http/search-params";
import { getI18n } from "@/lib/i18n/server";
import { ORIGIN_DIMENSIONS, salesByOrigin, type OriginCurrencyFigures } from "@/lib/sales/queries";
import { cn } from "@/lib/utils";
import { LazyOriginRevenueChart } from "../charts/lazy-charts";
import { salesFormat, type SalesFormat } from "../format";
import { ExportLink } from "../period-picker";
import { salesQuery } from "../query";
import { SalesPeriodHeader } from "../sales-header";

const CHART_ROWS = 10;
/** A row with charges created but no sale: nothing sold, nothing taken off. */
const NO_SALES = { feesCents: 0, netRevenueCents: 0, feesUntoldCount: 0 };

/** Sales by origin: one UTM field, product, offer or the typed origin; sales with none form the "direto / desconhecida" row. */
export default async function SalesOriginPage({
  params,
  searchParams,
}: {
  params: Promise<{ account: string }>;
  searchParams: Promise<RawSearchParams>;
}) {
  const ctx = await requireAccountPage("sales.view", (await params).account);
  const accountId = ctx.account.id;
  const query = salesQuery(await searchParams);
  const { t, locale } = await getI18n();
  const fmt = salesFormat(locale);
  const rows = await salesByOrigin(accountId, query.period, { dimension: query.dimension });
  const path = accountPath(accountId, "/sales/origin");
  const dimensionLabel = t(`sales.origin.dimensions.${query.dimension}`);
  const labelOf = (value: string | null) => value ?? t("sales.origin.direct");
  const brl = (row: (typeof rows)[number]) => row.byCurrency.find((c) => c.currency === "BRL")?.revenueCents ?? 0;
  const chartPoints = rows
    .filter((row) => brl(row) > 0)
    .sort((a, b) => brl(b) - brl(a))
    .slice(0, CHART_ROWS)
    .map((row) => ({ label: labelOf(row.value), revenue: brl(row) / 100 }));

  return (
    <div className="space-y-6">
      <SalesPeriodHeader accountId={accountId} current="origin" query={query} fmt={fmt} />

      <Card>
        <CardHeader>
          <CardTitle>{t("sales.origin.title")}</CardTitle>
          <CardDescription>{t("sales.origin.description")}</CardDescription>
          <CardAction>
            <ExportLink
              href={`${accountPath(accountId, "/sales/export/origin")}?${query.periodSearch}&dimension=${query.dimension}`}
              table={t("sales.origin.tableCaption", { dimension: dimensionLabel })}
            />
          </CardAction>
        </CardHeader>
        <CardContent className="space-y-5 px-0">
          <nav aria-label={t("sales.origin.dimension")} className="flex flex-wrap items-center gap-1.5 px-6">
            <span className="mr-1 text-xs font-medium text-muted-foreground">{t("sales.origin.dimension")}</span>
            {ORIGIN_DIMENSIONS.map((dimension) => (
              <Link
                key={dimension}
                href={`${path}?${query.periodSearch}&dimension=${dimension}`}
                aria-current={dimension === query.dimension ? "true" : undefined}
                className={cn(
                  "rounded-md border px-2.5 py-1 text-sm hover:bg-muted focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none",
                  dimension.startsWith("utm_") && "font-mono text-xs",
                  dimension === query.dimension && "border-primary bg-primary/10 font-medium text-foreground",
                )}
              >
                {t(`sales.origin.dimensions.${dimension}`)}
              </Link>
            ))}
          </nav>
          {rows.length === 0 ? (
            <p className="px-6 py-6 text-center text-sm text-muted-foreground">{t("sales.origin.empty")}</p>
          ) : (
            <>
              {chartPoints.length > 1 && (
                <div className="px-6">
                  <p className="mb-2 text-sm font-medium">{t("sales.origin.chartTitle")}</p>
                  <div className="w-full" style={{ height: `${Math.max(120, chartPoints.length * 36 + 40)}px` }} aria-hidden="true">
                    <LazyOriginRevenueChart points={chartPoints} locale={locale} currency="BRL" label={t("sales.origin.revenue")} />
                  </div>
                </div>
              )}
              <Table data-testid="origin-table">
                <TableCaption className="sr-only">{t("sales.origin.tableCaption", { dimension: dimensionLabel })}</TableCaption>
                <TableHeader>
                  <TableRow>
                    <TableHead className="pl-6">{dimensionLabel}</TableHead>
                    <TableHead className="text-right">{t("sales.origin.created")}</TableHead>
                    <TableHead className="text-right">{t("sales.origin.paid")}</TableHead>
                    <TableHead className="text-right">{t("sales.origin.conversion")}</TableHead>
                    <TableHead className="text-right">{t("sales.origin.sales")}</TableHead>
                    <TableHead className="text-right">{t("sales.origin.revenue")}</TableHead>
                    <TableHead className="text-right">{t("sales.net.originFees")}</TableHead>
                    <TableHead className="text-right">{t("sales.net.originNet")}</TableHead>
                    <TableHead className="text-right">{t("sales.origin.refundRate")}</TableHead>
                    <TableHead className="pr-6 text-right">{t("sales.origin.chargebackRate")}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {rows.map((row) => (
                    <TableRow key={row.value ?? "\u0000direct"} data-testid="origin-row" data-origin={row.value ?? ""}>
                      <TableCell className={cn("max-w-64 truncate pl-6 font-medium", row.value === null && "text-muted-foreground italic")}>
                        {labelOf(row.value)}
                      </TableCell>
                      <TableCell className="text-right tabular-nums" data-col="created">
                        {fmt.count(row.createdCount)}
                      </TableCell>
                      <TableCell className="text-right tabular-nums" data-col="paid">
                        {fmt.count(row.paidOfCreatedCount)}
                      </TableCell>
                      <TableCell className="text-right tabular-nums" data-col="conversion">
                        {fmt.rate(row.conversionRate) ?? t("sales.figures.none")}
                      </TableCell>
                      <TableCell className="text-right tabular-nums" data-col="sales">
                        {fmt.count(row.salesCount)}
                      </TableCell>
                      <TableCell className="text-right tabular-nums" data-col="revenue">
                        {row.byCurrency.length === 0
                          ? fmt.money(0)
                          : row.byCurrency.map((c) => (
                              <span key={c.currency} className="block">
                                {fmt.money(c.revenueCents, c.currency)}
                              </span>
                            ))}
                      </TableCell>
                      <NetCells
                        figures={row.byCurrency.length === 0 ? NO_SALES : row.byCurrency.find((c) => c.currency === "BRL")}
                        fmt={fmt}
                        t={t}
                      />
                      <TableCell className="text-right tabular-nums" data-col="refund-rate">
                        {fmt.rate(row.refundRate) ?? t("sales.figures.none")}
                      </TableCell>
                      <TableCell className="pr-6 text-right tabular-nums" data-col="chargeback-rate">
                        {fmt.rate(row.chargebackRate) ?? t("sales.figures.none")}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
              <p className="px-6 text-xs text-muted-foreground">{t("sales.net.originNote")}</p>
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** The row's fees and net, in reais only (as the balance counts fees); a mark when some sales have no fee reported. */
function NetCells({
  figures,
  fmt,
  t,
}: {
  figures: Pick<OriginCurrencyFigures, "feesCents" | "netRevenueCents" | "feesUntoldCount"> | undefined;
  fmt: SalesFormat;
  t: Awaited<ReturnType<typeof getI18n>>["t"];
}) {
  const money = (cents: number | null | undefined) =>
    cents === null || cents === undefined ? t("sales.figures.none") : fmt.money(cents, "BRL");
  const untold = figures?.feesUntoldCount ?? 0;
  return (
    <>
      <TableCell className="text-right tabular-nums" data-col="fees">
        {money(figures?.feesCents)}
        {untold > 0 && <span className="block text-xs text-muted-foreground">{t("sales.net.originUntold", { count: untold })}</span>}
      </TableCell>
      <TableCell className="text-right tabular-nums" data-col="net">
        {money(figures?.netRevenueCents)}
      </TableCell>
    </>
  );
}
