import { PageHeader } from "@/components/ui/page-header";
import { can } from "@/lib/auth/session";
import { requireAccountPage } from "@/lib/auth/account-page";
import { getI18n } from "@/lib/i18n/server";
import { LookupForm } from "./lookup-form";

export default async function LookupPage({ params }: { params: Promise<{ account: string }> }) {
  const ctx = await requireAccountPage("transactions.view", (await params).account);
  const { t } = await getI18n();
  return (
    <div className="space-y-6">
      <PageHeader title={t("transactions.lookup.title")} description={t("transactions.lookup.description")} />
      <LookupForm accountId={ctx.account.id} canAdd={can(ctx, "ledger.add", ctx.account.id)} />
    </div>
  );
}
