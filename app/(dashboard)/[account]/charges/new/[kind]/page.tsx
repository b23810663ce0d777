import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { ArrowLeft } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { ParamsProblems } from "@/components/params-problems";
import { requireAccountPage } from "@/lib/auth/account-page";
import { accountPath } from "@/lib/accounts/paths";
import { AccountBanner } from "@/components/payments/account-banner";
import { isIPv4 } from "@/lib/br/ip";
import { CHARGE_FORM_KINDS, type ChargeFormKind } from "@/lib/charges/form-values";
import { CHARGE_FORMS } from "@/lib/charges/kinds/forms";
import { chargePrefill } from "@/lib/charges/prefill";
import { param, parseSearchParams, routeId, type RawSearchParams } from "@/lib/http/search-params";
import { getI18n } from "@/lib/i18n/server";
import { ChargeForm } from "./charge-form";
import { PrefillNotice } from "./prefill-notice";

/** `?from=<ledger id>`: a new charge made from an old one of this account (the sales recovery list links here). */
const PARAMS = {
  from: param.custom(
    z.string().transform((value, ctx) => routeId(value) ?? (ctx.addIssue({ code: "custom", message: "id" }), z.NEVER)),
    "id",
  ),
};

export default async function NewChargeOfKindPage({
  params,
  searchParams,
}: {
  params: Promise<{ account: string; kind: string }>;
  searchParams: Promise<RawSearchParams>;
}) {
  const { account: accountParam, kind } = await params;
  if (!(CHARGE_FORM_KINDS as readonly string[]).includes(kind)) notFound();
  const ctx = await requireAccountPage("charges.create", accountParam);
  const { t } = await getI18n();
  const formKind = kind as ChargeFormKind;
  const { values: query, problems } = parseSearchParams(await searchParams, PARAMS);
  const prefill = query.from ? await chargePrefill(ctx.account.id, formKind, query.from) : null;
  const copied = prefill?.state === "copied" ? prefill : null;
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
      <ParamsProblems problems={problems} labels={{ from: "params.labels.sourceCharge" }} />
      {prefill && (
        <PrefillNotice
          accountId={ctx.account.id}
          kind={formKind}
          prefill={prefill}
          hasCard={CHARGE_FORMS[formKind].sections.includes("card")}
        />
      )}
      <ChargeForm
        key={`${ctx.account.id}:${formKind}:${copied?.source.id ?? ""}`}
        accountId={ctx.account.id}
        kind={formKind}
        requestIp={ctx.ip && isIPv4(ctx.ip) ? ctx.ip : null}
        prefill={copied ? { values: copied.values, sourceIdentifier: copied.source.identifier, buyerIp: copied.buyerIp } : undefined}
      />
    </div>
  );
}
