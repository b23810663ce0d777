import { Radio } from "lucide-react";
import Link from "next/link";
import { StatusBadge } from "@/components/payments/status-badge";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { accountPath } from "@/lib/accounts/paths";
import { can } from "@/lib/auth/session";
import { fromCents } from "@/lib/br";
import { getStatusLabel, hasMessage } from "@/lib/i18n/server";
import { LivePoll } from "../live-poll";
import { ProgressBar } from "../progress-bar";
import { rowErrorWords } from "../results";
import { OUTCOME_TONE } from "../words";
import { type BatchViewProps, Stat, Filters, Pager, paged, whoAndWhen } from "./parts";
import { RESULT_FILTERS, resultFilter } from "./row-filters";
import { RunControls } from "./run-controls";

export async function RunView({ ctx, batch, rows, show, page, base, i18n }: BatchViewProps) {
  const { t, format } = i18n;
  const statusLabel = await getStatusLabel();
  const { progress } = batch;
  const accountId = ctx.account.id;
  const sending = rows.some((row) => row.outcome === "sending");
  const awaitingGateway = progress.unknown > 0 || rows.some((row) => row.outcome === "sent");
  // Live while rows are left to send or on their way; slower while only the gateway's word (completed, failed) is awaited.
  const live = batch.state === "RUNNING" || sending || awaitingGateway;
  const pollMs = batch.state === "RUNNING" || sending ? 1_500 : 5_000;
  const filter = (RESULT_FILTERS as readonly string[]).includes(show) ? show : "all";
  const listed = rows.filter((row) => !row.removed);
  const shown = listed.filter((row) => resultFilter(filter, row));
  const view = paged(shown, page);
  const count = (key: string) => listed.filter((row) => resultFilter(key, row)).length;

  return (
    <>
      {batch.state === "CANCELED" && (
        <Alert variant="warning" data-testid="batch-canceled">
          <AlertTitle className="line-clamp-none">
            {t("payouts.run.canceledTitle", whoAndWhen(batch.canceledByEmail, batch.canceledAt, format.dateTime))}
          </AlertTitle>
          <AlertDescription>{t("payouts.run.canceledDescription", { count: progress.canceled })}</AlertDescription>
        </Alert>
      )}
      {batch.state === "PAUSED" && (
        <Alert variant="warning" data-testid="batch-paused">
          <AlertTitle className="line-clamp-none">
            {t("payouts.run.pausedTitle", whoAndWhen(batch.pausedByEmail, batch.pausedAt, format.dateTime))}
          </AlertTitle>
          <AlertDescription>{t("payouts.run.pausedDescription")}</AlertDescription>
        </Alert>
      )}
      <ProgressCard
        batch={batch}
        accountId={accountId}
        mayStop={can(ctx, "payouts.prepare", accountId)}
        mayResume={can(ctx, "payouts.approve", accountId)}
        live={live}
        pollMs={pollMs}
        i18n={i18n}
      />

      <Card className="gap-4 pb-4">
        <CardHeader>
          <CardTitle>{t("payouts.results.title")}</CardTitle>
          <CardDescription>{t("payouts.results.description")}</CardDescription>
        </CardHeader>
        <CardContent>
          <Filters
            base={base}
            current={filter}
            label={t("payouts.rows.filter")}
            items={[
              { key: "all", label: t("payouts.results.show.all"), count: listed.length },
              { key: "completed", label: t("payouts.results.show.completed"), count: count("completed") },
              { key: "sent", label: t("payouts.results.show.sent"), count: count("sent") },
              { key: "failed", label: t("payouts.results.show.failed"), count: count("failed"), tone: "destructive" },
              { key: "unknown", label: t("payouts.results.show.unknown"), count: count("unknown"), tone: "warning" },
              { key: "remaining", label: t("payouts.results.show.remaining"), count: count("remaining") },
              { key: "canceled", label: t("payouts.results.show.canceled"), count: count("canceled") },
            ]}
          />
        </CardContent>
        {view.items.length === 0 ? (
          <CardContent>
            <p className="text-sm text-muted-foreground">{t("payouts.rows.none")}</p>
          </CardContent>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead className="w-14 pl-5">{t("payouts.rows.line")}</TableHead>
                <TableHead>{t("payouts.rows.receiver")}</TableHead>
                <TableHead className="hidden text-right md:table-cell">{t("payouts.rows.amount")}</TableHead>
                <TableHead className="hidden md:table-cell">{t("payouts.results.status")}</TableHead>
                <TableHead className="hidden md:table-cell">{t("payouts.results.withdrawId")}</TableHead>
                <TableHead className="hidden text-right md:table-cell">{t("payouts.results.fee")}</TableHead>
                <TableHead className="hidden pr-5 md:table-cell">{t("payouts.results.error")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {view.items.map((row) => (
                <ResultRow key={row.id} row={row} accountId={accountId} i18n={i18n} statusLabel={statusLabel} />
              ))}
            </TableBody>
          </Table>
        )}
        <Pager base={base} show={filter} page={view.page} pages={view.pages} total={shown.length} t={t} />
      </Card>
    </>
  );
}

/** How far the sending got, row by row, while it runs and once it stops. */
function ProgressCard({
  batch,
  accountId,
  mayStop,
  mayResume,
  live,
  pollMs,
  i18n: { t, format },
}: Pick<BatchViewProps, "batch" | "i18n"> & { accountId: string; mayStop: boolean; mayResume: boolean; live: boolean; pollMs: number }) {
  const { progress } = batch;
  const done = progress.total - progress.remaining;
  const percent = progress.total > 0 ? Math.floor((done / progress.total) * 100) : 0;
  return (
    <Card data-testid="batch-progress" data-remaining={progress.remaining} data-sent={progress.sent}>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          {t("payouts.run.title")}
          {live && (
            <span className="inline-flex items-center gap-1 text-xs font-normal text-muted-foreground" data-testid="live-progress">
              <Radio className="size-3.5 text-success" aria-hidden /> {t("payouts.run.live")}
            </span>
          )}
        </CardTitle>
        <CardDescription>
          {t("payouts.run.approvedBy", whoAndWhen(batch.approvedByEmail, batch.approvedAt, format.dateTimeZoned))}
          {batch.selfApproved ? ` ${t("payouts.run.selfApprovedNote")}` : ""}
        </CardDescription>
        <CardAction className="flex flex-wrap justify-end gap-2">
          <RunControls
            accountId={accountId}
            batchId={batch.id}
            state={batch.state}
            remaining={progress.remaining}
            mayStop={mayStop}
            mayResume={mayResume}
          />
        </CardAction>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="space-y-1.5">
          <div className="flex items-baseline justify-between gap-2 text-sm">
            <span className="font-medium tabular-nums" data-testid="progress-text">
              {t("payouts.run.doneOf", { done: format.number(done), total: format.number(progress.total) })}
            </span>
            <span className="text-muted-foreground tabular-nums">{percent}%</span>
          </div>
          <ProgressBar
            value={done}
            max={progress.total}
            label={t("payouts.run.barLabel")}
            valueText={t("payouts.run.doneOf", { done: format.number(done), total: format.number(progress.total) })}
            tone={batch.state === "FINISHED" && progress.failed === 0 && progress.unknown === 0 ? "success" : "primary"}
            className="h-3"
          />
        </div>
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6">
          <Stat label={t("payouts.run.sent")} value={format.number(progress.sent)} testId="count-sent" />
          <Stat label={t("payouts.run.completed")} value={format.number(progress.completed)} tone="success" testId="count-completed" />
          <Stat
            label={t("payouts.run.failed")}
            value={format.number(progress.failed)}
            tone={progress.failed ? "destructive" : undefined}
            testId="count-failed"
          />
          <Stat
            label={t("payouts.run.unknown")}
            value={format.number(progress.unknown)}
            tone={progress.unknown ? "warning" : undefined}
            testId="count-unknown"
          />
          <Stat label={t("payouts.run.remaining")} value={format.number(progress.remaining)} testId="count-remaining" />
          <Stat label={t("payouts.run.canceled")} value={format.number(progress.canceled)} testId="count-canceled" />
        </dl>
        {progress.unknown > 0 && <p className="text-sm text-muted-foreground">{t("payouts.run.unknownHint")}</p>}
        {live && <LivePoll everyMs={pollMs} />}
      </CardContent>
    </Card>
  );
}

function ResultRow({
  row,
  accountId,
  i18n: { t, format, locale },
  statusLabel,
}: {
  row: BatchViewProps["rows"][number];
  accountId: string;
  i18n: BatchViewProps["i18n"];
  statusLabel: Awaited<ReturnType<typeof getStatusLabel>>;
}) {
  const has = (key: string) => hasMessage(locale, key);
  const error = rowErrorWords(row, t, statusLabel, has);
  const amount = row.amountCents !== null ? format.money(fromCents(row.amountCents)) : "—";
  const status =
    row.withdrawStatus && row.outcome !== "refused" ? (
      <StatusBadge kind="transfer" status={row.withdrawStatus} />
    ) : (
      <Badge variant={OUTCOME_TONE[row.outcome]}>{t(`payouts.outcomes.${row.outcome}`)}</Badge>
    );
  return (
    <TableRow data-testid="result-row" data-line={row.line} data-outcome={row.outcome}>
      <TableCell className="pl-5 align-top text-muted-foreground tabular-nums">{row.line}</TableCell>
      <TableCell className="max-w-[15rem] pr-5 align-top whitespace-normal md:max-w-56 md:pr-3">
        {row.transferId ? (
          <Link href={accountPath(accountId, `/transfers/${row.transferId}`)} className="block truncate font-medium hover:underline">
            {row.ownerName}
          </Link>
        ) : (
          <span className="block truncate font-medium">{row.ownerName}</span>
        )}
        <span className="block truncate font-mono text-xs text-muted-foreground">{row.pixKey}</span>
        {row.reference && <span className="block truncate text-xs text-muted-foreground">{row.reference}</span>}
        {/* On a phone the amount, the status and the error sit under the receiver. */}
        <div className="mt-1.5 flex flex-wrap items-center gap-2 md:hidden">
          <span className="text-sm font-medium tabular-nums">{amount}</span>
          {status}
        </div>
        {error && <p className="mt-1 text-[13px] text-muted-foreground md:hidden">{error}</p>}
      </TableCell>
      <TableCell className="hidden text-right align-top tabular-nums md:table-cell">{amount}</TableCell>
      <TableCell className="hidden align-top md:table-cell">{status}</TableCell>
      <TableCell className="hidden max-w-40 align-top md:table-cell">
        <span className="block truncate font-mono text-xs" data-raw title={row.withdrawId ?? undefined}>
          {row.withdrawId ?? "—"}
        </span>
      </TableCell>
      <TableCell className="hidden text-right align-top tabular-nums md:table-cell">
        {row.feeCents !== null ? format.money(fromCents(row.feeCents)) : "—"}
      </TableCell>
      <TableCell className="hidden max-w-72 pr-5 align-top text-[13px] whitespace-normal text-muted-foreground md:table-cell">
        {error || "—"}
      </TableCell>
    </TableRow>
  );
}
