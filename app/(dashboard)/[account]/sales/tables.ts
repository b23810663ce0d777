import "server-only";
import type { Translate } from "@/lib/i18n/translate";
import type { OriginDimension, OriginRow, SalesOverview, SalesFigures } from "@/lib/sales/queries";
import { codeText } from "@/lib/i18n/vocab";
import { csvAmount, csvRate } from "./format";

/** A table as the CSV export writes it: the same figures the page shows, amounts "1234,56", rates in percent. */
export type ExportTable = { headers: string[]; rows: (string | number)[][] };

export const EXPORT_TABLES = ["daily", "methods", "origin"] as const;
export type ExportTableName = (typeof EXPORT_TABLES)[number];

export function methodName(method: string | null, t: Translate, has: (key: string) => boolean): string {
  return method ? codeText(t, has, "method", method) : t("sales.methods.unknown");
}

/** Each day of the period, per currency: revenue and sales, beside the same-position day of the comparison period. */
export function dailyTable(overview: SalesOverview, t: Translate): ExportTable {
  const { current, comparison } = overview;
  const previousByIndex = new Map<string, { revenueCents: number; day: string }>();
  const comparisonDays = [...new Set(comparison.daily.map((d) => d.day))].sort();
  const currentDays = [...new Set(current.daily.map((d) => d.day))].sort();
  for (const row of comparison.daily) previousByIndex.set(`${row.currency}|${comparisonDays.indexOf(row.day)}`, row);
  return {
    headers: [t("sales.chart.day"), "moeda", t("sales.chart.revenue"), t("sales.chart.sales"), t("sales.chart.previousRevenue")],
    rows: current.daily.map((row) => {
      const previous = previousByIndex.get(`${row.currency}|${currentDays.indexOf(row.day)}`);
      return [row.day, row.currency, csvAmount(row.revenueCents), row.salesCount, previous ? csvAmount(previous.revenueCents) : ""];
    }),
  };
}

export function methodsTable(figures: SalesFigures[], t: Translate, has: (key: string) => boolean): ExportTable {
  return {
    headers: [
      "moeda",
      t("sales.methods.method"),
      t("sales.methods.created"),
      t("sales.methods.paid"),
      `${t("sales.methods.rate")} / ${t("sales.methods.approval")} (%)`,
      t("sales.methods.sales"),
      t("sales.methods.revenue"),
    ],
    rows: figures.flatMap((currency) =>
      currency.methods.map((m) => [
        currency.currency,
        methodName(m.method, t, has),
        m.createdCount,
        m.paidOfCreatedCount,
        csvRate(m.rate),
        m.salesCount,
        csvAmount(m.revenueCents),
      ]),
    ),
  };
}

/** One line per origin and currency (money is never added across currencies); counts repeat on each currency's line. */
export function originTable(rows: OriginRow[], dimension: OriginDimension, t: Translate): ExportTable {
  return {
    headers: [
      t(`sales.origin.dimensions.${dimension}`),
      t("sales.origin.created"),
      t("sales.origin.paid"),
      `${t("sales.origin.conversion")} (%)`,
      t("sales.origin.sales"),
      `${t("sales.origin.refundRate")} (%)`,
      `${t("sales.origin.chargebackRate")} (%)`,
      "moeda",
      t("sales.origin.revenue"),
      t("sales.net.originFees"),
      t("sales.net.originNet"),
      t("sales.net.untoldColumn"),
    ],
    rows: rows.flatMap((row) => {
      const label = row.value ?? t("sales.origin.direct");
      const counts = [
        label,
        row.createdCount,
        row.paidOfCreatedCount,
        csvRate(row.conversionRate),
        row.salesCount,
        csvRate(row.refundRate),
        csvRate(row.chargebackRate),
      ];
      // Fees and net only in reais, as the balance counts fees: empty on other currencies' lines.
      const net = (c: OriginRow["byCurrency"][number]) =>
        c.feesCents === null || c.netRevenueCents === null
          ? ["", "", ""]
          : [csvAmount(c.feesCents), csvAmount(c.netRevenueCents), c.feesUntoldCount ?? 0];
      return row.byCurrency.length === 0
        ? [[...counts, "", "", "", "", ""]]
        : row.byCurrency.map((c) => [...counts, c.currency, csvAmount(c.revenueCents), ...net(c)]);
    }),
  };
}
