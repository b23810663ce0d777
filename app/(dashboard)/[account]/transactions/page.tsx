import Link from "next/link";
import { CodeWord } from "@/components/ui/code-word";
import { StatusBadge } from "@/components/payments/status-badge";
import { Receipt, SearchX } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { requireAccountPage } from "@/lib/auth/account-page";
import { getI18n } from "@/lib/i18n/server";
import { fromCents } from "@/lib/br/money";
import { hasFilters, parseLedgerParams } from "@/lib/ledger/filters";
import type { RawSearchParams } from "@/lib/http/search-params";
import { ParamsProblems } from "@/components/params-problems";
import { listLedger, listLedgerMethods, listLedgerStatuses } from "@/lib/ledger/queries";
import { listSavedViews } from "@/lib/ledger/saved-views";
import { TransactionFilters } from "./transaction-filters";
import { SavedViews } from "./saved-views";
import { ExportDialog } from "./export-dialog";
import { UnconfirmedLink } from "./unconfirmed-link";
import { ConfirmingNote } from "./confirming-note";
import { accountPath } from "@/lib/accounts/paths";

const PAGE_SIZE = 50;

export default async function TransactionsPage({
  params: route,
  searchParams,
}: {
  params: Promise<{ account: string }>;
  searchParams: Promise<RawSearchParams>;
}) {
  const ctx = await requireAccountPage("transactions.view", (await route).account);
  const { t, format } = await getI18n();
  const raw = await searchParams;
  const { filters, cursor, params, problems } = parseLedgerParams(raw);
  const account = ctx.account;
  const [page, statuses, methods, views] = await Promise.all([
    listLedger(account.id, filters, { limit: PAGE_SIZE, cursor }),
    listLedgerStatuses(account.id),
    listLedgerMethods(account.id),
    listSavedViews(ctx.user.id, account.id),
  ]);
  const query = new URLSearchParams(params);
  const nextHref = page.nextCursor
    ? `${accountPath(account.id, "/transactions")}?${new URLSearchParams({ ...params, cursor: page.nextCursor })}`
    : null;
  const firstHref = `${accountPath(account.id, "/transactions")}${query.size ? `?${query}` : ""}`;

  return (
    <div className="space-y-5">
      <PageHeader
        title={t("transactions.title")}
        description={t("transactions.description")}
        actions={
          <>
            <SavedViews accountId={account.id} views={views} current={params} />
            <ExportDialog accountId={account.id} filters={params} />
          </>
        }
      />
      <ParamsProblems problems={problems} />
      <ConfirmingNote accountId={account.id} />
      <UnconfirmedLink accountId={account.id} />
      {/* Keyed by the URL's filters so that navigating to other filters (a saved view) resets the form. */}
      <TransactionFilters key={query.toString()} accountId={account.id} initial={params} statuses={statuses} methods={methods} />
      {page.rows.length === 0 ? (
        hasFilters(filters) || cursor ? (
          <EmptyState icon={<SearchX />} title={t("transactions.emptyFiltered")} description={t("transactions.emptyFilteredHint")} />
        ) : (
          <EmptyState icon={<Receipt />} title={t("transactions.empty")} description={t("transactions.emptyHint")} />
        )
      ) : (
        <>
          <Card className="gap-0 py-0 sm:hidden">
            <ul className="divide-y" data-testid="transactions-list-mobile">
              {page.rows.map((row) => (
                <li key={row.id}>
                  <Link
                    href={accountPath(account.id, `/transactions/${row.id}`)}
                    className="flex items-start justify-between gap-3 px-4 py-3 text-sm active:bg-muted/50"
                  >
                    <span className="min-w-0">
                      <span className="block truncate font-medium">{row.clientName ?? row.identifier}</span>
                      <span className="block truncate font-mono text-xs text-muted-foreground">{row.identifier}</span>
                      <span className="block text-xs text-muted-foreground tabular-nums">
                        {format.dateTime(row.createdAt)} ·{" "}
                        {row.paymentMethod ? <CodeWord group="method" code={row.paymentMethod} /> : t("transactions.noMethod")}
                      </span>
                    </span>
                    <span className="flex shrink-0 flex-col items-end gap-1">
                      <span className="font-semibold tabular-nums">
                        {row.amountCents === null ? "—" : format.money(fromCents(row.amountCents))}
                      </span>
                      <StatusBadge operationKind={row.kind} status={row.status} empty={t("transactions.noStatus")} />
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </Card>
          <Card className="hidden gap-0 py-0 sm:flex">
            <Table data-testid="transactions-table">
              <TableHeader>
                <TableRow>
                  <TableHead>{t("transactions.columns.created")}</TableHead>
                  <TableHead>{t("transactions.columns.status")}</TableHead>
                  <TableHead>{t("transactions.columns.method")}</TableHead>
                  <TableHead className="text-right">{t("transactions.columns.amount")}</TableHead>
                  <TableHead>{t("transactions.columns.client")}</TableHead>
                  <TableHead>{t("transactions.columns.identifier")}</TableHead>
                  <TableHead>{t("transactions.columns.paid")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {page.rows.map((row) => (
                  <TableRow key={row.id} data-testid="transaction-row" className="relative">
                    <TableCell className="text-muted-foreground tabular-nums">
                      <Link
                        href={accountPath(account.id, `/transactions/${row.id}`)}
                        className="after:absolute after:inset-0 focus-visible:underline focus-visible:outline-none"
                      >
                        {format.dateTime(row.createdAt)}
                      </Link>
                    </TableCell>
                    <TableCell>
                      <StatusBadge operationKind={row.kind} status={row.status} empty={t("transactions.noStatus")} />
                    </TableCell>
                    <TableCell>
                      {row.paymentMethod ? <CodeWord group="method" code={row.paymentMethod} /> : t("transactions.noMethod")}
                    </TableCell>
                    <TableCell className="text-right font-medium tabular-nums">
                      {row.amountCents === null ? "—" : format.money(fromCents(row.amountCents))}
                    </TableCell>
                    <TableCell className="max-w-56 truncate">
                      <div className="truncate">{row.clientName ?? "—"}</div>
                      {row.clientEmail && <div className="truncate text-xs text-muted-foreground">{row.clientEmail}</div>}
                    </TableCell>
                    <TableCell className="max-w-48 truncate font-mono text-xs">{row.identifier}</TableCell>
                    <TableCell className="text-muted-foreground tabular-nums">{row.paidAt ? format.dateTime(row.paidAt) : "—"}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Card>
        </>
      )}
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-muted-foreground">
        <span>{t("transactions.pageSize", { count: PAGE_SIZE })}</span>
        <div className="flex gap-2">
          {cursor && (
            <Button asChild variant="outline" size="sm">
              <Link href={firstHref}>{t("transactions.firstPage")}</Link>
            </Button>
          )}
          {nextHref && (
            <Button asChild variant="outline" size="sm">
              <Link href={nextHref} data-testid="next-page">
                {t("transactions.nextPage")}
              </Link>
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}
