import Link from "next/link";
import { CodeWord } from "@/components/ui/code-word";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { AttemptView, DestinationHealth } from "@/lib/destinations/queries";
import type { Formatters } from "@/lib/i18n/format";
import type { Translate } from "@/lib/i18n/translate";
import { AttemptOutcome, EventTypesSummary } from "../parts";
import { ResendButton } from "./controls";

export const ATTEMPTS_PAGE = 50;

type Words = { t: Translate; format: Formatters };

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

/** The last day's success rate, the last attempt, the next retry and the queue. */
export function DestinationStats({ destination, t, format }: Words & { destination: DestinationHealth }) {
  return (
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
  );
}

export function SettingsCard({ destination, listen, t, format }: Words & { destination: DestinationHealth; listen: boolean }) {
  const rotating = destination.previousSecretExpiresAt && destination.previousSecretExpiresAt > new Date();
  return (
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
  );
}

/** The attempts log, newest first, a page at a time. */
export function AttemptsCard({
  destination,
  attempts,
  base,
  accountId,
  manage,
  listen,
  t,
  format,
}: Words & { destination: DestinationHealth; attempts: AttemptView[]; base: string; accountId: string; manage: boolean; listen: boolean }) {
  return (
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
  );
}
