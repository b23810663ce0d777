import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { ParamsProblems } from "@/components/params-problems";
import { accountPath } from "@/lib/accounts/paths";
import { requireAccountPage } from "@/lib/auth/account-page";
import { can } from "@/lib/auth/session";
import { listBalanceEntries } from "@/lib/balance/entries";
import { balanceFigures, monthClosing, releaseCalendar, statementPage, totalsByKind } from "@/lib/balance/queries";
import { balanceQuery, figureSource, movementsSince, periodOutflow, upcomingReleases } from "@/lib/balance/view";
import type { RawSearchParams } from "@/lib/http/search-params";
import { getI18n } from "@/lib/i18n/server";
import { BalanceEntryDialog } from "./entry-dialog";
import { balanceFormat } from "./format";
import { FigureCard } from "../sales/figure-card";
import { ClosingSection, EntriesSection, ReleaseCalendarSection } from "./sections";
import { StatementSection } from "./statement";

const CALENDAR_DAYS = 60;

export default async function BalancePage({
  params,
  searchParams,
}: {
  params: Promise<{ account: string }>;
  searchParams: Promise<RawSearchParams>;
}) {
  const ctx = await requireAccountPage("balance.view", (await params).account);
  const accountId = ctx.account.id;
  const query = balanceQuery(await searchParams);
  const { t, locale } = await getI18n();
  const fmt = balanceFormat(locale);
  const now = new Date();
  const filters = { period: query.period, kinds: query.kinds };
  const [figures, totals, calendar, statement, upcoming, closing, entries] = await Promise.all([
    balanceFigures(accountId, now),
    totalsByKind(accountId, query.period, now),
    releaseCalendar(accountId, CALENDAR_DAYS, now),
    statementPage(accountId, filters, { limit: 50, cursor: query.cursor }, now),
    query.kinds.length === 0 || query.kinds.includes("release") ? upcomingReleases(accountId, query.period, now) : Promise.resolve([]),
    monthClosing(accountId, query.month, now),
    listBalanceEntries(accountId),
  ]);
  const since = figures.baseline.readAt ? await movementsSince(accountId, figures.baseline.readAt, now) : 0;
  const source = figureSource(figures, since);
  const outflow = periodOutflow(totals);
  const path = accountPath(accountId, "/balance");
  const untold = [
    figures.untold.fee > 0 && { id: "fee", text: t("balance.figures.untoldFee", { count: figures.untold.fee }) },
    figures.untold.release > 0 && { id: "release", text: t("balance.figures.untoldRelease", { count: figures.untold.release }) },
    figures.unknownTransfers > 0 && { id: "transfers", text: t("balance.figures.unknownTransfers", { count: figures.unknownTransfers }) },
  ].filter((item): item is { id: string; text: string } => Boolean(item));

  return (
    <div className="space-y-6">
      <PageHeader
        title={t("balance.title")}
        description={t("balance.description")}
        actions={can(ctx, "balance.enter", accountId) ? <BalanceEntryDialog accountId={accountId} /> : null}
        className="pb-0"
      />
      <ParamsProblems problems={query.problems} />

      <section aria-labelledby="balance-figures" className="space-y-3">
        <h2 id="balance-figures" className="sr-only">
          {t("balance.nav")}
        </h2>
        <div className="grid gap-3 sm:grid-cols-3 sm:gap-4">
          <FigureCard
            testId="balance-available"
            title={t("balance.figures.available")}
            value={fmt.money(figures.availableCents)}
            hint={t("balance.figures.availableHint")}
          />
          <FigureCard
            testId="balance-pending"
            title={t("balance.figures.pending")}
            value={fmt.money(figures.pendingCents)}
            hint={t("balance.figures.pendingHint")}
          />
          <FigureCard
            testId="balance-outflow"
            title={t("balance.figures.outflow")}
            value={fmt.money(outflow.cents)}
            hint={t("balance.figures.outflowHint", {
              from: fmt.day(query.period.from),
              to: fmt.day(query.period.to),
              count: outflow.transfers,
            })}
          />
        </div>
        <p className="text-sm text-muted-foreground" data-testid="balance-source" data-source={source.kind}>
          {source.kind === "entry"
            ? t("balance.figures.fromEntry", { date: fmt.dateTime(source.readAt), count: source.movements })
            : source.kind === "first"
              ? t("balance.figures.fromFirst", { date: fmt.dateTime(source.firstAt) })
              : t("balance.figures.nothing")}{" "}
          {t("balance.figures.calculatedAt", { date: fmt.dateTime(figures.calculatedAt) })}
        </p>
        {untold.length > 0 && (
          <Alert variant="warning" data-testid="balance-untold">
            <AlertTitle>{t("balance.figures.untoldTitle")}</AlertTitle>
            <AlertDescription>
              <ul className="list-disc space-y-0.5 pl-4">
                {untold.map((item) => (
                  <li key={item.id} data-untold={item.id}>
                    {item.text}
                  </li>
                ))}
              </ul>
              <p>{t("balance.figures.untoldBody")}</p>
            </AlertDescription>
          </Alert>
        )}
      </section>

      <StatementSection accountId={accountId} path={path} query={query} statement={statement} upcoming={upcoming} fmt={fmt} />

      <div className="grid items-start gap-6 xl:grid-cols-2">
        <ReleaseCalendarSection path={path} days={CALENDAR_DAYS} calendar={calendar} fmt={fmt} />
        <ClosingSection path={path} query={query} closing={closing} now={now} fmt={fmt} />
      </div>

      <Card data-testid="balance-entries">
        <CardHeader>
          <CardTitle>
            <h2>{t("balance.entries.title")}</h2>
          </CardTitle>
          <CardDescription>{t("balance.entries.description")}</CardDescription>
        </CardHeader>
        <CardContent className="px-0">
          <EntriesSection entries={entries} fmt={fmt} />
        </CardContent>
      </Card>
    </div>
  );
}
