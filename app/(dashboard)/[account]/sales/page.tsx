import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { accountPath } from "@/lib/accounts/paths";
import { requireAccountPage } from "@/lib/auth/account-page";
import type { RawSearchParams } from "@/lib/http/search-params";
import { getI18n, hasMessage } from "@/lib/i18n/server";
import { salesOverview, type SalesFigures, type SalesPeriodReport } from "@/lib/sales/queries";
import { LazyDailyRevenueChart } from "./charts/lazy-charts";
import { FigureCard, type FigureTrend } from "./figure-card";
import { salesFormat, type SalesFormat } from "./format";
import { ExportLink } from "./period-picker";
import { salesQuery } from "./query";
import { SalesPeriodHeader } from "./sales-header";
import { methodName } from "./tables";

const EMPTY: Omit<SalesFigures, "currency"> = {
  salesCount: 0,
  revenueCents: 0,
  averageTicketCents: null,
  refundedCount: 0,
  refundedCents: 0,
  refundRate: null,
  chargedBackCount: 0,
  chargedBackCents: 0,
  chargebackRate: null,
  pixMedianSecondsToPay: null,
  recoveredCount: 0,
  recoveredCents: 0,
  feesCents: null,
  netRevenueCents: null,
  feesUntoldCount: null,
  methods: [],
};

/** The currencies with anything in either period, BRL always first (and shown even when empty). */
function currenciesOf(current: SalesPeriodReport, comparison: SalesPeriodReport): string[] {
  const seen = new Set(["BRL", ...current.byCurrency.map((c) => c.currency), ...comparison.byCurrency.map((c) => c.currency)]);
  return [...seen].sort((a, b) => (a === "BRL" ? -1 : b === "BRL" ? 1 : a.localeCompare(b)));
}

