import Link from "next/link";
import { notFound } from "next/navigation";
import { Download, Radio } from "lucide-react";
import { ParamsProblems } from "@/components/params-problems";
import { StatusBadge } from "@/components/payments/status-badge";
import { ModeBadge } from "@/components/shell/mode-badge";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { accountPath } from "@/lib/accounts/paths";
import { requireAccountPage, type AccountContext } from "@/lib/auth/account-page";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { hasSecondFactor } from "@/lib/auth/second-factor";
import { can } from "@/lib/auth/session";
import { fromCents } from "@/lib/br";
import { param, parseSearchParams, routeId, type RawSearchParams } from "@/lib/http/search-params";
import { getI18n, getStatusLabel, hasMessage } from "@/lib/i18n/server";
import { MAX_BYTES } from "@/lib/payout-batches/parse";
import { PAYOUT_COLUMNS } from "@/lib/payout-batches/columns";
import { progressOf } from "@/lib/payout-batches/outcome";
import {
  findPayoutBatch,
  getPayoutSettings,
  listPayoutRows,
  type PayoutBatchWithProgress,
  type PayoutRowView,
} from "@/lib/payout-batches/queries";
import { ownerIpOf } from "@/lib/transfers/owner-ip";
import { ProgressBar } from "../progress-bar";
import { rowErrorWords } from "../results";
import { OUTCOME_TONE, ROWS_PER_PAGE, STATE_TONE } from "../words";
import { ApprovalForm, WithdrawButton } from "./approval";
import { DraftToolbar } from "./draft-toolbar";
import { LivePoll } from "../live-poll";
import { RowActions } from "./row-actions";
import { RunControls } from "./run-controls";

type I18n = Awaited<ReturnType<typeof getI18n>>;

const DRAFT_FILTERS = ["all", "errors", "warnings", "valid", "removed"] as const;
const RESULT_FILTERS = ["all", "completed", "sent", "failed", "unknown", "remaining", "canceled"] as const;
const SHOW = [...new Set([...DRAFT_FILTERS, ...RESULT_FILTERS])];

const hasError = (row: PayoutRowView) => row.problems.some((p) => p.severity === "error");
const hasWarning = (row: PayoutRowView) => row.problems.some((p) => p.severity === "warning");

function draftFilter(show: string, row: PayoutRowView): boolean {
  if (show === "removed") return row.removed;
  if (row.removed) return false;
  if (show === "errors") return hasError(row);
  if (show === "warnings") return hasWarning(row);
  if (show === "valid") return !hasError(row);
  return true;
}

function resultFilter(show: string, row: PayoutRowView): boolean {
  if (row.removed) return false;
  switch (show) {
    case "completed":
      return row.outcome === "completed";
    case "sent":
      return row.outcome === "sent";
    case "failed":
      return row.outcome === "failed" || row.outcome === "refused";
    case "unknown":
      return row.outcome === "unknown";
    case "remaining":
      return row.outcome === "queued" || row.outcome === "sending";
    case "canceled":
      return row.outcome === "canceled";
    default:
      return true;
  }
}

/** Problems first (errors, then warnings), then the file's order. */
function problemRank(row: PayoutRowView): number {
  return hasError(row) ? 0 : hasWarning(row) ? 1 : 2;
}

function Fact({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[12rem_1fr] sm:gap-4" data-testid={testId}>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm font-medium break-words">{children}</dd>
    </div>
  );
}

function Stat({
  label,
  value,
  tone,
  testId,
  wide,
}: {
  label: string;
  value: string;
  tone?: "destructive" | "warning" | "success";
  testId?: string;
  /** Two columns on a phone (an amount). */
  wide?: boolean;
}) {
  const color =
    tone === "destructive" ? "text-destructive" : tone === "warning" ? "text-warning" : tone === "success" ? "text-success" : "";
  return (
    <div className={`min-w-0 rounded-lg border bg-muted/30 px-3 py-2.5 ${wide ? "col-span-2 sm:col-span-1" : ""}`} data-testid={testId}>
      <dt className="truncate text-xs text-muted-foreground">{label}</dt>
      <dd className={`text-lg font-semibold tabular-nums ${color}`}>{value}</dd>
    </div>
  );
}

