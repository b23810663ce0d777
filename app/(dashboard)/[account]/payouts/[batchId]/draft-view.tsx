import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { can } from "@/lib/auth/session";
import { fromCents } from "@/lib/br";
import { PAYOUT_COLUMNS } from "@/lib/payout-batches/columns";
import { MAX_BYTES } from "@/lib/payout-batches/parse";
import { DraftToolbar } from "./draft-toolbar";
import { type BatchViewProps, Stat, Filters, Pager, paged, keyTypeWords } from "./parts";
import { RowActions } from "./row-actions";
import { DRAFT_FILTERS, hasError, hasWarning, draftFilter, problemRank } from "./row-filters";

export async function DraftView({ ctx, batch, rows, show, page, base, i18n }: BatchViewProps) {
  const { t, format } = i18n;
  const live = rows.filter((row) => !row.removed);
  const withErrors = live.filter(hasError).length;
  const withWarnings = live.filter((row) => !hasError(row) && hasWarning(row)).length;
  const valid = live.length - withErrors;
  const removed = rows.length - live.length;
  const totalCents = live.reduce((sum, row) => (hasError(row) ? sum : sum + (row.amountCents ?? 0)), 0);
  const filter = (DRAFT_FILTERS as readonly string[]).includes(show) ? show : "all";
  const shown = rows.filter((row) => draftFilter(filter, row)).sort((a, b) => problemRank(a) - problemRank(b) || a.line - b.line);
  const view = paged(shown, page);
  const mayPrepare = can(ctx, "payouts.prepare", ctx.account.id);

  return (
    <>
      <Card data-testid="draft-summary">
        <CardHeader>
          <CardTitle>{t("payouts.preview.title")}</CardTitle>
          <CardDescription>
            {withErrors > 0 ? t("payouts.preview.fixFirst", { count: withErrors }) : t("payouts.preview.ready")}
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6">
            <Stat label={t("payouts.preview.rows")} value={format.number(live.length)} testId="stat-rows" />
            <Stat label={t("payouts.preview.valid")} value={format.number(valid)} tone="success" testId="stat-valid" />
            <Stat
              label={t("payouts.preview.withErrors")}
              value={format.number(withErrors)}
              tone={withErrors ? "destructive" : undefined}
              testId="stat-errors"
            />
            <Stat
              label={t("payouts.preview.withWarnings")}
              value={format.number(withWarnings)}
              tone={withWarnings ? "warning" : undefined}
              testId="stat-warnings"
            />
            <Stat label={t("payouts.preview.removed")} value={format.number(removed)} testId="stat-removed" />
            <Stat label={t("payouts.preview.total")} value={format.money(fromCents(totalCents))} testId="stat-total" wide />
          </dl>
          {mayPrepare && (
            <DraftToolbar
              accountId={ctx.account.id}
              batchId={batch.id}
              withErrors={withErrors}
              valid={valid}
              maxBytes={MAX_BYTES}
              pastePlaceholder={PAYOUT_COLUMNS.map((column) => column.header).join(";")}
            />
          )}
        </CardContent>
      </Card>

      <Card className="gap-4 pb-4">
        <CardHeader>
          <CardTitle>{t("payouts.rows.title")}</CardTitle>
          <CardDescription>{t("payouts.rows.problemsFirst")}</CardDescription>
        </CardHeader>
        <CardContent>
          <Filters
            base={base}
            current={filter}
            label={t("payouts.rows.filter")}
            items={[
              { key: "all", label: t("payouts.rows.show.all"), count: live.length },
              { key: "errors", label: t("payouts.rows.show.errors"), count: withErrors, tone: "destructive" },
              { key: "warnings", label: t("payouts.rows.show.warnings"), count: live.filter(hasWarning).length, tone: "warning" },
              { key: "valid", label: t("payouts.rows.show.valid"), count: valid },
              { key: "removed", label: t("payouts.rows.show.removed"), count: removed },
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
                <TableHead className="hidden md:table-cell">{t("payouts.rows.key")}</TableHead>
                <TableHead className="hidden text-right md:table-cell">{t("payouts.rows.amount")}</TableHead>
                <TableHead className="hidden md:table-cell">{t("payouts.rows.problems")}</TableHead>
                {mayPrepare && <TableHead className="pr-5 text-right">{t("payouts.rows.actions")}</TableHead>}
              </TableRow>
            </TableHeader>
            <TableBody>
              {view.items.map((row) => (
                <DraftRow key={row.id} row={row} accountId={ctx.account.id} batchId={batch.id} mayPrepare={mayPrepare} i18n={i18n} />
              ))}
            </TableBody>
          </Table>
        )}
        <Pager base={base} show={filter} page={view.page} pages={view.pages} total={shown.length} t={t} />
      </Card>
    </>
  );
}

