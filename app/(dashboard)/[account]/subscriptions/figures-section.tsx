import { Card } from "@/components/ui/card";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { Translate } from "@/lib/i18n/translate";
import type { SubscriptionFigures as Figures } from "@/lib/subscriptions/queries";
import { FigureCard } from "../sales/figure-card";
import type { SubscriptionWords } from "./words";

/** MRR, subscribers, churn and renewals of the São Paulo month, and the cohort table: each figure says what it counts. */
export function SubscriptionFigures({
  t,
  words,
  figures,
  month,
  now,
}: {
  t: Translate;
  words: SubscriptionWords;
  figures: Figures;
  /** The São Paulo month the figures are of, YYYY-MM. */
  month: string;
  now: Date;
}) {
  const rows = figures.cohorts;
  const percent = (share: number | null) => (share === null ? "" : `${Math.round(share * 1000) / 10}%`.replace(".", ","));
  return (
    <section aria-labelledby="subscription-figures" className="space-y-3">
      <h2 id="subscription-figures" className="text-lg font-semibold">
        {t("subscriptions.figures.title")}
      </h2>
      <p className="text-sm text-muted-foreground" data-testid="subscription-figures-source">
        {t("subscriptions.figures.source", { date: words.dateTime(now), count: figures.subscriptions, month: words.month(month) })}
      </p>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <FigureCard
          testId="subscriptions-mrr"
          title={t("subscriptions.figures.mrr")}
          value={words.money(figures.mrr.cents)}
          hint={`${t("subscriptions.figures.mrrHint")}${figures.mrr.unknownAmount > 0 ? ` ${t("subscriptions.figures.mrrUnknown", { count: figures.mrr.unknownAmount })}` : ""}`}
        />
        <FigureCard
          testId="subscriptions-active"
          title={t("subscriptions.figures.active")}
          value={String(figures.active)}
          hint={t("subscriptions.figures.activeHint")}
        />
        <FigureCard
          testId="subscriptions-new"
          title={t("subscriptions.figures.new")}
          value={String(figures.newSubscribers)}
          hint={t("subscriptions.figures.newHint")}
        />
        <FigureCard
          testId="subscriptions-churn"
          title={t("subscriptions.figures.churn")}
          value={String(figures.churned.count)}
          hint={t("subscriptions.figures.churnHint", { mrr: words.money(figures.churned.mrrCents) })}
        />
        <FigureCard
          testId="subscriptions-renewals"
          title={t("subscriptions.figures.renewals")}
          value={t("subscriptions.figures.renewalsValue", {
            failed: figures.failedRenewals,
            unpaid: figures.unpaidRenewals,
            recovered: figures.recoveredRenewals.count,
          })}
          hint={t("subscriptions.figures.renewalsHint")}
        />
      </div>
      {rows.length > 0 && (
        <div className="space-y-2">
          <h3 className="font-medium">{t("subscriptions.figures.cohorts")}</h3>
          <p className="text-sm text-muted-foreground">{t("subscriptions.figures.cohortsHint")}</p>
          <Card className="overflow-x-auto py-0">
            <Table data-testid="subscription-cohorts">
              <TableCaption className="sr-only">{t("subscriptions.figures.cohortsCaption")}</TableCaption>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("subscriptions.figures.cohortMonth")}</TableHead>
                  <TableHead className="text-right">{t("subscriptions.figures.cohortSize")}</TableHead>
                  {Array.from({ length: 12 }, (_, i) => (
                    <TableHead key={i} className="text-right">
                      {t("subscriptions.figures.monthN", { n: i + 1 })}
                    </TableHead>
                  ))}
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((row) => (
                  <TableRow key={row.month}>
                    <TableCell>{words.month(row.month)}</TableCell>
                    <TableCell className="text-right tabular-nums">{row.subscribers}</TableCell>
                    {row.retained.map((share, i) => (
                      <TableCell key={i} className="text-right tabular-nums">
                        {percent(share)}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Card>
        </div>
      )}
    </section>
  );
}
