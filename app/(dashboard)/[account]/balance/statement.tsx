import Link from "next/link";
import { Download } from "lucide-react";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { accountPath } from "@/lib/accounts/paths";
import type { StatementLine, StatementPage } from "@/lib/balance/queries";
import type { BalanceQuery, UpcomingRelease } from "@/lib/balance/view";
import { MOVEMENT_KINDS } from "@/lib/db/schema";
import { getI18n } from "@/lib/i18n/server";
import { MAX_PERIOD_DAYS } from "@/lib/sales/period";
import { PeriodDateField } from "../sales/period-date-field";
import type { BalanceFormat } from "./format";

/** The extrato: its filters (a plain GET form), one line per movement with the running balance, the pager and the exports. */
export async function StatementSection({
  accountId,
  path,
  query,
  statement,
  upcoming,
  fmt,
}: {
  accountId: string;
  path: string;
  query: BalanceQuery;
  statement: StatementPage;
  upcoming: UpcomingRelease[];
  fmt: BalanceFormat;
}) {
  const { t } = await getI18n();
  const filtered = query.kinds.length > 0;
  const exportHref = (format: "csv" | "xlsx") => `${accountPath(accountId, `/balance/export/${format}`)}${query.search}`;
  const range = { from: fmt.day(query.period.from), to: fmt.day(query.period.to) };
  const next = statement.nextCursor ? `${path}${query.search}&cursor=${encodeURIComponent(statement.nextCursor)}` : null;

  return (
    <Card data-testid="statement">
      <CardHeader>
        <CardTitle>
          <h2>{t("balance.statement.title")}</h2>
        </CardTitle>
        <CardDescription>
          {t("balance.statement.description")}{" "}
          <span className="font-medium text-foreground" data-testid="statement-range">
            {t("balance.statement.range", range)}
          </span>
        </CardDescription>
        <div className="flex flex-wrap gap-2 pt-1">
          {(["csv", "xlsx"] as const).map((format) => (
            <Button key={format} asChild variant="outline" size="sm">
              <a
                href={exportHref(format)}
                download
                data-testid={`statement-export-${format}`}
                aria-label={t("balance.statement.exportLabel", { ...range, format: t(`balance.statement.${format}`) })}
              >
                <Download /> {t(`balance.statement.${format}`)}
              </a>
            </Button>
          ))}
        </div>
      </CardHeader>
      <CardContent className="space-y-4 px-0">
        {query.periodRefused && (
          <Alert variant="warning" className="mx-6 w-auto" data-testid="period-refused">
            <AlertDescription>{t("balance.statement.invalidPeriod", { max: MAX_PERIOD_DAYS })}</AlertDescription>
          </Alert>
        )}
        <StatementFilters path={path} query={query} filtered={filtered} t={t} />

        {filtered && (
          <p className="mx-6 text-xs text-muted-foreground" data-testid="statement-filtered-note">
            {t("balance.statement.filteredNote")}
          </p>
        )}
        {!filtered && statement.lines.length > 0 && (
          <p className="mx-6 text-sm text-muted-foreground" data-testid="statement-opening">
            {t("balance.statement.opening", {
              available: fmt.money(statement.opening.availableCents),
              pending: fmt.money(statement.opening.pendingCents),
            })}
          </p>
        )}

        {statement.lines.length === 0 ? (
          <p className="px-6 py-6 text-center text-sm text-muted-foreground" data-testid="statement-empty">
            {filtered ? t("balance.statement.emptyFiltered") : t("balance.statement.empty")}
          </p>
        ) : (
          <Table data-testid="statement-table" className="min-w-[52rem]">
            <TableCaption className="sr-only">{t("balance.statement.title")}</TableCaption>
            <TableHeader>
              <TableRow>
                <TableHead className="pl-6">{t("balance.statement.when")}</TableHead>
                <TableHead>{t("balance.statement.kind")}</TableHead>
                <TableHead>{t("balance.statement.origin")}</TableHead>
                <TableHead className="text-right">{t("balance.statement.amount")}</TableHead>
                <TableHead className="text-right">{t("balance.statement.balanceAvailable")}</TableHead>
                <TableHead className="pr-6 text-right">{t("balance.statement.balancePending")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {statement.lines.map((line) => (
                <StatementRow key={line.id} accountId={accountId} line={line} fmt={fmt} t={t} />
              ))}
            </TableBody>
          </Table>
        )}

        {(query.cursor || next) && (
          <nav aria-label={t("balance.statement.pager")} className="flex justify-between gap-2 px-6">
            {query.cursor ? (
              <Button asChild variant="outline" size="sm">
                <Link href={`${path}${query.search}`}>{t("balance.statement.first")}</Link>
              </Button>
            ) : (
              <span />
            )}
            {next && (
              <Button asChild variant="outline" size="sm">
                <Link href={next} data-testid="statement-next">
                  {t("balance.statement.next")}
                </Link>
              </Button>
            )}
          </nav>
        )}

        {upcoming.length > 0 && <UpcomingReleases accountId={accountId} upcoming={upcoming} fmt={fmt} t={t} />}
      </CardContent>
    </Card>
  );
}

type T = Awaited<ReturnType<typeof getI18n>>["t"];

function StatementRow({ accountId, line, fmt, t }: { accountId: string; line: StatementLine; fmt: BalanceFormat; t: T }) {
  const effects = [
    line.availableCents !== 0 && { bucket: "available", cents: line.availableCents, label: t("balance.statement.availableBucket") },
    line.pendingCents !== 0 && { bucket: "pending", cents: line.pendingCents, label: t("balance.statement.pendingBucket") },
  ].filter((effect): effect is { bucket: string; cents: number; label: string } => Boolean(effect));
  return (
    <TableRow data-testid="statement-row" data-kind={line.kind}>
      <TableCell className="pl-6 whitespace-nowrap tabular-nums">{fmt.dateTime(line.occurredAt)}</TableCell>
      <TableCell className="whitespace-nowrap" data-col="kind" data-raw={line.kind}>
        {t(`balance.kinds.${line.kind}`)}
      </TableCell>
      <TableCell>
        <Origin accountId={accountId} ledgerId={line.ledgerId} transferId={line.transferId} reference={line.reference} t={t} />
      </TableCell>
      <TableCell className="text-right whitespace-nowrap tabular-nums" data-col="amount">
        {effects.length === 0
          ? fmt.money(0)
          : effects.map((effect) => (
              <span key={effect.bucket} className="block" data-bucket={effect.bucket} data-cents={effect.cents}>
                {fmt.signed(effect.cents)} <span className="text-xs text-muted-foreground">{effect.label}</span>
              </span>
            ))}
      </TableCell>
      <TableCell className="text-right whitespace-nowrap tabular-nums" data-col="balance-available">
        {line.balance ? fmt.money(line.balance.availableCents) : t("balance.statement.none")}
      </TableCell>
      <TableCell className="pr-6 text-right whitespace-nowrap tabular-nums" data-col="balance-pending">
        {line.balance ? fmt.money(line.balance.pendingCents) : t("balance.statement.none")}
      </TableCell>
    </TableRow>
  );
}

function Origin({
  accountId,
  ledgerId,
  transferId,
  reference,
  t,
}: {
  accountId: string;
  ledgerId: string | null;
  transferId: string | null;
  reference: string | null;
  t: T;
}) {
  const href = ledgerId
    ? accountPath(accountId, `/transactions/${ledgerId}`)
    : transferId
      ? accountPath(accountId, `/transfers/${transferId}`)
      : null;
  const label = ledgerId ? t("balance.statement.transaction") : t("balance.statement.transfer");
  return (
    <span className="flex min-w-0 flex-col">
      {href ? (
        <Link href={href} className="text-sm font-medium underline-offset-2 hover:underline">
          {label}
        </Link>
      ) : (
        <span className="text-sm">{label}</span>
      )}
      <span className="truncate font-mono text-xs text-muted-foreground" title={reference ?? undefined}>
        {reference ?? t("balance.statement.noReference")}
      </span>
    </span>
  );
}

/** The period and the kinds, as a plain GET form: the address carries the filter. */
function StatementFilters({ path, query, filtered, t }: { path: string; query: BalanceQuery; filtered: boolean; t: T }) {
  return (
    <form
      method="get"
      action={path}
      aria-label={t("balance.statement.filters")}
      className="mx-6 flex flex-col gap-3 rounded-lg border bg-muted/30 p-3"
      data-testid="statement-filters"
    >
      <div className="flex flex-wrap items-end gap-2">
        <PeriodDateField id="balance-from" name="from" label={t("balance.statement.from")} defaultValue={query.period.from} />
        <PeriodDateField id="balance-to" name="to" label={t("balance.statement.to")} defaultValue={query.period.to} />
      </div>
      <fieldset>
        <legend className="mb-1.5 text-xs font-medium text-muted-foreground">{t("balance.statement.kinds")}</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1.5">
          {MOVEMENT_KINDS.map((kind) => (
            <label key={kind} className="flex items-center gap-1.5 text-sm">
              <input
                type="checkbox"
                name="kind"
                value={kind}
                defaultChecked={query.kinds.includes(kind)}
                className="size-4 accent-[var(--primary)]"
              />
              {t(`balance.kinds.${kind}`)}
            </label>
          ))}
        </div>
        <p className="mt-1 text-xs text-muted-foreground">{t("balance.statement.allKinds")}</p>
      </fieldset>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm">
          {t("balance.statement.apply")}
        </Button>
        {(filtered || !query.defaultPeriod || query.cursor) && (
          <Button asChild variant="ghost" size="sm">
            <Link href={path}>{t("balance.statement.clear")}</Link>
          </Button>
        )}
      </div>
    </form>
  );
}

/** Releases the calendar expects after the period: money on its way to available. */
function UpcomingReleases({ accountId, upcoming, fmt, t }: { accountId: string; upcoming: UpcomingRelease[]; fmt: BalanceFormat; t: T }) {
  return (
    <div className="space-y-2 border-t pt-4" data-testid="statement-upcoming">
      <div className="px-6">
        <h3 className="text-sm font-semibold">{t("balance.statement.upcomingTitle")}</h3>
        <p className="text-xs text-muted-foreground">{t("balance.statement.upcomingDescription")}</p>
      </div>
      <Table className="min-w-[36rem]">
        <TableCaption className="sr-only">{t("balance.statement.upcomingTitle")}</TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead className="pl-6">{t("balance.statement.upcomingWhen")}</TableHead>
            <TableHead>{t("balance.statement.origin")}</TableHead>
            <TableHead className="pr-6 text-right">{t("balance.statement.amount")}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {upcoming.map((release) => (
            <TableRow key={release.id} data-testid="upcoming-row">
              <TableCell className="pl-6 tabular-nums">{fmt.dateTime(release.occurredAt)}</TableCell>
              <TableCell>
                <Origin accountId={accountId} ledgerId={release.ledgerId} transferId={null} reference={release.reference} t={t} />
              </TableCell>
              <TableCell className="pr-6 text-right tabular-nums">{fmt.money(release.amountCents)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
