import Link from "next/link";
import { Layers, Plus, ShieldCheck } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { accountPath } from "@/lib/accounts/paths";
import { requireAccountPage } from "@/lib/auth/account-page";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { can } from "@/lib/auth/session";
import { fromCents } from "@/lib/br";
import { getI18n } from "@/lib/i18n/server";
import { getPayoutSettings, listPayoutBatches } from "@/lib/payout-batches/queries";
import { LivePoll } from "./live-poll";
import { ProgressBar } from "./progress-bar";
import { SelfApprovalSetting } from "./self-approval-setting";
import { STATE_TONE } from "./words";

export default async function PayoutBatchesPage({ params }: { params: Promise<{ account: string }> }) {
  const ctx = await requireAccountPage("payouts.view", (await params).account);
  const { t, format } = await getI18n();
  const accountId = ctx.account.id;
  const [batches, settings] = await Promise.all([listPayoutBatches(accountId), getPayoutSettings(accountId)]);
  const approvers = PERMISSIONS["payouts.approve"].map((role) => t(`shell.role.${role}`)).join(t("payouts.list.or"));

  return (
    <div className="space-y-6">
      <PageHeader
        title={t("payouts.title")}
        description={t("payouts.description")}
        actions={
          can(ctx, "payouts.prepare", accountId) && (
            <Button asChild>
              <Link href={accountPath(accountId, "/payouts/new")}>
                <Plus /> {t("payouts.newBatch")}
              </Link>
            </Button>
          )
        }
      >
        <p className="flex items-start gap-1.5 text-sm text-muted-foreground" data-testid="who-approves">
          <ShieldCheck className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>
            {t("payouts.list.whoApproves", { roles: approvers })}{" "}
            {settings.allowSelfApproval ? t("payouts.list.selfApprovalOn") : t("payouts.list.selfApprovalOff")}
          </span>
        </p>
      </PageHeader>

      {can(ctx, "payouts.settings", accountId) && (
        <SelfApprovalSetting
          accountId={accountId}
          allowed={settings.allowSelfApproval}
          updatedBy={settings.updatedByEmail}
          updatedAt={settings.updatedAt ? format.dateTimeZoned(settings.updatedAt) : null}
        />
      )}

      {batches.some((batch) => batch.state === "RUNNING") && <LivePoll everyMs={3_000} />}
      {batches.length === 0 ? (
        <EmptyState icon={<Layers />} title={t("payouts.list.empty")} description={t("payouts.list.emptyHint")} />
      ) : (
        <Card className="py-0">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t("payouts.list.name")}</TableHead>
                <TableHead>{t("payouts.list.state")}</TableHead>
                <TableHead className="hidden text-right sm:table-cell">{t("payouts.list.rows")}</TableHead>
                <TableHead className="hidden text-right sm:table-cell">{t("payouts.list.total")}</TableHead>
                <TableHead className="hidden md:table-cell">{t("payouts.list.progress")}</TableHead>
                <TableHead className="hidden lg:table-cell">{t("payouts.list.createdBy")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {batches.map((batch) => {
                const { progress } = batch;
                const started = batch.state !== "DRAFT" && batch.state !== "AWAITING_APPROVAL" && batch.state !== "REJECTED";
                const rows = batch.state === "DRAFT" ? progress.total : batch.rowCount;
                const done = progress.total - progress.remaining;
                return (
                  <TableRow key={batch.id} data-testid="payout-batch-row" data-batch-id={batch.id} data-state={batch.state}>
                    <TableCell className="max-w-52 sm:max-w-80">
                      <Link href={accountPath(accountId, `/payouts/${batch.id}`)} className="block truncate font-medium hover:underline">
                        {batch.name}
                      </Link>
                      <span className="block truncate text-xs text-muted-foreground">
                        {format.dateTime(batch.createdAt)}
                        {batch.fileName ? ` · ${batch.fileName}` : ""}
                      </span>
                      <span className="block text-xs text-muted-foreground sm:hidden">
                        {t("payouts.list.rowsCount", { count: rows })}
                        {batch.state === "DRAFT" ? "" : ` · ${format.money(fromCents(batch.totalCents))}`}
                      </span>
                    </TableCell>
                    <TableCell>
                      <span className="flex flex-wrap items-center gap-1">
                        <Badge variant={STATE_TONE[batch.state]}>{t(`vocab.batch.${batch.state}`)}</Badge>
                        {batch.selfApproved && (
                          <Badge variant="warning" data-testid="self-approved">
                            {t("payouts.selfApproved")}
                          </Badge>
                        )}
                      </span>
                    </TableCell>
                    <TableCell className="hidden text-right tabular-nums sm:table-cell">{format.number(rows)}</TableCell>
                    <TableCell className="hidden text-right tabular-nums sm:table-cell">
                      {batch.state === "DRAFT" ? (
                        <span className="text-muted-foreground" title={t("payouts.list.totalAtSubmit")}>
                          —
                        </span>
                      ) : (
                        format.money(fromCents(batch.totalCents))
                      )}
                    </TableCell>
                    <TableCell className="hidden md:table-cell">
                      {started ? (
                        <div className="flex w-44 items-center gap-2">
                          <ProgressBar
                            value={done}
                            max={progress.total}
                            label={t("payouts.progress.label", { name: batch.name })}
                            className="h-1.5"
                          />
                          <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
                            {format.number(done)}/{format.number(progress.total)}
                          </span>
                        </div>
                      ) : (
                        <span className="text-muted-foreground">—</span>
                      )}
                    </TableCell>
                    <TableCell className="hidden text-muted-foreground lg:table-cell">{batch.createdByEmail}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Card>
      )}
    </div>
  );
}