/** One row of the sheet as read: the receiver, the key, the amount and what is wrong with it. */
function DraftRow({
  row,
  accountId,
  batchId,
  mayPrepare,
  i18n: { t, format },
}: {
  row: BatchViewProps["rows"][number];
  accountId: string;
  batchId: string;
  mayPrepare: boolean;
  i18n: BatchViewProps["i18n"];
}) {
  const keyType = keyTypeWords(t, row.pixKeyType ?? (row.cells.pixKeyType || null));
  const amountWrong = row.problems.some((problem) => problem.field === "amount");
  const amount =
    row.amountCents !== null ? (
      format.money(fromCents(row.amountCents))
    ) : (
      <span className={amountWrong ? "text-destructive" : "text-muted-foreground"}>{row.cells.amount || "—"}</span>
    );
  const problems = (testIds: boolean) =>
    row.removed ? (
      <Badge variant="secondary">{t("payouts.rows.removedBadge")}</Badge>
    ) : row.problems.length === 0 ? (
      <span className="text-xs text-success">{t("payouts.rows.ok")}</span>
    ) : (
      <ul className="space-y-1">
        {row.problems.map((problem, index) => (
          <li
            key={index}
            data-testid={testIds ? "row-problem" : undefined}
            data-code={problem.code}
            className={`text-[13px] leading-snug ${problem.severity === "error" ? "text-destructive" : "text-warning"}`}
          >
            {t(`payouts.problems.${problem.code}`)}
          </li>
        ))}
      </ul>
    );
  return (
    <TableRow
      data-testid="payout-row"
      data-line={row.line}
      data-problems={row.problems.map((p) => p.code).join(" ")}
      data-removed={row.removed || undefined}
      className={row.removed ? "opacity-60" : hasError(row) ? "bg-destructive/[0.03]" : undefined}
    >
      <TableCell className="pl-5 align-top text-muted-foreground tabular-nums">{row.line}</TableCell>
      <TableCell className="max-w-[13rem] align-top whitespace-normal md:max-w-52">
        <span className="block truncate font-medium">{row.ownerName ?? (row.cells.name || "—")}</span>
        <span className="block truncate text-xs text-muted-foreground">{row.cells.document || "—"}</span>
        {/* On a phone the key, the amount and the problems sit under the receiver. */}
        <div className="mt-1.5 space-y-1.5 md:hidden">
          <span className="block truncate font-mono text-xs">
            {row.cells.pixKey || "—"}
            {keyType ? <span className="font-sans text-muted-foreground"> · {keyType}</span> : null}
          </span>
          <span className="block text-sm font-medium tabular-nums">{amount}</span>
          {problems(false)}
        </div>
      </TableCell>
      <TableCell className="hidden max-w-60 align-top md:table-cell">
        <span className="block truncate font-mono text-xs">{row.cells.pixKey || "—"}</span>
        {keyType ? <span className="block truncate text-xs text-muted-foreground">{keyType}</span> : null}
      </TableCell>
      <TableCell className="hidden text-right align-top tabular-nums md:table-cell">{amount}</TableCell>
      <TableCell className="hidden min-w-64 align-top whitespace-normal md:table-cell">{problems(true)}</TableCell>
      {mayPrepare && (
        <TableCell className="pr-5 text-right align-top">
          <RowActions
            accountId={accountId}
            batchId={batchId}
            row={{ id: row.id, line: row.line, cells: row.cells, problems: row.problems, removed: row.removed }}
          />
        </TableCell>
      )}
    </TableRow>
  );
}
