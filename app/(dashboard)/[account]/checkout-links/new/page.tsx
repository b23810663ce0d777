import { randomUUID } from "node:crypto";
import { PageHeader } from "@/components/ui/page-header";
import { requireAccountPage } from "@/lib/auth/account-page";
import { AccountBanner } from "@/components/payments/account-banner";
import { getI18n } from "@/lib/i18n/server";
import { CheckoutLinkForm } from "./checkout-link-form";
import { accountPath } from "@/lib/accounts/paths";

export default async function NewCheckoutLinkPage({ params }: { params: Promise<{ account: string }> }) {
  const ctx = await requireAccountPage("checkout.create", (await params).account);
  const { t } = await getI18n();
  return (
    <div className="space-y-6">
      <PageHeader
        back={{ href: accountPath(ctx.account.id, "/checkout-links"), label: t("checkoutLinks.back") }}
        title={t("checkoutLinks.newTitle")}
        description={t("checkoutLinks.newDescription")}
      />
      <AccountBanner account={ctx.account} />
      <CheckoutLinkForm accountId={ctx.account.id} externalId={`prod-${randomUUID().slice(0, 8)}`} />
    </div>
  );
}
