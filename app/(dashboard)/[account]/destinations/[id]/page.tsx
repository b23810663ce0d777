import { notFound } from "next/navigation";
import { z } from "zod";
import { AccountBanner } from "@/components/payments/account-banner";
import { ParamsProblems } from "@/components/params-problems";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { accountPath } from "@/lib/accounts/paths";
import { param, parseSearchParams, routeId, type RawSearchParams } from "@/lib/http/search-params";
import { requireAccountPage } from "@/lib/auth/account-page";
import { can } from "@/lib/auth/session";
import { getDestinationHealth, getEventPayload, listAttempts } from "@/lib/destinations/queries";
import { getI18n } from "@/lib/i18n/server";
import { DestinationStateBadge } from "../parts";
import { AutoRefresh, DestinationControls, ReplayPanel } from "./controls";
import { ATTEMPTS_PAGE, AttemptsCard, DestinationStats, SettingsCard } from "./sections";

/** `before` pages the attempts log, `event` opens one event's body. */
const PARAMS = { before: param.position(), event: param.custom(z.string().regex(/^msg_[0-9a-f]{32}$/), "id") };

export default async function DestinationPage({
  params,
  searchParams,
}: {
  params: Promise<{ account: string; id: string }>;
  searchParams: Promise<RawSearchParams>;
}) {
  const { account, id: idParam } = await params;
  const ctx = await requireAccountPage("destinations.view", account);
  const id = routeId(idParam);
  if (!id) notFound();
  const { t, format } = await getI18n();
  const accountId = ctx.account.id;
  const { values: query, problems } = parseSearchParams(await searchParams, PARAMS);
  const destination = await getDestinationHealth(accountId, id);
  if (!destination) notFound();
  const manage = can(ctx, "destinations.manage", accountId);
  const [attempts, eventBody] = await Promise.all([
    listAttempts(destination.id, { before: query.before, limit: ATTEMPTS_PAGE }),
    query.event ? getEventPayload(accountId, query.event) : null,
  ]);
  const base = accountPath(accountId, `/destinations/${destination.id}`);
  const listen = destination.kind === "listen";
  const inFlight = attempts.some((a) => a.httpStatus === null && a.error === null);

  return (
    <div className="space-y-6">
      <PageHeader
        back={{ href: accountPath(accountId, "/destinations"), label: t("destinations.back") }}
        title={destination.description || t("destinations.untitled")}
        actions={
          manage && !listen ? (
            <DestinationControls
              accountId={accountId}
              mode={ctx.account.mode}
              destination={{
                id: destination.id,
                url: destination.url,
                description: destination.description ?? "",
                eventTypes: destination.eventTypes,
                state: destination.state,
              }}
            />
          ) : null
        }
      >
        <div className="flex flex-wrap items-center gap-2 pt-1">
          <code className="break-all font-mono text-sm" data-testid="destination-url">
            {destination.url}
          </code>
          <DestinationStateBadge state={destination.state} reason={destination.disabledReason} />
        </div>
      </PageHeader>
      <AccountBanner account={ctx.account} />
      <AutoRefresh active={destination.queued > 0 || inFlight} />
      <ParamsProblems problems={problems} />
      {destination.state === "disabled" && (
        <Alert variant="destructive" data-testid="destination-disabled">
          <AlertTitle>{t("destinations.disabledTitle")}</AlertTitle>
          <AlertDescription>
            {destination.disabledReason ? t(`destinations.disabledReason.${destination.disabledReason}`) : null}{" "}
            {t("destinations.disabledHint")}
          </AlertDescription>
        </Alert>
      )}
      {destination.state === "paused" && (
        <Alert variant="warning">
          <AlertDescription>{t("destinations.pausedHint", { count: destination.queued })}</AlertDescription>
        </Alert>
      )}

      <DestinationStats destination={destination} t={t} format={format} />

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <SettingsCard destination={destination} listen={listen} t={t} format={format} />
        {manage && !listen && <ReplayPanel accountId={accountId} destinationId={destination.id} />}
      </div>

      {eventBody && (
        <Card data-testid="event-body">
          <CardHeader>
            <CardTitle className="font-mono text-sm" data-raw={query.event}>
              {query.event}
            </CardTitle>
            <CardDescription>{t("destinations.eventBody")}</CardDescription>
          </CardHeader>
          <CardContent>
            <pre className="max-h-96 overflow-auto rounded-md bg-muted p-3 font-mono text-xs">{JSON.stringify(eventBody, null, 2)}</pre>
          </CardContent>
        </Card>
      )}

      <AttemptsCard
        destination={destination}
        attempts={attempts}
        base={base}
        accountId={accountId}
        manage={manage}
        listen={listen}
        t={t}
        format={format}
      />
    </div>
  );
}
