import Link from "next/link";
import { randomUUID } from "node:crypto";
import { PageHeader } from "@/components/ui/page-header";
import { requirePage } from "@/lib/auth/session";
import { getI18n } from "@/lib/i18n/server";
import { CheckoutLinkForm } from "./checkout-link-form";

export default async function NewCheckoutLinkPage() {
  await requirePage("checkout.create");
  const { t } = await getI18n();
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow={
          <Link href="/checkout-links" className="hover:underline">
            {t("checkoutLinks.back")}
          </Link>
        }
        title={t("checkoutLinks.newTitle")}
        description={t("checkoutLinks.newDescription")}
      />
      <CheckoutLinkForm externalId={`prod-${randomUUID().slice(0, 8)}`} />
    </div>
  );
}
