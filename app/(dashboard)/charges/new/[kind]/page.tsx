import Link from "next/link";
import { notFound } from "next/navigation";
import { ArrowLeft } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { requirePage } from "@/lib/auth/session";
import { isIPv4 } from "@/lib/br/ip";
import { CHARGE_FORM_KINDS, type ChargeFormKind } from "@/lib/charges/schemas";
import { webhookUrlFor } from "@/lib/gateway/connection";
import { getI18n } from "@/lib/i18n/server";
import { ChargeForm } from "./charge-form";

export default async function NewChargeOfKindPage({ params }: { params: Promise<{ kind: string }> }) {
  const { kind } = await params;
  if (!(CHARGE_FORM_KINDS as readonly string[]).includes(kind)) notFound();
  const ctx = await requirePage("charges.create");
  const { t } = await getI18n();
  const formKind = kind as ChargeFormKind;
  return (
    <div>
      <PageHeader
        eyebrow={
          <Link href="/charges/new" className="hover:text-foreground inline-flex items-center gap-1">
            <ArrowLeft className="size-3.5" /> {t("charges.title")}
          </Link>
        }
        title={t(`charges.kinds.${formKind}`)}
        description={t(`charges.kindHints.${formKind}`)}
      />
      <ChargeForm
        key={`${ctx.account!.id}:${formKind}`}
        kind={formKind}
        defaultCallbackUrl={webhookUrlFor(ctx.account!.id)}
        requestIp={ctx.ip && isIPv4(ctx.ip) ? ctx.ip : null}
      />
    </div>
  );
}
