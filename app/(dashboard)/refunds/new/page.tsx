import Link from "next/link";
import { Card, CardContent } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { requirePage } from "@/lib/auth/session";
import { getI18n } from "@/lib/i18n/server";
import { NewRefundForm } from "./new-refund-form";

export default async function NewRefundPage() {
  await requirePage("refunds.request");
  const { t } = await getI18n();
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <PageHeader
        eyebrow={
          <Link href="/refunds" className="hover:underline">
            {t("refunds.back")}
          </Link>
        }
        title={t("refunds.newTitle")}
        description={t("refunds.newDescription")}
      />
      <Card>
        <CardContent>
          <NewRefundForm />
        </CardContent>
      </Card>
    </div>
  );
}
