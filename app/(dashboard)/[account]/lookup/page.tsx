import { PageHeader } from "@/components/ui/page-header";
import { can, requirePage } from "@/lib/auth/session";
import { getI18n } from "@/lib/i18n/server";
import { notFound } from "next/navigation";
import { LookupForm } from "./lookup-form";

export default async function LookupPage() {
  const ctx = await requirePage("transactions.view");
  if (!ctx.account) notFound();
  const { t } = await getI18n();
  return (
    <div className="space-y-6">
      <PageHeader title={t("transactions.lookup.title")} description={t("transactions.lookup.description")} />
      <LookupForm accountId={ctx.account.id} canAdd={can(ctx, "ledger.add")} />
    </div>
  );
}
