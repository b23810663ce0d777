import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { requirePage } from "@/lib/auth/session";
import { secondFactorStatus } from "@/lib/auth/second-factor";
import { getI18n } from "@/lib/i18n/server";
import { SecondFactorPanel } from "./second-factor-panel";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t("profile.security") };
}

export default async function SecurityPage() {
  const ctx = await requirePage("profile.manage");
  const status = await secondFactorStatus(ctx.user.id);
  const { t } = await getI18n();
  return (
    <div className="max-w-2xl space-y-6">
      <PageHeader
        back={{ href: "/profile", label: t("profile.title") }}
        title={t("profile.security")}
        description={t("profile.securityDescription")}
      />
      <SecondFactorPanel status={status} />
    </div>
  );
}
