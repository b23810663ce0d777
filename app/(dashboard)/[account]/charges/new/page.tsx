import Link from "next/link";
import { Bitcoin, Building2, CreditCard, Landmark, QrCode, Repeat, Wallet } from "lucide-react";
import type { LucideIcon } from "lucide-react";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { requireAccountPage } from "@/lib/auth/account-page";
import { accountPath } from "@/lib/accounts/paths";
import { AccountBanner } from "@/components/payments/account-banner";
import type { ChargeFormKind } from "@/lib/charges/form-values";
import { getI18n } from "@/lib/i18n/server";

const ONE_OFF: [ChargeFormKind, LucideIcon][] = [
  ["pix", QrCode],
  ["card", CreditCard],
  ["boleto", Landmark],
  ["crypto", Bitcoin],
  ["deposit", Wallet],
];
const RECURRING: [ChargeFormKind, LucideIcon][] = [
  ["pix-subscription", Repeat],
  ["card-subscription", CreditCard],
  ["crypto-subscription", Building2],
];

export default async function NewChargePage({ params }: { params: Promise<{ account: string }> }) {
  const ctx = await requireAccountPage("charges.create", (await params).account);
  const { t } = await getI18n();
  const grid = (items: [ChargeFormKind, LucideIcon][]) => (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {items.map(([kind, Icon]) => (
        <Link
          key={kind}
          href={accountPath(ctx.account.id, `/charges/new/${kind}`)}
          className="group focus-visible:outline-none"
          data-testid={`kind-${kind}`}
        >
          <Card className="group-hover:border-primary/50 group-focus-visible:ring-ring/50 h-full transition-colors group-focus-visible:ring-[3px]">
            <CardHeader>
              <div className="bg-primary/10 text-primary mb-2 flex size-10 items-center justify-center rounded-lg">
                <Icon className="size-5" aria-hidden />
              </div>
              <CardTitle className="text-base">{t(`charges.kinds.${kind}`)}</CardTitle>
              <CardDescription>{t(`charges.kindHints.${kind}`)}</CardDescription>
            </CardHeader>
          </Card>
        </Link>
      ))}
    </div>
  );
  return (
    <div className="space-y-8">
      <div className="space-y-4">
        <PageHeader title={t("charges.title")} description={t("charges.description")} className="pb-0" />
        <AccountBanner account={ctx.account} />
      </div>
      <section className="space-y-3">
        <h2 className="text-muted-foreground text-sm font-medium">{t("charges.oneOff")}</h2>
        {grid(ONE_OFF)}
      </section>
      <section className="space-y-3">
        <h2 className="text-muted-foreground text-sm font-medium">{t("charges.subscriptions")}</h2>
        {grid(RECURRING)}
      </section>
    </div>
  );
}
