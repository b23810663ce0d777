import { CodeWord } from "@/components/ui/code-word";
import Link from "next/link";
import { Plus, Send } from "lucide-react";
import { AccountBanner } from "@/components/payments/account-banner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { accountPath } from "@/lib/accounts/paths";
import { requireAccountPage } from "@/lib/auth/account-page";
import { can } from "@/lib/auth/session";
import { listDestinations } from "@/lib/destinations/queries";
import { listListenTokens } from "@/lib/destinations/listen";
import { EVENT_GROUPS, EVENT_TYPES, groupOf } from "@/lib/destinations/vocabulary";
import { getI18n } from "@/lib/i18n/server";
import { DisabledDestinationsBanner } from "./disabled-banner";
import { ListenPanel } from "./listen-panel";
import { AttemptOutcome, DestinationStateBadge, EventTypesSummary } from "./parts";

export default async function DestinationsPage({ params }: { params: Promise<{ account: string }> }) {
  const ctx = await requireAccountPage("destinations.view", (await params).account);
  const { t, format } = await getI18n();
  const accountId = ctx.account.id;
  const manage = can(ctx, "destinations.manage", accountId);
  const [destinations, listenKeys] = await Promise.all([listDestinations(accountId), manage ? listListenTokens(accountId) : []]);

  return (
    <div className="space-y-6">
      <PageHeader
        title={t("destinations.title")}
        description={t("destinations.description")}
        actions={
          manage && (
            <Button asChild>
              <Link href={accountPath(accountId, "/destinations/new")}>
                <Plus /> {t("destinations.new")}
              </Link>
            </Button>
          )
        }
      />
      <AccountBanner account={ctx.account} />
      <DisabledDestinationsBanner accountId={accountId} />

      {destinations.length === 0 ? (
        <EmptyState icon={<Send />} title={t("destinations.empty")} description={t("destinations.emptyHint")} />
      ) : (
        <Card className="py-0">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t("destinations.columns.destination")}</TableHead>
                <TableHead>{t("destinations.columns.events")}</TableHead>
                <TableHead>{t("destinations.columns.state")}</TableHead>
                <TableHead className="text-right">{t("destinations.columns.success")}</TableHead>
                <TableHead>{t("destinations.columns.lastAttempt")}</TableHead>
                <TableHead>{t("destinations.columns.nextRetry")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {destinations.map((d) => (
                <TableRow key={d.id} data-testid="destination-row">
                  <TableCell className="max-w-80">
                    <Link
                      href={accountPath(accountId, `/destinations/${d.id}`)}
                      className="block truncate font-mono text-xs font-medium hover:underline"
                    >
                      {d.url}
                    </Link>
                    {d.description && <span className="block truncate text-xs text-muted-foreground">{d.description}</span>}
                  </TableCell>
                  <TableCell className="text-sm">
                    <EventTypesSummary types={d.eventTypes} />
                  </TableCell>
                  <TableCell>
                    <DestinationStateBadge state={d.state} reason={d.disabledReason} />
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {d.attempts24h === 0 ? (
                      <span className="text-muted-foreground">—</span>
                    ) : (
                      <>
                        {format.number(Math.round((d.succeeded24h / d.attempts24h) * 1000) / 10)}%
                        <span className="block text-xs text-muted-foreground">
                          {t("destinations.attemptsCount", { count: d.attempts24h })}
                        </span>
                      </>
                    )}
                  </TableCell>
                  <TableCell className="whitespace-nowrap text-sm">
                    {d.lastAttempt ? (
                      <div className="flex flex-col items-start gap-1">
                        <AttemptOutcome httpStatus={d.lastAttempt.httpStatus} error={d.lastAttempt.error} />
                        <span className="text-xs text-muted-foreground">{format.dateTimeZoned(d.lastAttempt.at)}</span>
                      </div>
                    ) : (
                      <span className="text-muted-foreground">{t("destinations.never")}</span>
                    )}
                  </TableCell>
                  <TableCell className="whitespace-nowrap text-sm text-muted-foreground">
                    {d.nextRetryAt ? format.dateTimeZoned(d.nextRetryAt) : "—"}
                    {d.queued > 0 && <span className="block text-xs">{t("destinations.queued", { count: d.queued })}</span>}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}

      <div className="grid gap-6 lg:grid-cols-2">
        {manage && (
          <ListenPanel
            accountId={accountId}
            keys={listenKeys.map((k) => ({
              id: k.id,
              last4: k.tokenLast4,
              expiresAt: format.dateTimeZoned(k.expiresAt),
              forwardTo: k.forwardTo,
              lastSeenAt: k.lastSeenAt ? format.dateTimeZoned(k.lastSeenAt) : null,
              destinationHref: k.destinationId ? accountPath(accountId, `/destinations/${k.destinationId}`) : null,
            }))}
          />
        )}
        <Card>
          <CardHeader>
            <CardTitle>{t("destinations.vocabulary.title")}</CardTitle>
            <CardDescription>{t("destinations.vocabulary.description")}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-3 text-sm">
            <div className="grid gap-4 sm:grid-cols-2">
              {EVENT_GROUPS.map((group) => (
                <section key={group} className="space-y-1">
                  <h3 className="text-xs font-medium text-muted-foreground">{t(`destinations.groups.${group}`)}</h3>
                  <ul className="grid gap-1">
                    {EVENT_TYPES.filter((type) => groupOf(type) === group).map((type) => (
                      <li key={type} className="flex flex-col">
                        <CodeWord group="outgoingEvent" code={type} />
                        <span className="font-mono text-xs text-muted-foreground" data-raw={type}>
                          {type}
                        </span>
                      </li>
                    ))}
                  </ul>
                </section>
              ))}
            </div>
            <p>
              <a href="/events/openapi.json" className="font-medium underline" target="_blank" rel="noreferrer">
                {t("destinations.vocabulary.schema")}
              </a>
            </p>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