/** Chips that filter the table, each with its count: the count per state the preview shows. */
function Filters({
  base,
  current,
  items,
  label,
}: {
  base: string;
  current: string;
  items: Array<{ key: string; label: string; count: number; tone?: "destructive" | "warning" }>;
  label: string;
}) {
  return (
    <nav aria-label={label} className="flex flex-wrap gap-1.5">
      {items.map((item) => {
        const active = item.key === current;
        return (
          <Link
            key={item.key}
            // Not prefetched: while the batch sends, the page re-reads itself and each chip would render it again.
            prefetch={false}
            href={item.key === "all" ? base : `${base}?show=${item.key}`}
            aria-current={active ? "page" : undefined}
            data-testid={`filter-${item.key}`}
            className={`inline-flex items-center gap-1.5 rounded-full border px-3 py-1 text-xs font-medium transition-colors ${
              active ? "border-primary bg-primary/10 text-primary" : "text-muted-foreground hover:bg-muted hover:text-foreground"
            }`}
          >
            {item.label}
            <span
              className={`tabular-nums ${item.count > 0 && item.tone === "destructive" ? "text-destructive" : item.count > 0 && item.tone === "warning" ? "text-warning" : ""}`}
            >
              {item.count}
            </span>
          </Link>
        );
      })}
    </nav>
  );
}

function Pager({
  base,
  show,
  page,
  pages,
  total,
  t,
}: {
  base: string;
  show: string;
  page: number;
  pages: number;
  total: number;
  t: I18n["t"];
}) {
  if (pages <= 1) return null;
  const href = (n: number) => {
    const query = new URLSearchParams();
    if (show !== "all") query.set("show", show);
    if (n > 1) query.set("page", String(n));
    return query.size ? `${base}?${query}` : base;
  };
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 border-t px-5 pt-4 text-sm text-muted-foreground">
      <span>{t("payouts.rows.pageOf", { page, pages, total })}</span>
      <div className="flex gap-2">
        {page > 1 ? (
          <Button variant="outline" size="sm" asChild>
            <Link href={href(page - 1)} prefetch={false}>
              {t("payouts.rows.previous")}
            </Link>
          </Button>
        ) : null}
        {page < pages ? (
          <Button variant="outline" size="sm" asChild>
            <Link href={href(page + 1)} prefetch={false}>
              {t("payouts.rows.next")}
            </Link>
          </Button>
        ) : null}
      </div>
    </div>
  );
}

function paged<T>(items: T[], page: number | undefined) {
  const pages = Math.max(1, Math.ceil(items.length / ROWS_PER_PAGE));
  const current = Math.min(page ?? 1, pages);
  return { items: items.slice((current - 1) * ROWS_PER_PAGE, current * ROWS_PER_PAGE), page: current, pages };
}

const keyTypeWords = (t: I18n["t"], type: string | null) =>
  type && hasMessage("pt-BR", `transfers.keyTypes.${type}`) ? t(`transfers.keyTypes.${type}`) : type;

