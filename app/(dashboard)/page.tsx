import { redirect } from "next/navigation";
import { Building2 } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { accountPath } from "@/lib/accounts/paths";
import { requirePage } from "@/lib/auth/session";
import { getI18n } from "@/lib/i18n/server";

/** `/` opens the overview of the account the user last worked on (or the first one); without an account, says so. */
export default async function HomePage() {
  const ctx = await requirePage();
  if (ctx.account) redirect(accountPath(ctx.account.id, ""));
  const { t } = await getI18n();
  return (
    <div className="space-y-6">
      <PageHeader title={t("home.greeting", { name: ctx.user.name })} />
      <EmptyState icon={<Building2 />} title={t("home.noAccount")} description={t("home.noAccountHint")} />
    </div>
  );
}
