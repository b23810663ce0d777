import { Card, CardContent } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { requireAccountPage } from "@/lib/auth/account-page";
import { hasSecondFactor } from "@/lib/auth/second-factor";
import { AccountBanner } from "@/components/payments/account-banner";
import { getI18n } from "@/lib/i18n/server";
import { NewRefundForm } from "./new-refund-form";
import { accountPath } from "@/lib/accounts/paths";

export default async function NewRefundPage({ params }: { params: Promise<{ account: string }> }) {
  const ctx = await requireAccountPage("refunds.request", (await params).account);
  const { t } = await getI18n();
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <PageHeader
        back={{ href: accountPath(ctx.account.id, "/refunds"), label: t("refunds.back") }}
        title={t("refunds.newTitle")}
        description={t("refunds.newDescription")}
      />
      <AccountBanner account={ctx.account} />
      <Card>
        <CardContent>
          <NewRefundForm accountId={ctx.account.id} secondFactor={await hasSecondFactor(ctx.user.id)} />
        </CardContent>
      </Card>
    </div>
  );
}
