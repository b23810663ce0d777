import Link from "next/link";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCaption, TableCell, TableFooter, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { BalanceEntryRow } from "@/lib/balance/entries";
import type { MonthClosing, ReleaseDay } from "@/lib/balance/queries";
import { closingView, entryNote, shiftMonth, type BalanceQuery } from "@/lib/balance/view";
import { getI18n } from "@/lib/i18n/server";
import { saoPauloDate } from "@/lib/i18n/format";
import type { BalanceFormat } from "./format";

/** The next days' releases, each day a link to its releases under the extrato. */
export async function ReleaseCalendarSection({
  path,
  days,
  calendar,
  fmt,
}: {
  path: string;
  days: number;
  calendar: ReleaseDay[];
  fmt: BalanceFormat;
}) {
  const { t } = await getI18n();
  const largest = Math.max(1, ...calendar.map((d) => d.amountCents));
  return (
    <Card data-testid="release-calendar">
      <CardHeader>
        <CardTitle>
          <h2>{t("balance.calendar.title")}</h2>
        </CardTitle>
        <CardDescription>{t("balance.calendar.description", { days })}</CardDescription>
      </CardHeader>
      <CardContent className="px-0">
        {calendar.length === 0 ? (
          <p className="px-6 py-6 text-center text-sm text-muted-foreground" data-testid="release-calendar-empty">
            {t("balance.calendar.empty", { days })}
          </p>
        ) : (
          <div className="max-h-96 overflow-y-auto">
            <Table>
              <TableCaption className="sr-only">{t("balance.calendar.caption")}</TableCaption>
              <TableHeader>
                <TableRow>
                  <TableHead className="pl-6">{t("balance.calendar.day")}</TableHead>
                  <TableHead className="text-right">{t("balance.calendar.amount")}</TableHead>
                  <TableHead className="pr-6 text-right">{t("balance.calendar.sales")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {calendar.map((day) => (
                  <TableRow key={day.day} data-testid="release-day" data-day={day.day}>
                    <TableCell className="pl-6 whitespace-nowrap">
                      <Link
                        href={`${path}?from=${day.day}&to=${day.day}&kind=release`}
                        className="font-medium tabular-nums underline-offset-2 hover:underline"
                        aria-label={t("balance.calendar.link", { day: fmt.day(day.day) })}
                      >
                        <span className="mr-1.5 text-muted-foreground">{fmt.weekday(day.day)}</span>
                        {fmt.day(day.day)}
                      </Link>
                    </TableCell>
                    <TableCell className="text-right tabular-nums" data-col="amount">
                      <span className="flex items-center justify-end gap-2">
                        {/* The bar repeats the amount beside it: hidden from assistive technology. */}
                        <span
                          aria-hidden="true"
                          className="hidden h-1.5 rounded-full bg-primary/60 sm:block"
                          style={{ width: `${Math.max(4, Math.round((day.amountCents / largest) * 96))}px` }}
                        />
                        {fmt.money(day.amountCents)}
                      </span>
                    </TableCell>
                    <TableCell className="pr-6 text-right tabular-nums" data-col="sales">
                      {fmt.count(day.sales)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/** A month's opening, its movements by kind and its closing, both buckets, that add up to the cent. */
export async function ClosingSection({
  path,
  query,
  closing,
  now,
  fmt,
}: {
  path: string;
  query: BalanceQuery;
  closing: MonthClosing;
  now: Date;
  fmt: BalanceFormat;
}) {
  const { t } = await getI18n();
  const view = closingView(closing);
  const currentMonth = saoPauloDate(now).slice(0, 7);
  const monthHref = (month: string) => `${path}${query.search}&month=${month}`;
  const previous = shiftMonth(closing.month, -1);
  const next = shiftMonth(closing.month, 1);
  return (
    <Card data-testid="month-closing" data-month={closing.month}>
      <CardHeader>
        <CardTitle>
          <h2>{t("balance.closing.title")}</h2>
        </CardTitle>
        <CardDescription>{t("balance.closing.description")}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3 px-0">
        <div className="flex items-center justify-between gap-2 px-6">
          <Button asChild variant="outline" size="icon" aria-label={t("balance.closing.previous")}>
            <Link href={monthHref(previous)}>
              <ChevronLeft />
            </Link>
          </Button>
          <p className="text-sm font-medium" data-testid="month-closing-month">
            {fmt.month(closing.month)}
          </p>
          {next <= currentMonth ? (
            <Button asChild variant="outline" size="icon" aria-label={t("balance.closing.next")}>
              <Link href={monthHref(next)}>
                <ChevronRight />
              </Link>
            </Button>
          ) : (
            <span className="size-9" />
          )}
        </div>
        <Table>
          <TableCaption className="sr-only">{`${t("balance.closing.title")}: ${fmt.month(closing.month)}`}</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead className="pl-6">{t("balance.closing.line")}</TableHead>
              <TableHead className="text-right">{t("balance.closing.available")}</TableHead>
              <TableHead className="pr-6 text-right">{t("balance.closing.pending")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            <TableRow data-testid="closing-opening" className="font-medium">
              <TableCell className="pl-6 whitespace-normal">{t("balance.closing.opening")}</TableCell>
              <TableCell className="text-right tabular-nums">{fmt.money(view.opening.availableCents)}</TableCell>
              <TableCell className="pr-6 text-right tabular-nums">{fmt.money(view.opening.pendingCents)}</TableCell>
            </TableRow>
            {view.lines.length === 0 ? (
              <TableRow>
                <TableCell colSpan={3} className="pl-6 text-muted-foreground">
                  {t("balance.closing.empty")}
                </TableCell>
              </TableRow>
            ) : (
              view.lines.map((line) => (
                <TableRow key={line.kind} data-testid="closing-line" data-kind={line.kind}>
                  <TableCell className="pl-6 whitespace-normal">
                    {t(`balance.kinds.${line.kind}`)}{" "}
                    <span className="text-xs text-muted-foreground">{t("balance.closing.count", { count: line.count })}</span>
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {line.availableCents === 0 ? "" : fmt.signed(line.availableCents)}
                  </TableCell>
                  <TableCell className="pr-6 text-right tabular-nums">
                    {line.pendingCents === 0 ? "" : fmt.signed(line.pendingCents)}
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
          <TableFooter>
            <TableRow data-testid="closing-closing">
              <TableCell className="pl-6 whitespace-normal">
                {t("balance.closing.closingAt", { date: fmt.dateTime(closing.closedAt) })}
              </TableCell>
              <TableCell className="text-right tabular-nums">{fmt.money(view.closing.availableCents)}</TableCell>
              <TableCell className="pr-6 text-right tabular-nums">{fmt.money(view.closing.pendingCents)}</TableCell>
            </TableRow>
          </TableFooter>
        </Table>
        {!view.adds && (
          <Alert variant="destructive" className="mx-6 w-auto">
            <AlertDescription>{t("balance.closing.mismatch")}</AlertDescription>
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}

/** The balances entered, newest read first, each beside what the console had carried to it. */
export async function EntriesSection({ entries, fmt }: { entries: BalanceEntryRow[]; fmt: BalanceFormat }) {
  const { t } = await getI18n();
  if (entries.length === 0)
    return (
      <p className="px-6 py-6 text-center text-sm text-muted-foreground" data-testid="entries-empty">
        {t("balance.entries.empty")}
      </p>
    );
  return (
    <Table data-testid="entries-table" className="min-w-[40rem]">
      <TableCaption className="sr-only">{t("balance.entries.title")}</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead className="pl-6">{t("balance.entries.readAt")}</TableHead>
          <TableHead className="text-right">{t("balance.entries.available")}</TableHead>
          <TableHead className="text-right">{t("balance.entries.pending")}</TableHead>
          <TableHead>{t("balance.entries.by")}</TableHead>
          <TableHead className="pr-6">{t("balance.entries.note")}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {entries.map((entry) => {
          const note = entryNote(entry);
          return (
            <TableRow key={entry.id} data-testid="entry-row" data-note={note.kind}>
              <TableCell className="pl-6 whitespace-nowrap tabular-nums">{fmt.dateTime(entry.readAt)}</TableCell>
              <TableCell className="text-right tabular-nums">{fmt.money(entry.availableCents)}</TableCell>
              <TableCell className="text-right tabular-nums">{fmt.money(entry.pendingCents)}</TableCell>
              <TableCell className="max-w-48 truncate">{entry.byEmail ?? t("balance.entries.unknownUser")}</TableCell>
              <TableCell className="pr-6 text-sm" data-col="note">
                {note.kind === "first" ? (
                  <span className="text-muted-foreground">{t("balance.entries.first")}</span>
                ) : note.kind === "none" ? (
                  <span className="text-emerald-700 dark:text-emerald-400">{t("balance.entries.none")}</span>
                ) : (
                  <span className="text-amber-700 dark:text-amber-400">
                    {t("balance.entries.difference", {
                      available: fmt.signed(note.availableCents),
                      pending: fmt.signed(note.pendingCents),
                    })}
                  </span>
                )}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