export default async function SalesOverviewPage({
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
  const has = (key: string) => hasMessage(locale, key);
  const fmt = salesFormat(locale);
  const overview = await salesOverview(accountId, { from: query.period.from, to: query.period.to });
  const currencies = currenciesOf(overview.current, overview.comparison);
  const exportHref = (table: string) => `${accountPath(accountId, `/sales/export/${table}`)}${query.search}`;

  return (
    <div className="space-y-6">
      <SalesPeriodHeader accountId={accountId} current="overview" query={query} fmt={fmt} />
      {currencies.map((currency) => {
        const current = { currency, ...EMPTY, ...overview.current.byCurrency.find((c) => c.currency === currency) };
        const previous = { currency, ...EMPTY, ...overview.comparison.byCurrency.find((c) => c.currency === currency) };
        return (
          <section key={currency} className="space-y-4" aria-labelledby={`figures-${currency}`} data-testid={`sales-currency-${currency}`}>
            <h2
              id={`figures-${currency}`}
              className={currency === "BRL" && currencies.length === 1 ? "sr-only" : "text-base font-semibold"}
            >
              {t("sales.currency", { currency })}
            </h2>
            <FiguresGrid current={current} previous={previous} fmt={fmt} t={t} suffix={currency === "BRL" ? "" : `-${currency}`} />
          </section>
        );
      })}
      {currencies.length > 1 && <p className="text-xs text-muted-foreground">{t("sales.otherCurrencies")}</p>}

      {currencies.map((currency) => (
        <DailyCard
          key={`chart-${currency}`}
          currency={currency}
          current={overview.current.daily}
          comparison={overview.comparison.daily}
          exportHref={exportHref("daily")}
          fmt={fmt}
          t={t}
          locale={locale}
        />
      ))}

      <Card>
        <CardHeader>
          <CardTitle>{t("sales.methods.title")}</CardTitle>
          <CardDescription>{t("sales.methods.description")}</CardDescription>
          <CardAction>
            <ExportLink href={exportHref("methods")} table={t("sales.methods.title")} />
          </CardAction>
        </CardHeader>
        <CardContent className="px-0">
          {overview.current.byCurrency.every((c) => c.methods.length === 0) ? (
            <p className="px-6 py-6 text-center text-sm text-muted-foreground">{t("sales.methods.empty")}</p>
          ) : (
            <Table data-testid="methods-table">
              <TableCaption className="sr-only">{t("sales.methods.title")}</TableCaption>
              <TableHeader>
                <TableRow>
                  <TableHead className="pl-6">{t("sales.methods.method")}</TableHead>
                  <TableHead className="text-right">{t("sales.methods.created")}</TableHead>
                  <TableHead className="text-right">{t("sales.methods.paid")}</TableHead>
                  <TableHead className="text-right">{t("sales.methods.rate")}</TableHead>
                  <TableHead className="text-right">{t("sales.methods.sales")}</TableHead>
                  <TableHead className="pr-6 text-right">{t("sales.methods.revenue")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {overview.current.byCurrency.flatMap((c) =>
                  c.methods.map((m) => (
                    <TableRow
                      key={`${c.currency}-${m.method}`}
                      data-testid={`method-row-${m.method ?? "none"}${c.currency === "BRL" ? "" : `-${c.currency}`}`}
                    >
                      <TableCell className="pl-6 font-medium">
                        {methodName(m.method, t, has)}
                        {c.currency !== "BRL" && <span className="ml-1 text-xs text-muted-foreground">{c.currency}</span>}
                      </TableCell>
                      <TableCell className="text-right tabular-nums">{fmt.count(m.createdCount)}</TableCell>
                      <TableCell className="text-right tabular-nums">{fmt.count(m.paidOfCreatedCount)}</TableCell>
                      <TableCell className="text-right tabular-nums">
                        {fmt.rate(m.rate) ?? t("sales.figures.none")}
                        {m.rateKind === "approval" && (
                          <span className="ml-1 text-xs text-muted-foreground">{t("sales.methods.approval")}</span>
                        )}
                      </TableCell>
                      <TableCell className="text-right tabular-nums">{fmt.count(m.salesCount)}</TableCell>
                      <TableCell className="pr-6 text-right tabular-nums">{fmt.money(m.revenueCents, c.currency)}</TableCell>
                    </TableRow>
                  )),
                )}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** Revenue per day in one currency beside the comparison period's, as a chart and as a table. */
function DailyCard({
  currency,
  current,
  comparison,
  exportHref,
  fmt,
  t,
  locale,
}: {
  currency: string;
  current: SalesPeriodReport["daily"];
  comparison: SalesPeriodReport["daily"];
  exportHref: string;
  fmt: SalesFormat;
  t: Awaited<ReturnType<typeof getI18n>>["t"];
  locale: Awaited<ReturnType<typeof getI18n>>["locale"];
}) {
  const days = current.filter((d) => d.currency === currency);
  const before = comparison.filter((d) => d.currency === currency);
  if (currency !== "BRL" && days.every((d) => d.revenueCents === 0)) return null;
  const points = days.map((d, i) => ({
    label: fmt.shortDay(d.day),
    current: d.revenueCents / 100,
    previous: before[i] ? before[i]!.revenueCents / 100 : null,
  }));
  const empty = days.every((d) => d.salesCount === 0);
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          {t("sales.chart.title")}
          {currency !== "BRL" && ` · ${currency}`}
        </CardTitle>
        <CardDescription>{t("sales.chart.description")}</CardDescription>
        <CardAction>
          <ExportLink href={exportHref} table={t("sales.chart.tableCaption")} />
        </CardAction>
      </CardHeader>
      <CardContent className="space-y-4">
        {empty ? (
          <p className="py-8 text-center text-sm text-muted-foreground">{t("sales.chart.empty")}</p>
        ) : (
          <div className="h-64 w-full" aria-hidden="true" data-testid="daily-chart">
            <LazyDailyRevenueChart
              points={points}
              locale={locale}
              currency={currency}
              labels={{ current: t("sales.chart.current"), comparison: t("sales.chart.comparison") }}
            />
          </div>
        )}
        <details className="rounded-md border text-sm" open={empty ? undefined : undefined}>
          <summary className="cursor-pointer px-3 py-2 font-medium">{t("sales.chart.tableCaption")}</summary>
          <div className="max-h-80 overflow-y-auto">
            <Table data-testid="daily-table">
              <TableCaption className="sr-only">{t("sales.chart.tableCaption")}</TableCaption>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("sales.chart.day")}</TableHead>
                  <TableHead className="text-right">{t("sales.chart.revenue")}</TableHead>
                  <TableHead className="text-right">{t("sales.chart.sales")}</TableHead>
                  <TableHead className="text-right">{t("sales.chart.previousRevenue")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {days.map((d, i) => (
                  <TableRow key={d.day}>
                    <TableCell>{fmt.day(d.day)}</TableCell>
                    <TableCell className="text-right tabular-nums">{fmt.money(d.revenueCents, currency)}</TableCell>
                    <TableCell className="text-right tabular-nums">{fmt.count(d.salesCount)}</TableCell>
                    <TableCell className="text-right text-muted-foreground tabular-nums">
                      {before[i] ? fmt.money(before[i]!.revenueCents, currency) : t("sales.figures.none")}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        </details>
      </CardContent>
    </Card>
  );
}

function trendOf(
  text: string | null,
  current: number | null,
  previous: number | null,
  higherIsGood: boolean,
  t: (k: "sales.figures.noChange") => string,
): FigureTrend | null {
  // Nothing to compare with: the card shows the previous period's value alone.
  if (text === null || current === null || previous === null) return null;
  if (current === previous) return { text: t("sales.figures.noChange"), direction: "flat" };
  const up = current > previous;
  return { text, direction: up ? "up" : "down", good: up === higherIsGood };
}

/** Net revenue and fees: BRL only (the balance counts fees in reais), from the fees and splits the gateway reported. */
function netCards(
  current: SalesFigures,
  previous: SalesFigures,
  {
    money,
    change,
    previousLine,
    t,
    tr,
  }: {
    money: (cents: number | null) => string;
    change: (a: number, b: number) => string | null;
    previousLine: (value: string) => string;
    t: Awaited<ReturnType<typeof getI18n>>["t"];
    tr: (key: "sales.figures.noChange") => string;
  },
) {
  if (current.netRevenueCents === null || current.feesCents === null) return [];
  const untold = current.feesUntoldCount ?? 0;
  const trend = (a: number | null, b: number | null, higherIsGood: boolean) =>
    trendOf(a === null || b === null ? null : change(a, b), a, b, higherIsGood, tr);
  return [
    {
      id: "net-revenue",
      title: t("sales.net.revenue"),
      value: money(current.netRevenueCents),
      hint: untold > 0 ? t("sales.net.revenueHintUntold", { count: untold }) : t("sales.net.revenueHint"),
      previous: previousLine(money(previous.netRevenueCents)),
      trend: trend(current.netRevenueCents, previous.netRevenueCents, true),
    },
    {
      id: "fees",
      title: t("sales.net.fees"),
      value: money(current.feesCents),
      hint: t("sales.net.feesHint"),
      previous: previousLine(money(previous.feesCents)),
      trend: trend(current.feesCents, previous.feesCents, false),
    },
  ];
}

function FiguresGrid({
  current,
  previous,
  fmt,
  t,
  suffix,
}: {
  current: SalesFigures;
  previous: SalesFigures;
  fmt: SalesFormat;
  t: Awaited<ReturnType<typeof getI18n>>["t"];
  suffix: string;
}) {
  const money = (cents: number | null) => (cents === null ? t("sales.figures.none") : fmt.money(cents, current.currency));
  const change = (a: number, b: number) => {
    const text = fmt.change(a, b);
    return text === null ? null : t("sales.figures.change", { change: text });
  };
  const points = (a: number | null, b: number | null) => {
    const text = fmt.pointsChange(a, b);
    return text === null ? null : t("sales.figures.change", { change: text });
  };
  const tr = (key: "sales.figures.noChange") => t(key);
  const previousLine = (value: string) => t("sales.figures.previous", { value });
  const rateText = (rate: number | null, part: number, whole: number) =>
    rate === null
      ? t("sales.figures.none")
      : `${fmt.rate(rate)} (${t("sales.figures.ofCount", { part: fmt.count(part), whole: fmt.count(whole) })})`;
  const cards = [
    {
      id: "revenue",
      title: t("sales.figures.revenue"),
      value: money(current.revenueCents),
      hint: t("sales.figures.revenueHint"),
      previous: previousLine(money(previous.revenueCents)),
      trend: trendOf(change(current.revenueCents, previous.revenueCents), current.revenueCents, previous.revenueCents, true, tr),
    },
    ...netCards(current, previous, { money, change, previousLine, t, tr }),
    {
      id: "sales",
      title: t("sales.figures.sales"),
      value: fmt.count(current.salesCount),
      hint: t("sales.figures.salesHint"),
      previous: previousLine(fmt.count(previous.salesCount)),
      trend: trendOf(change(current.salesCount, previous.salesCount), current.salesCount, previous.salesCount, true, tr),
    },
    {
      id: "average-ticket",
      title: t("sales.figures.averageTicket"),
      value: money(current.averageTicketCents),
      hint: t("sales.figures.averageTicketHint"),
      previous: previousLine(money(previous.averageTicketCents)),
      trend: trendOf(
        current.averageTicketCents === null || previous.averageTicketCents === null
          ? null
          : change(current.averageTicketCents, previous.averageTicketCents),
        current.averageTicketCents,
        previous.averageTicketCents,
        true,
        tr,
      ),
    },
    {
      id: "pix-median",
      title: t("sales.figures.pixMedian"),
      value: fmt.duration(current.pixMedianSecondsToPay) ?? t("sales.figures.none"),
      hint: t("sales.figures.pixMedianHint"),
      previous: previousLine(fmt.duration(previous.pixMedianSecondsToPay) ?? t("sales.figures.none")),
      trend: trendOf(
        current.pixMedianSecondsToPay === null || previous.pixMedianSecondsToPay === null
          ? null
          : change(current.pixMedianSecondsToPay, previous.pixMedianSecondsToPay),
        current.pixMedianSecondsToPay,
        previous.pixMedianSecondsToPay,
        false,
        tr,
      ),
    },
    {
      id: "refund-rate",
      title: t("sales.figures.refundRate"),
      value: rateText(current.refundRate, current.refundedCount, current.salesCount),
      hint: t("sales.figures.refundRateHint"),
      previous: previousLine(fmt.rate(previous.refundRate) ?? t("sales.figures.none")),
      trend: trendOf(points(current.refundRate, previous.refundRate), current.refundRate, previous.refundRate, false, tr),
    },
    {
      id: "chargeback-rate",
      title: t("sales.figures.chargebackRate"),
      value: rateText(current.chargebackRate, current.chargedBackCount, current.salesCount),
      hint: t("sales.figures.chargebackRateHint"),
      previous: previousLine(fmt.rate(previous.chargebackRate) ?? t("sales.figures.none")),
      trend: trendOf(points(current.chargebackRate, previous.chargebackRate), current.chargebackRate, previous.chargebackRate, false, tr),
    },
    {
      id: "recovered",
      title: t("sales.figures.recovered"),
      value: money(current.recoveredCents),
      hint: `${t("sales.figures.recoveredHint")} ${t("sales.figures.recoveredCount", { count: current.recoveredCount })}`,
      previous: previousLine(money(previous.recoveredCents)),
      trend: trendOf(change(current.recoveredCents, previous.recoveredCents), current.recoveredCents, previous.recoveredCents, true, tr),
    },
  ];
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
      {cards.map((card) => (
        <FigureCard key={card.id} testId={`sales-figure-${card.id}${suffix}`} {...card} />
      ))}
    </div>
  );
}
