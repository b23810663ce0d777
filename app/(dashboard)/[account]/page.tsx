import { Suspense } from "react";
import Link from "next/link";
import { PageSkeleton } from "@/components/ui/page-skeleton";
import { notFound } from "next/navigation";
import { StatusBadge } from "@/components/payments/status-badge";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { RoleBadge } from "@/components/shell/role-badge";
import { getAccount } from "@/lib/accounts/queries";
import { can } from "@/lib/auth/session";
import { requireAccountPage } from "@/lib/auth/account-page";
import { accountPath } from "@/lib/accounts/paths";
import { getCodeText, getI18n } from "@/lib/i18n/server";
import { currencyFormatter } from "@/lib/i18n/format";
import { fromCents } from "@/lib/br/money";
import { dailyVolumeByMethod, latestActivity, OVERVIEW_PERIODS, overviewFigures, type PeriodFigures } from "@/lib/overview/queries";
import { VolumeChart } from "./_overview/volume-chart";
import { DisabledDestinationsBanner } from "./destinations/disabled-banner";
import { ConfirmingNote } from "./transactions/confirming-note";

/** The account's overview: `/` opens it for the account the user last worked on. */
export default async function AccountOverviewPage({ params }: { params: Promise<{ account: string }> }) {
  const ctx = await requireAccountPage("account.view", (await params).account);
  const { t } = await getI18n();
  const account = (await getAccount(ctx.account.id)) ?? notFound();
  const showLedger = can(ctx, "transactions.view", account.id);

  const accountCard = (
    <Card>
      <CardHeader>
        <CardDescription>{t("home.currentAccount")}</CardDescription>
        <CardTitle className="flex flex-wrap items-center gap-2 text-xl">
          {account.name}
          <Badge variant={account.mode === "live" ? "success" : "warning"}>
            {account.mode === "live" ? t("accounts.modeLive") : t("accounts.modeTest")}
          </Badge>
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        <dl className="grid grid-cols-[7rem_1fr] gap-y-2">
          <dt className="text-muted-foreground">{t("accounts.baseUrl")}</dt>
          <dd className="font-mono text-xs break-all">{account.baseUrl}</dd>
          <dt className="text-muted-foreground">{t("home.role")}</dt>
          <dd>
            <RoleBadge role={ctx.account.role} />
          </dd>
        </dl>
        <Button asChild variant="outline" size="sm">
          <Link href={`/accounts/${account.id}`}>{t("home.manageAccount")}</Link>
        </Button>
      </CardContent>
    </Card>
  );
  if (!showLedger) {
    return (
      <div className="space-y-6">
        <PageHeader title={t("home.greeting", { name: ctx.user.name })} description={t("home.subtitle")} />
        <div className="max-w-2xl">{accountCard}</div>
      </div>
    );
  }

  // The greeting and the account show at once (sign-in lands here); the figures stream in after.
  return (
    <div className="space-y-6">
      <PageHeader title={t("home.greeting", { name: ctx.user.name })} description={t("overview.title")} />
      {can(ctx, "destinations.view", account.id) && (
        <Suspense fallback={null}>
          <DisabledDestinationsBanner accountId={account.id} />
        </Suspense>
      )}
      <Suspense fallback={null}>
        <ConfirmingNote accountId={account.id} />
      </Suspense>
      <Suspense
        fallback={
          <div className="space-y-6">
            <PageSkeleton label={t("ui.loading")} shape="figures" header={false} />
            <div className="max-w-2xl">{accountCard}</div>
          </div>
        }
      >
        <OverviewFigures accountId={account.id} accountCard={accountCard} />
      </Suspense>
    </div>
  );
}

