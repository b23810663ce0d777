import { CodeWord } from "@/components/ui/code-word";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { AccountBanner } from "@/components/payments/account-banner";
import { ParamsProblems } from "@/components/params-problems";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { accountPath } from "@/lib/accounts/paths";
import { param, parseSearchParams, routeId, type RawSearchParams } from "@/lib/http/search-params";
import { requireAccountPage } from "@/lib/auth/account-page";
import { can } from "@/lib/auth/session";
import { getDestinationHealth, getEventPayload, listAttempts } from "@/lib/destinations/queries";
import { getI18n } from "@/lib/i18n/server";
import { AttemptOutcome, DestinationStateBadge, EventTypesSummary } from "../parts";
import { AutoRefresh, DestinationControls, ReplayPanel, ResendButton } from "./controls";

const ATTEMPTS_PAGE = 50;

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
  const rotating = destination.previousSecretExpiresAt && destination.previousSecretExpiresAt > new Date();

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

      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Stat label={t("destinations.columns.success")} testId="stat-success">
          {destination.attempts24h === 0
            ? "—"
            : `${format.number(Math.round((destination.succeeded24h / destination.attempts24h) * 1000) / 10)}%`}
          <span className="block text-xs font-normal text-muted-foreground">
            {t("destinations.attemptsCount", { count: destination.attempts24h })}
          </span>
        </Stat>
        <Stat label={t("destinations.columns.lastAttempt")}>
          {destination.lastAttempt ? (
            <span className="flex flex-col items-start gap-1">
              <AttemptOutcome httpStatus={destination.lastAttempt.httpStatus} error={destination.lastAttempt.error} />
              <span className="text-xs font-normal text-muted-foreground">{format.dateTimeZoned(destination.lastAttempt.at)}</span>
            </span>
          ) : (
            t("destinations.never")
          )}
        </Stat>
        <Stat label={t("destinations.columns.nextRetry")}>
          {destination.nextRetryAt ? format.dateTimeZoned(destination.nextRetryAt) : "—"}
        </Stat>
        <Stat label={t("destinations.columns.queue")}>{format.number(destination.queued)}</Stat>
      </div>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Card>
          <CardHeader>
            <CardTitle>{t("destinations.settings")}</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3 text-sm sm:grid-cols-2">
            <div>
              <p className="text-xs text-muted-foreground">{t("destinations.columns.events")}</p>
              <EventTypesSummary types={destination.eventTypes} />
            </div>
            <div>
              <p className="text-xs text-muted-foreground">{t("destinations.secret")}</p>
              <code className="font-mono text-xs">whsec_…{destination.secretLast4}</code>
              {rotating && (
                <p className="text-xs text-muted-foreground" data-testid="rotation-overlap">
                  {t("destinations.rotation.overlapUntil", { at: format.dateTimeZoned(destination.previousSecretExpiresAt!) })}
                </p>
              )}
            </div>
            <div>
              <p className="text-xs text-muted-foreground">{t("destinations.createdBy")}</p>
              <span>
                {destination.createdByEmail ?? "—"} · {format.dateTimeZoned(destination.createdAt)}
              </span>
            </div>
            {listen && (
              <div>
                <p className="text-xs text-muted-foreground">{t("destinations.listen.lastSeen")}</p>
                <span>{destination.lastSeenAt ? format.dateTimeZoned(destination.lastSeenAt) : "—"}</span>
              </div>
            )}
          </CardContent>
        </Card>
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

      <Card className="py-0">
        <CardHeader className="pt-6">
          <CardTitle>{t("destinations.attempts.title")}</CardTitle>
          <CardDescription>{t("destinations.attempts.description")}</CardDescription>
        </CardHeader>
        {attempts.length === 0 ? (
          <CardContent className="pb-6 text-sm text-muted-foreground">{t("destinations.attempts.empty")}</CardContent>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t("destinations.attempts.at")}</TableHead>
                <TableHead>{t("destinations.attempts.event")}</TableHead>
                <TableHead className="text-right">{t("destinations.attempts.number")}</TableHead>
                <TableHead>{t("destinations.attempts.outcome")}</TableHead>
                <TableHead className="text-right">{t("destinations.attempts.duration")}</TableHead>
                <TableHead>{t("destinations.attempts.response")}</TableHead>
                <TableHead>{t("destinations.columns.nextRetry")}</TableHead>
                {manage && <TableHead className="sr-only">{t("destinations.attempts.actions")}</TableHead>}
              </TableRow>
            </TableHeader>
            <TableBody>
              {attempts.map((a) => (
                <TableRow key={a.id} data-testid="attempt-row" data-event-type={a.eventType} data-status={a.httpStatus ?? ""}>
                  <TableCell className="whitespace-nowrap text-sm">{format.dateTimeZoned(a.startedAt)}</TableCell>
                  <TableCell className="max-w-56">
                    <CodeWord group="outgoingEvent" code={a.eventType} className="block" />
                    <Link
                      href={`${base}?event=${a.eventId}`}
                      className="block truncate font-mono text-[11px] text-muted-foreground hover:underline"
                      scroll={false}
                    >
                      {a.eventId}
                    </Link>
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{a.attempt}</TableCell>
                  <TableCell>
                    <AttemptOutcome httpStatus={a.httpStatus} error={a.error} />
                  </TableCell>
                  <TableCell className="text-right tabular-nums text-sm text-muted-foreground">
                    {a.durationMs === null ? "—" : `${format.number(a.durationMs)} ms`}
                  </TableCell>
                  <TableCell className="max-w-64">
                    {a.responseExcerpt ? (
                      <details>
                        <summary className="cursor-pointer truncate font-mono text-xs text-muted-foreground">
                          {a.responseExcerpt.slice(0, 60)}
                        </summary>
                        <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-muted p-2 font-mono text-[11px]">
                          {a.responseExcerpt}
                        </pre>
                      </details>
                    ) : (
                      <span className="text-muted-foreground">—</span>
                    )}
                  </TableCell>
                  <TableCell className="whitespace-nowrap text-sm text-muted-foreground">
                    {a.nextRetryAt ? format.dateTimeZoned(a.nextRetryAt) : "—"}
                  </TableCell>
                  {manage && (
                    <TableCell className="text-right">
                      {!listen && <ResendButton accountId={accountId} destinationId={destination.id} eventId={a.eventId} />}
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {attempts.length === ATTEMPTS_PAGE && (
          <CardContent className="pb-6">
            <Button variant="outline" size="sm" asChild>
              <Link href={`${base}?before=${attempts[attempts.length - 1]!.id}`}>{t("destinations.attempts.older")}</Link>
            </Button>
          </CardContent>
        )}
      </Card>
    </div>
  );
}

function Stat({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <Card className="gap-1 py-4" data-testid={testId}>
      <CardContent className="space-y-1">
        <p className="text-xs text-muted-foreground">{label}</p>
        <div className="text-lg font-semibold tabular-nums">{children}</div>
      </CardContent>
    </Card>
  );
}