export default async function PayoutBatchPage({
  params,
  searchParams,
}: {
  params: Promise<{ account: string; batchId: string }>;
  searchParams: Promise<RawSearchParams>;
}) {
  const { account, batchId } = await params;
  const id = routeId(batchId) ?? notFound();
  const ctx = await requireAccountPage("payouts.view", account);
  const found = await findPayoutBatch(ctx.account.id, id);
  if (!found) notFound();
  const i18n = await getI18n();
  const { t, format } = i18n;
  const raw = await searchParams;
  const { values, problems } = parseSearchParams(raw, { show: param.oneOf(SHOW), page: param.position() });
  const rows = await listPayoutRows(found.id);
  // The rows are read whole anyway: their progress is counted from them, not asked of the database again.
  const batch = { ...found, progress: progressOf(rows.filter((row) => !row.removed).map((row) => [row.outcome, 1] as const)) };
  const base = accountPath(ctx.account.id, `/payouts/${batch.id}`);
  const started = !["DRAFT", "AWAITING_APPROVAL", "REJECTED"].includes(batch.state);

  return (
    <div className="space-y-6" data-testid="payout-batch" data-state={batch.state} data-batch-id={batch.id}>
      <PageHeader
        back={{ href: accountPath(ctx.account.id, "/payouts"), label: t("payouts.back") }}
        title={batch.name}
        description={
          batch.fileName
            ? t("payouts.batch.fromFile", { file: batch.fileName, email: batch.createdByEmail, at: format.dateTime(batch.createdAt) })
            : t(`payouts.batch.from.${batch.source}`, { email: batch.createdByEmail, at: format.dateTime(batch.createdAt) })
        }
        actions={
          started ? (
            <>
              <Button variant="outline" asChild>
                <a href={`${base}/results/csv`} download data-testid="results-csv">
                  <Download /> {t("payouts.results.csv")}
                </a>
              </Button>
              <Button variant="outline" asChild>
                <a href={`${base}/results/xlsx`} download data-testid="results-xlsx">
                  <Download /> {t("payouts.results.xlsx")}
                </a>
              </Button>
            </>
          ) : null
        }
      >
        <div className="mt-1 flex flex-wrap items-center gap-1.5">
          <Badge variant={STATE_TONE[batch.state]} data-testid="batch-state">
            {t(`payouts.states.${batch.state}`)}
          </Badge>
          {batch.selfApproved && (
            <Badge variant="warning" data-testid="self-approved" title={t("payouts.selfApprovedHint")}>
              {t("payouts.selfApproved")}
            </Badge>
          )}
          <ModeBadge mode={ctx.account.mode} />
          <span className="text-xs text-muted-foreground">{ctx.account.name}</span>
        </div>
      </PageHeader>
      <ParamsProblems problems={problems} />

      {batch.state === "DRAFT" && (
        <DraftView ctx={ctx} batch={batch} rows={rows} show={values.show ?? "all"} page={values.page} base={base} i18n={i18n} />
      )}
      {batch.state === "AWAITING_APPROVAL" && (
        <ApprovalView ctx={ctx} batch={batch} rows={rows} page={values.page} base={base} i18n={i18n} />
      )}
      {batch.state === "REJECTED" && (
        <>
          <Alert variant="destructive" data-testid="batch-rejected">
            <AlertTitle className="line-clamp-none">
              {t("payouts.rejected.title", {
                email: batch.rejectedByEmail ?? "—",
                at: batch.rejectedAt ? format.dateTime(batch.rejectedAt) : "—",
              })}
            </AlertTitle>
            <AlertDescription>
              <p>
                {t("payouts.rejected.reason")}: <span className="font-medium text-foreground">{batch.rejectionReason}</span>
              </p>
              <p>{t("payouts.rejected.next")}</p>
            </AlertDescription>
          </Alert>
          <SendableRows rows={rows} page={values.page} base={base} i18n={i18n} title={t("payouts.rows.title")} />
        </>
      )}
      {started && <RunView ctx={ctx} batch={batch} rows={rows} show={values.show ?? "all"} page={values.page} base={base} i18n={i18n} />}
    </div>
  );
}

async function DraftView({
  ctx,
  batch,
  rows,
  show,
  page,
  base,
  i18n,
}: {
  ctx: AccountContext;
  batch: PayoutBatchWithProgress;
  rows: PayoutRowView[];
  show: string;
  page: number | undefined;
  base: string;
  i18n: I18n;
}) {
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
              {view.items.map((row) => {
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
                    key={row.id}
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
                          accountId={ctx.account.id}
                          batchId={batch.id}
                          row={{ id: row.id, line: row.line, cells: row.cells, problems: row.problems, removed: row.removed }}
                        />
                      </TableCell>
                    )}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
        <Pager base={base} show={filter} page={view.page} pages={view.pages} total={shown.length} t={t} />
      </Card>
    </>
  );
}