/** The overview's figures, chart and latest activity: the slow part of the page, streamed. */
async function OverviewFigures({ accountId, accountCard }: { accountId: string; accountCard: React.ReactNode }) {
  const { t, format, locale } = await getI18n();
  const codeText = await getCodeText();
  const [figures, volume, latest] = await Promise.all([
    overviewFigures(accountId),
    dailyVolumeByMethod(accountId),
    latestActivity(accountId),
  ]);
  const money = (cents: number, currency = "BRL") => currencyFormatter(locale, currency)(fromCents(cents));
  const dayFormat = new Intl.DateTimeFormat(locale, { day: "2-digit", month: "2-digit", timeZone: "UTC" });
  const dayLabel = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));
  const countText = (n: number) => t("overview.count", { count: n });
  const monthTotal = volume.rows.reduce((sum, row) => sum + row.cents, 0);
  return (
    <>
      <div className="space-y-2">
        <div className="grid grid-cols-1 gap-4 md:grid-cols-3" data-testid="overview-periods">
          {OVERVIEW_PERIODS.map(({ key }) => (
            <PeriodCard key={key} title={t(`overview.periods.${key}`)} figures={figures[key]} money={money} countText={countText} t={t} />
          ))}
        </div>
        <p className="text-xs text-muted-foreground">{`${t("overview.daysHint")} ${t("overview.paidHint")} ${t("overview.eventsHint")}`}</p>
      </div>
      <div className="grid grid-cols-1 items-start gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,24rem)]">
        <Card>
          <CardHeader>
            <CardTitle>{t("overview.chartTitle")}</CardTitle>
            <CardDescription>{t("overview.chartDescription")}</CardDescription>
          </CardHeader>
          <CardContent>
            <VolumeChart
              days={volume.days}
              rows={volume.rows}
              money={money}
              dayLabel={dayLabel}
              methodName={(method) => codeText("method", method)}
              labels={{
                summary: t("overview.chartSummary", { total: money(monthTotal) }),
                empty: t("overview.chartEmpty"),
                day: t("overview.chartDay"),
                total: t("overview.chartTotal"),
              }}
            />
          </CardContent>
        </Card>
        <div className="space-y-6">
          {accountCard}
          <Card>
            <CardHeader className="flex flex-row items-center justify-between">
              <CardTitle>{t("overview.latest")}</CardTitle>
              <Button asChild variant="ghost" size="sm">
                <Link href={accountPath(accountId, "/transactions")}>{t("overview.seeAll")}</Link>
              </Button>
            </CardHeader>
            <CardContent>
              {latest.length === 0 ? (
                <p className="text-sm text-muted-foreground">{t("overview.latestEmpty")}</p>
              ) : (
                <ul className="divide-y" data-testid="latest-activity">
                  {latest.map((row) => (
                    <li key={row.id}>
                      <Link
                        href={accountPath(accountId, `/transactions/${row.id}`)}
                        className="flex items-center justify-between gap-3 py-2 text-sm hover:bg-muted/40"
                      >
                        <span className="min-w-0">
                          <span className="block truncate font-medium">{row.clientName ?? row.identifier}</span>
                          {row.clientName && (
                            <span className="block truncate font-mono text-xs text-muted-foreground">{row.identifier}</span>
                          )}
                          <span className="block text-xs text-muted-foreground">
                            {format.dateTime(row.updatedAt)}
                            {row.statusSource ? ` · ${t(`overview.latestSource.${row.statusSource}`)}` : ""}
                          </span>
                        </span>
                        <span className="flex shrink-0 flex-col items-end gap-1">
                          <span className="font-medium tabular-nums">
                            {row.amountCents === null ? "—" : money(row.amountCents, row.currency)}
                          </span>
                          <StatusBadge status={row.status} empty={t("transactions.noStatus")} />
                        </span>
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>
        </div>
      </div>
    </>
  );
}

function PeriodCard({
  title,
  figures,
  money,
  countText,
  t,
}: {
  title: string;
  figures: PeriodFigures;
  money: (cents: number, currency: string) => string;
  countText: (n: number) => string;
  t: Awaited<ReturnType<typeof getI18n>>["t"];
}) {
  const [main, ...others] =
    figures.byCurrency.length > 0
      ? figures.byCurrency
      : [{ currency: "BRL", paidCents: 0, paidCount: 0, refundedCents: 0, refundedCount: 0, chargedBackCents: 0, chargedBackCount: 0 }];
  return (
    <Card className="gap-3" data-testid={`period-${title}`}>
      <CardHeader>
        <CardDescription>
          {title} · {t("overview.paid")}
        </CardDescription>
        <CardTitle className="text-2xl tabular-nums" data-testid="paid-volume" data-currency={main.currency}>
          {money(main.paidCents, main.currency)}
        </CardTitle>
        <p className="text-xs text-muted-foreground">
          {countText(main.paidCount)} · {t("overview.accepted", { count: figures.acceptedCount })}
        </p>
      </CardHeader>
      <CardContent>
        <dl className="space-y-1.5 text-sm">
          {others.map((other) => (
            <div key={other.currency} className="flex items-baseline justify-between gap-2" data-testid={`figure-paid-${other.currency}`}>
              <dt className="text-muted-foreground">{t("overview.paidIn", { currency: other.currency })}</dt>
              <dd className="text-right whitespace-nowrap tabular-nums">
                {money(other.paidCents, other.currency)} <span className="text-xs text-muted-foreground">({other.paidCount})</span>
              </dd>
            </div>
          ))}
          {figures.byCurrency.flatMap((row) =>
            (
              [
                [t("overview.refunded"), row.refundedCents, row.refundedCount, "refunded"],
                [t("overview.chargedBack"), row.chargedBackCents, row.chargedBackCount, "charged-back"],
              ] as const
            )
              .filter(([, , count]) => row.currency === main.currency || count > 0)
              .map(([label, cents, count, id]) => (
                <div key={`${row.currency}-${id}`} className="flex items-baseline justify-between gap-2" data-testid={`figure-${id}`}>
                  <dt className="text-muted-foreground">{label}</dt>
                  <dd className="text-right whitespace-nowrap tabular-nums">
                    {money(cents, row.currency)} <span className="text-xs text-muted-foreground">({count})</span>
                  </dd>
                </div>
              )),
          )}
        </dl>
      </CardContent>
    </Card>
  );
}
