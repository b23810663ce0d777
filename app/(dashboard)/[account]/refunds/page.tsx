import { accountPath } from "@/lib/accounts/paths";
import { StatusBadge } from "@/components/payments/status-badge";
import Link from "next/link";
import { Plus, Undo2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { can } from "@/lib/auth/session";
import { requireAccountPage } from "@/lib/auth/account-page";
import { fromCents } from "@/lib/br";
import { getI18n, getStatusLabel } from "@/lib/i18n/server";
import { listRefunds } from "@/lib/refunds/queries";
import { LookupTransactionButton, RefreshPageButton } from "./refresh-buttons";

export default async function RefundsPage({ params }: { params: Promise<{ account: string }> }) {
  const ctx = await requireAccountPage("transactions.view", (await params).account);
  const { t, format } = await getI18n();
  const rows = await listRefunds(ctx.account.id);
  const money = (cents: number | null) => (cents === null ? "—" : format.money(fromCents(cents)));
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("refunds.title")}
        description={t("refunds.description")}
        actions={
          <>
            <RefreshPageButton />
            {can(ctx, "refunds.request", ctx.account.id) && (
              <Button asChild>
                <Link href={accountPath(ctx.account.id, "/refunds/new")}>
                  <Plus /> {t("refunds.newRequest")}
                </Link>
              </Button>
            )}
          </>
        }
      />
      {rows.length === 0 ? (
        <EmptyState icon={<Undo2 />} title={t("refunds.empty")} description={t("refunds.emptyHint")} />
      ) : (
        <>
          <Card className="py-0">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("refunds.transaction")}</TableHead>
                  <TableHead>{t("refunds.customer")}</TableHead>
                  <TableHead>{t("refunds.status")}</TableHead>
                  <TableHead>{t("refunds.transactionStatus")}</TableHead>
                  <TableHead className="text-right">{t("refunds.amount")}</TableHead>
                  <TableHead className="hidden md:table-cell">{t("refunds.reason")}</TableHead>
                  <TableHead className="hidden lg:table-cell">{t("refunds.requestedBy")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((row) => (
                  <TableRow
                    key={row.id}
                    id={`refund-${row.id}`}
                    className="target:bg-muted/60"
                    data-testid={`refund-row-${row.gatewayTransactionId}`}
                  >
                    <TableCell className="max-w-40 sm:max-w-56">
                      {row.ledgerTransactionId ? (
                        <Link
                          href={accountPath(ctx.account.id, `/transactions/${row.ledgerTransactionId}`)}
                          className="block truncate font-mono text-xs hover:underline"
                          title={row.gatewayTransactionId}
                        >
                          {row.gatewayTransactionId}
                        </Link>
                      ) : (
                        <span className="block truncate font-mono text-xs" title={row.gatewayTransactionId}>
                          {row.gatewayTransactionId}
                        </span>
                      )}
                      <span className="block text-xs text-muted-foreground">{format.dateTimeZoned(row.createdAt)}</span>
                    </TableCell>
                    <TableCell className="max-w-48 whitespace-normal" data-testid="refund-customer">
                      {row.customerName ?? row.customerEmail ?? (
                        <span className="text-muted-foreground">{t("refunds.unknownCustomer")}</span>
                      )}
                      {row.customerName && row.customerEmail && (
                        <span className="block truncate text-xs text-muted-foreground">{row.customerEmail}</span>
                      )}
                    </TableCell>
                    <TableCell data-testid="refund-status" data-status={row.status ?? undefined}>
                      <StatusBadge
                        kind="refund"
                        status={row.status}
                        empty={
                          row.submission === "SUBMITTING" || row.submission === "UNKNOWN"
                            ? t(`refunds.submission.${row.submission}`)
                            : undefined
                        }
                      />
                      {row.statusFromTransaction && (
                        <span className="block text-xs text-muted-foreground">{t("refunds.outcomeFromTransaction")}</span>
                      )}
                    </TableCell>
                    <TableCell data-testid="refund-transaction-status">
                      <div className="flex items-center gap-1">
                        <div>
                          {row.transactionStatus ? (
                            <StatusBadge status={row.transactionStatus} />
                          ) : (
                            <span className="text-xs text-muted-foreground">{t("refunds.notChecked")}</span>
                          )}
                          {row.transactionStatusSource && (
                            <span className="block text-xs text-muted-foreground">
                              {t(`refunds.transactionStatusFrom.${row.transactionStatusSource}`)}
                            </span>
                          )}
                        </div>
                        {can(ctx, "ledger.refresh", ctx.account.id) && (
                          <LookupTransactionButton accountId={ctx.account.id} refundId={row.id} />
                        )}
                      </div>
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{money(row.amountCents ?? row.transactionAmountCents)}</TableCell>
                    <TableCell className="hidden max-w-64 whitespace-normal md:table-cell">
                      {row.reason}
                      {row.description && <span className="block truncate text-xs text-muted-foreground">{row.description}</span>}
                    </TableCell>
                    <TableCell className="hidden text-muted-foreground lg:table-cell">{row.requestedByEmail ?? "—"}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Card>
          <p className="text-sm text-muted-foreground">
            {t("refunds.refreshHint", { status: (await getStatusLabel())("transaction", "REFUNDED") })}
          </p>
        </>
      )}
    </div>
  );
}
