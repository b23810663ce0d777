import type { Metadata } from "next";
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
  return <SecondFactorPanel status={status} />;
}
