import { AccountBanner } from "@/components/payments/account-banner";
import { PageHeader } from "@/components/ui/page-header";
import { accountPath } from "@/lib/accounts/paths";
import { requireAccountPage } from "@/lib/auth/account-page";
import { getI18n } from "@/lib/i18n/server";
import { NewDestinationForm } from "./new-destination-form";

export default async function NewDestinationPage({ params }: { params: Promise<{ account: string }> }) {
  const ctx = await requireAccountPage("destinations.manage", (await params).account);
  const { t } = await getI18n();
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader
        back={{ href: accountPath(ctx.account.id, "/destinations"), label: t("destinations.back") }}
        title={t("destinations.newTitle")}
        description={t("destinations.newDescription")}
      />
      <AccountBanner account={ctx.account} />
      <NewDestinationForm accountId={ctx.account.id} mode={ctx.account.mode} />
    </div>
  );
}
