import { Download } from "lucide-react";
import { notFound } from "next/navigation";
import { ParamsProblems } from "@/components/params-problems";
import { ModeBadge } from "@/components/shell/mode-badge";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { accountPath } from "@/lib/accounts/paths";
import { requireAccountPage } from "@/lib/auth/account-page";
import { param, parseSearchParams, routeId, type RawSearchParams } from "@/lib/http/search-params";
import { getI18n } from "@/lib/i18n/server";
import { progressOf } from "@/lib/payout-batches/outcome";
import { findPayoutBatch, listPayoutRows } from "@/lib/payout-batches/queries";
import { STATE_TONE } from "../words";
import { ApprovalView } from "./approval-view";
import { DraftView } from "./draft-view";
import { whoAndWhen } from "./parts";
import { SHOW } from "./row-filters";
import { RunView } from "./run-view";
import { SendableRows } from "./sendable-rows";

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
            {t(`vocab.batch.${batch.state}`)}
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
              {t("payouts.rejected.title", whoAndWhen(batch.rejectedByEmail, batch.rejectedAt, format.dateTime))}
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
