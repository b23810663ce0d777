import { ParamsProblems } from "@/components/params-problems";
import { PageHeader } from "@/components/ui/page-header";
import { requirePage } from "@/lib/auth/session";
import { feedAccountIds } from "@/lib/feed/access";
import { param, parseSearchParams, type RawSearchParams } from "@/lib/http/search-params";
import { getI18n } from "@/lib/i18n/server";
import { currentFeedSeq, feedFacets, listFeedNotifications } from "@/lib/notifications/queries";
import { ActivityFeed } from "./activity-feed";

const FEED_PAGE_SIZE = 100;

export default async function ActivityPage({ searchParams }: { searchParams: Promise<RawSearchParams> }) {
  const ctx = await requirePage("webhooks.view");
  const { t } = await getI18n();
  const visible = feedAccountIds(ctx);
  const { values, problems } = parseSearchParams(await searchParams, {
    account: param.oneOf(visible),
    event: param.text(),
    method: param.text(),
  });
  const filter = { accountId: values.account, event: values.event, paymentMethod: values.method };
  const accountIds = feedAccountIds(ctx, filter.accountId);
  // Read before the list: a delivery between the two is replayed by the stream, not lost.
  const since = await currentFeedSeq();
  const [events, facets] = await Promise.all([
    listFeedNotifications({ accountIds, event: filter.event, paymentMethod: filter.paymentMethod, limit: FEED_PAGE_SIZE }),
    feedFacets(visible),
  ]);
  const accounts = ctx.accounts.filter((a) => visible.includes(a.id)).map((a) => ({ id: a.id, name: a.name }));
  return (
    <div className="space-y-6">
      <PageHeader title={t("activity.feed.title")} description={t("activity.feed.description")} />
      <ParamsProblems problems={problems} />
      <ActivityFeed initialEvents={events} accounts={accounts} facets={facets} filter={filter} pageSize={FEED_PAGE_SIZE} since={since} />
    </div>
  );
}
