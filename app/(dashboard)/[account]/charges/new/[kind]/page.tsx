import Link from "next/link";
import { notFound } from "next/navigation";
import { ArrowLeft } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { requireAccountPage } from "@/lib/auth/account-page";
import { accountPath } from "@/lib/accounts/paths";
import { AccountBanner } from "@/components/payments/account-banner";
import { isIPv4 } from "@/lib/br/ip";
import { CHARGE_FORM_KINDS, type ChargeFormKind } from "@/lib/charges/form-values";
import { getI18n } from "@/lib/i18n/server";
import { ChargeForm } from "./charge-form";

export default async function NewChargeOfKindPage({ params }: { params: Promise<{ account: string; kind: string }> }) {
  const { account: accountParam, kind } = await params;
  if (!(CHARGE_FORM_KINDS as readonly string[]).includes(kind)) notFound();
  const ctx = await requireAccountPage("charges.create", accountParam);
  const { t } = await getI18n();
  const formKind = kind as ChargeFormKind;
  return (
    <div className="space-y-4">
      <PageHeader
        eyebrow={
          <Link href={accountPath(ctx.account.id, "/charges/new")} className="hover:text-foreground inline-flex items-center gap-1">
            <ArrowLeft className="size-3.5" /> {t("charges.title")}
          </Link>
        }
        title={t(`charges.kinds.${formKind}`)}
        description={t(`charges.kindHints.${formKind}`)}
        className="pb-0"
      />
      <AccountBanner account={ctx.account} />
      <ChargeForm
        key={`${ctx.account.id}:${formKind}`}
        accountId={ctx.account.id}
        kind={formKind}
        requestIp={ctx.ip && isIPv4(ctx.ip) ? ctx.ip : null}
      />
    </div>
  );
}