/** The account, its mode, the row count and the total: what the checker approves, named in full. */
async function ApprovalView({
  ctx,
  batch,
  rows,
  page,
  base,
  i18n,
}: {
  ctx: AccountContext;
  batch: PayoutBatchWithProgress;
  rows: PayoutRowView[];
  page: number | undefined;
  base: string;
  i18n: I18n;
}) {
  const { t, format } = i18n;
  const accountId = ctx.account.id;
  const settings = await getPayoutSettings(accountId);
  const isMaker = batch.createdBy === ctx.user.id || batch.submittedBy === ctx.user.id;
  const mayApprove = can(ctx, "payouts.approve", accountId);
  const mayPrepare = can(ctx, "payouts.prepare", accountId);
  const blockedAsMaker = isMaker && !settings.allowSelfApproval;
  const approvers = PERMISSIONS["payouts.approve"].map((role) => t(`shell.role.${role}`)).join(t("payouts.list.or"));
  const total = format.money(fromCents(batch.totalCents));
  const secondFactor = mayApprove && !blockedAsMaker ? await hasSecondFactor(ctx.user.id) : false;
  const ownerIp = ownerIpOf(ctx.ip);

  return (
    <>
      {blockedAsMaker ? (
        <Alert variant="warning" data-testid="waiting-for-checker">
          <AlertTitle className="line-clamp-none">{t("payouts.approval.waitingTitle")}</AlertTitle>
          <AlertDescription>
            <p data-testid="self-approval-blocked">
              {mayApprove ? t("payouts.approval.makerCannotApprove") : t("payouts.approval.waiting", { roles: approvers })}
            </p>
            {mayPrepare && (
              <>
                <p>{t("payouts.approval.withdrawHint")}</p>
                <WithdrawButton accountId={accountId} batchId={batch.id} />
              </>
            )}
          </AlertDescription>
        </Alert>
      ) : !mayApprove ? (
        <Alert variant="warning" data-testid="waiting-for-checker">
          <AlertTitle className="line-clamp-none">{t("payouts.approval.waitingTitle")}</AlertTitle>
          <AlertDescription>
            <p>{t("payouts.approval.waiting", { roles: approvers })}</p>
          </AlertDescription>
        </Alert>
      ) : null}

      <Card data-testid="approval-screen">
        <CardHeader>
          <CardTitle>{t("payouts.approval.title")}</CardTitle>
          <CardDescription>{t("payouts.approval.description")}</CardDescription>
          {isMaker && mayPrepare && !blockedAsMaker && (
            <CardAction>
              <WithdrawButton accountId={accountId} batchId={batch.id} />
            </CardAction>
          )}
        </CardHeader>
        <CardContent className="space-y-5">
          <dl className="divide-y">
            <Fact label={t("payouts.approval.account")} testId="approval-account">
              <span className="flex flex-wrap items-center gap-2">
                {ctx.account.name} <ModeBadge mode={ctx.account.mode} />
              </span>
              <span className="block font-normal text-muted-foreground">
                {t(ctx.account.mode === "live" ? "transfers.liveMoney" : "transfers.testMoney")}
              </span>
            </Fact>
            <Fact label={t("payouts.approval.rows")} testId="approval-rows">
              <span className="text-lg tabular-nums">{format.number(batch.rowCount)}</span>
            </Fact>
            <Fact label={t("payouts.approval.total")} testId="approval-total">
              <span className="text-lg tabular-nums">{total}</span>
            </Fact>
            <Fact label={t("transfers.feeChoice")}>
              {batch.discountFeeOfReceiver ? t("transfers.feeFromReceiver") : t("transfers.feeNotFromReceiver")}
            </Fact>
            <Fact label={t("payouts.approval.preparedBy")}>
              {batch.createdByEmail}
              <span className="block font-normal text-muted-foreground">
                {t("payouts.approval.submittedAt", {
                  email: batch.submittedByEmail ?? batch.createdByEmail,
                  at: batch.submittedAt ? format.dateTimeZoned(batch.submittedAt) : "—",
                })}
              </span>
            </Fact>
          </dl>
          {mayApprove && !blockedAsMaker && (
            <ApprovalForm
              accountId={accountId}
              batchId={batch.id}
              total={total}
              rowCount={batch.rowCount}
              secondFactor={secondFactor}
              ipKnown={ownerIp !== null}
              selfApproval={isMaker}
            />
          )}
        </CardContent>
      </Card>
      <SendableRows rows={rows} page={page} base={base} i18n={i18n} title={t("payouts.approval.rowsTitle")} />
    </>
  );
}

