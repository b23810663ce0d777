import { CodeWord } from "@/components/ui/code-word";
import { accountPath } from "@/lib/accounts/paths";
import { StatusBadge } from "@/components/payments/status-badge";
import Link from "next/link";
import { ArrowUpRight, Plus } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { can } from "@/lib/auth/session";
import { requireAccountPage } from "@/lib/auth/account-page";
import { formatMoneyInput, fromCents } from "@/lib/br";
import { getI18n } from "@/lib/i18n/server";
import { getTransferSettings, listTransfers } from "@/lib/transfers/queries";
import { TransferSettingsDialog } from "./settings-dialog";

export default async function TransfersPage({ params }: { params: Promise<{ account: string }> }) {
  const ctx = await requireAccountPage("transfers.view", (await params).account);
  const { t, format } = await getI18n();
  const accountId = ctx.account.id;
  const [rows, settings] = await Promise.all([listTransfers(accountId), getTransferSettings(accountId)]);
  const limit = settings.dailyLimitCents === null ? null : fromCents(settings.dailyLimitCents);

  return (
    <div className="space-y-6">
      <PageHeader
        title={t("transfers.title")}
        description={t("transfers.description")}
        actions={
          <>
            {can(ctx, "account.keys.manage", ctx.account.id) && (
              <TransferSettingsDialog accountId={accountId} dailyLimit={limit === null ? "" : formatMoneyInput(limit)} />
            )}
            {can(ctx, "transfers.create", ctx.account.id) && (
              <Button asChild>
                <Link href={accountPath(accountId, "/transfers/new")}>
                  <Plus /> {t("transfers.newTransfer")}
                </Link>
              </Button>
            )}
          </>
        }
      >
        <p className="text-sm text-muted-foreground" data-testid="daily-limit">
          {limit === null ? t("transfers.noLimit") : t("transfers.limitInfo", { limit: format.money(limit) })}
        </p>
      </PageHeader>
      {rows.length === 0 ? (
        <EmptyState icon={<ArrowUpRight />} title={t("transfers.empty")} description={t("transfers.emptyHint")} />
      ) : (
        <Card className="py-0">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t("transfers.receiver")}</TableHead>
                <TableHead className="text-right">{t("transfers.amount")}</TableHead>
                <TableHead>{t("transfers.status")}</TableHead>
                <TableHead className="hidden md:table-cell">{t("transfers.createdAt")}</TableHead>
                <TableHead className="hidden lg:table-cell">{t("transfers.createdBy")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.id} data-testid={`transfer-row-${row.identifier}`}>
                  <TableCell className="max-w-44 sm:max-w-72">
                    <Link href={accountPath(accountId, `/transfers/${row.id}`)} className="block truncate font-medium hover:underline">
                      {row.ownerName}
                    </Link>
                    <span className="block truncate font-mono text-xs text-muted-foreground">
                      <CodeWord group="pixKeyType" code={row.pixKeyType} /> · {row.pixKey}
                    </span>
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{format.money(fromCents(row.amountCents))}</TableCell>
                  <TableCell>
                    {row.withdrawStatus ? (
                      <StatusBadge kind="transfer" status={row.withdrawStatus} />
                    ) : (
                      <Badge variant={row.submission === "REJECTED" ? "destructive" : "warning"}>
                        {t(`vocab.submission.${row.submission}`)}
                      </Badge>
                    )}
                  </TableCell>
                  <TableCell className="hidden text-muted-foreground md:table-cell">{format.dateTimeZoned(row.createdAt)}</TableCell>
                  <TableCell className="hidden text-muted-foreground lg:table-cell">{row.createdByEmail}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}
    </div>
  );
}
