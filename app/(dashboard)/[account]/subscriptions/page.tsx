import { Download, Repeat } from "lucide-react";
import { ParamsProblems } from "@/components/params-problems";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { accountPath } from "@/lib/accounts/paths";
import { requireAccountPage } from "@/lib/auth/account-page";
import { can } from "@/lib/auth/session";
import type { RawSearchParams } from "@/lib/http/search-params";
import { getI18n } from "@/lib/i18n/server";
import { saoPauloMonth } from "@/lib/subscriptions/periods";
import {
  listSubscriptions,
  settleSummaries,
  subscriptionFacets,
  subscriptionFigures,
  subscriptionRules,
} from "@/lib/subscriptions/queries";
import { subscriptionsQuery } from "@/lib/subscriptions/schemas";
import { SubscriptionFigures } from "./figures-section";
import { SubscriptionFiltersForm } from "./filters";
import { SubscriptionRulesDialog } from "./rules-dialog";
import { SubscriptionsTable } from "./subscriptions-table";
import { subscriptionWords } from "./words";

const PAGE_LIMIT = 200;

export default async function SubscriptionsPage({
  params,
  searchParams,
}: {
  params: Promise<{ account: string }>;
  searchParams: Promise<RawSearchParams>;
}) {
  const ctx = await requireAccountPage("transactions.view", (await params).account);
  const accountId = ctx.account.id;
  const raw = await searchParams;
  const { filters, problems } = subscriptionsQuery(raw);
  const { t, format } = await getI18n();
  const words = subscriptionWords(t, format);
  const pending = await settleSummaries(accountId);
  const now = new Date();
  const month = saoPauloMonth(now);
  const [views, facets, figures, rules] = await Promise.all([
    listSubscriptions(accountId, filters, { now, limit: PAGE_LIMIT + 1 }),
    subscriptionFacets(accountId),
    subscriptionFigures(accountId, month, now),
    subscriptionRules(accountId),
  ]);
  const shown = views.slice(0, PAGE_LIMIT);
  const query = new URLSearchParams(
    Object.entries({ state: filters.state, method: filters.method, product: filters.product, q: filters.customer }).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  ).toString();
  const path = accountPath(accountId, "/subscriptions");
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("subscriptions.title")}
        description={t("subscriptions.description")}
        actions={
          <>
            {can(ctx, "sales.settings", accountId) && (
              <SubscriptionRulesDialog
                accountId={accountId}
                values={{ graceDays: String(rules.graceDays), lostAfterPeriods: String(rules.lostAfterPeriods) }}
              />
            )}
            <Button asChild variant="outline">
              <a href={`${path}/export${query ? `?${query}` : ""}`} download>
                <Download /> {t("subscriptions.export")}
              </a>
            </Button>
          </>
        }
        className="pb-0"
      />
      <ParamsProblems problems={problems} />
      <p className="text-sm text-muted-foreground" data-testid="subscriptions-rules">
        {t("subscriptions.calculated", { grace: rules.graceDays, lost: rules.lostAfterPeriods })}
      </p>
      {pending > 0 && (
        <p role="status" className="text-sm text-muted-foreground" data-testid="subscriptions-recalculating">
          {t("subscriptions.recalculating", { count: pending })}
        </p>
      )}
      <SubscriptionFigures t={t} words={words} figures={figures} month={month.month} now={now} />
      <SubscriptionFiltersForm t={t} words={words} filters={filters} facets={facets} clearHref={path} />
      {shown.length === 0 ? (
        <EmptyState icon={<Repeat />} title={t("subscriptions.empty")} description={t("subscriptions.emptyHint")} />
      ) : (
        <>
          <p className="text-sm text-muted-foreground" data-testid="subscriptions-count">
            {views.length > PAGE_LIMIT
              ? t("subscriptions.limited", { count: PAGE_LIMIT })
              : t("subscriptions.count", { count: shown.length })}
          </p>
          <SubscriptionsTable t={t} words={words} views={shown} accountId={accountId} />
        </>
      )}
    </div>
  );
}