/** The rows a checker approves (or a rejected batch held): valid and not removed, read only. */
function SendableRows({
  rows,
  page,
  base,
  i18n,
  title,
}: {
  rows: PayoutRowView[];
  page: number | undefined;
  base: string;
  i18n: I18n;
  title: string;
}) {
  const { t, format } = i18n;
  const sendable = rows.filter((row) => !row.removed && !hasError(row));
  const view = paged(sendable, page);
  return (
    <Card className="gap-4 pb-4">
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{t("payouts.rows.count", { count: sendable.length })}</CardDescription>
      </CardHeader>
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead className="w-14 pl-5">{t("payouts.rows.line")}</TableHead>
            <TableHead>{t("payouts.rows.receiver")}</TableHead>
            <TableHead className="hidden md:table-cell">{t("payouts.rows.key")}</TableHead>
            <TableHead className="pr-5 text-right md:pr-3">{t("payouts.rows.amount")}</TableHead>
            <TableHead className="hidden pr-5 md:table-cell">{t("payouts.rows.reference")}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {view.items.map((row) => {
            const warnings = row.problems.length > 0 && (
              <span className="block text-xs whitespace-normal text-warning">
                {row.problems.map((problem) => t(`payouts.problems.${problem.code}`)).join(" · ")}
              </span>
            );
            return (
              <TableRow key={row.id} data-testid="payout-row" data-line={row.line}>
                <TableCell className="pl-5 align-top text-muted-foreground tabular-nums">{row.line}</TableCell>
                <TableCell className="max-w-[10.5rem] align-top sm:max-w-52">
                  <span className="block truncate font-medium">{row.ownerName}</span>
                  <span className="block truncate text-xs text-muted-foreground">{row.cells.document}</span>
                  <span className="mt-1 block truncate font-mono text-xs md:hidden">{row.pixKey}</span>
                  {row.reference && <span className="block truncate text-xs text-muted-foreground md:hidden">{row.reference}</span>}
                  <span className="md:hidden">{warnings}</span>
                </TableCell>
                <TableCell className="hidden max-w-60 align-top md:table-cell">
                  <span className="block truncate font-mono text-xs">{row.pixKey}</span>
                  <span className="block truncate text-xs text-muted-foreground">{keyTypeWords(t, row.pixKeyType)}</span>
                </TableCell>
                <TableCell className="pr-5 text-right align-top tabular-nums md:pr-3">
                  {row.amountCents !== null ? format.money(fromCents(row.amountCents)) : "—"}
                </TableCell>
                <TableCell className="hidden pr-5 align-top text-muted-foreground md:table-cell">
                  {row.reference || "—"}
                  {warnings}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      <Pager base={base} show="all" page={view.page} pages={view.pages} total={sendable.length} t={t} />
    </Card>
  );
}

async function RunView({
  ctx,
  batch,
  rows,
  show,
  page,
  base,
  i18n,
}: {
  ctx: AccountContext;
  batch: PayoutBatchWithProgress;
  rows: PayoutRowView[];
  show: string;
  page: number | undefined;
  base: string;
  i18n: I18n;
}) {
  const { t, format, locale } = i18n;
  const statusLabel = await getStatusLabel();
  const has = (key: string) => hasMessage(locale, key);
  const { progress } = batch;
  const accountId = ctx.account.id;
  const done = progress.total - progress.remaining;
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
  const percent = progress.total > 0 ? Math.floor((done / progress.total) * 100) : 0;

  return (
    <>
      {batch.state === "CANCELED" && (
        <Alert variant="warning" data-testid="batch-canceled">
          <AlertTitle className="line-clamp-none">
            {t("payouts.run.canceledTitle", {
              email: batch.canceledByEmail ?? "—",
              at: batch.canceledAt ? format.dateTime(batch.canceledAt) : "—",
            })}
          </AlertTitle>
          <AlertDescription>{t("payouts.run.canceledDescription", { count: progress.canceled })}</AlertDescription>
        </Alert>
      )}
      {batch.state === "PAUSED" && (
        <Alert variant="warning" data-testid="batch-paused">
          <AlertTitle className="line-clamp-none">
            {t("payouts.run.pausedTitle", {
              email: batch.pausedByEmail ?? "—",
              at: batch.pausedAt ? format.dateTime(batch.pausedAt) : "—",
            })}
          </AlertTitle>
          <AlertDescription>{t("payouts.run.pausedDescription")}</AlertDescription>
        </Alert>
      )}
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
            {t("payouts.run.approvedBy", {
              email: batch.approvedByEmail ?? "—",
              at: batch.approvedAt ? format.dateTimeZoned(batch.approvedAt) : "—",
            })}
            {batch.selfApproved ? ` ${t("payouts.run.selfApprovedNote")}` : ""}
          </CardDescription>
          <CardAction className="flex flex-wrap justify-end gap-2">
            <RunControls
              accountId={accountId}
              batchId={batch.id}
              state={batch.state}
              remaining={progress.remaining}
              mayStop={can(ctx, "payouts.prepare", accountId)}
              mayResume={can(ctx, "payouts.approve", accountId)}
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
              {view.items.map((row) => {
                const error = rowErrorWords(row, t, statusLabel, has);
                const amount = row.amountCents !== null ? format.money(fromCents(row.amountCents)) : "—";
                const status =
                  row.withdrawStatus && row.outcome !== "refused" ? (
                    <StatusBadge kind="transfer" status={row.withdrawStatus} />
                  ) : (
                    <Badge variant={OUTCOME_TONE[row.outcome]}>{t(`payouts.outcomes.${row.outcome}`)}</Badge>
                  );
                return (
                  <TableRow key={row.id} data-testid="result-row" data-line={row.line} data-outcome={row.outcome}>
                    <TableCell className="pl-5 align-top text-muted-foreground tabular-nums">{row.line}</TableCell>
                    <TableCell className="max-w-[15rem] pr-5 align-top whitespace-normal md:max-w-56 md:pr-3">
                      {row.transferId ? (
                        <Link
                          href={accountPath(accountId, `/transfers/${row.transferId}`)}
                          className="block truncate font-medium hover:underline"
                        >
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
              })}
            </TableBody>
          </Table>
        )}
        <Pager base={base} show={filter} page={view.page} pages={view.pages} total={shown.length} t={t} />
      </Card>
    </>
  );
}
