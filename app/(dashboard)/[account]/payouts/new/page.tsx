import { Download } from "lucide-react";
import { AccountBanner } from "@/components/payments/account-banner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { accountPath } from "@/lib/accounts/paths";
import { requireAccountPage } from "@/lib/auth/account-page";
import { saoPauloDate } from "@/lib/i18n/format";
import { getI18n } from "@/lib/i18n/server";
import { PAYOUT_COLUMNS } from "@/lib/payout-batches/columns";
import { MAX_BYTES, MAX_ROWS } from "@/lib/payout-batches/parse";
import { UploadForm } from "../upload-form";

export default async function NewPayoutBatchPage({ params }: { params: Promise<{ account: string }> }) {
  const ctx = await requireAccountPage("payouts.prepare", (await params).account);
  const { t, format } = await getI18n();
  const accountId = ctx.account.id;
  const [year, month, day] = saoPauloDate().split("-");

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader
        back={{ href: accountPath(accountId, "/payouts"), label: t("payouts.back") }}
        title={t("payouts.new.title")}
        description={t("payouts.new.description")}
      />
      <AccountBanner account={ctx.account} />
      <UploadForm
        accountId={accountId}
        maxBytes={MAX_BYTES}
        defaultName={t("payouts.new.defaultName", { date: `${day}/${month}/${year}` })}
        pastePlaceholder={PAYOUT_COLUMNS.map((column) => column.header).join(";")}
      />
      <Card>
        <CardHeader>
          <CardTitle>{t("payouts.template.title")}</CardTitle>
          <CardDescription>
            {t("payouts.template.description", { rows: format.number(MAX_ROWS), mb: format.number(MAX_BYTES / (1024 * 1024)) })}
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" asChild>
              <a href={accountPath(accountId, "/payouts/template/csv")} download data-testid="template-csv">
                <Download /> {t("payouts.template.csv")}
              </a>
            </Button>
            <Button variant="outline" asChild>
              <a href={accountPath(accountId, "/payouts/template/xlsx")} download data-testid="template-xlsx">
                <Download /> {t("payouts.template.xlsx")}
              </a>
            </Button>
          </div>
          <dl className="divide-y rounded-lg border text-sm">
            {PAYOUT_COLUMNS.map((column) => (
              <div key={column.field} className="grid gap-1 px-3 py-2 sm:grid-cols-[10rem_1fr] sm:gap-4">
                <dt className="font-mono text-xs leading-5 font-medium" data-raw={column.header}>
                  {column.header}
                </dt>
                <dd className="text-muted-foreground">{t(`payouts.columns.${column.header}`)}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
    </div>
  );
}
