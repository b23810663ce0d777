import Link from "next/link";
import { randomUUID } from "node:crypto";
import { PageHeader } from "@/components/ui/page-header";
import { requireAccountPage } from "@/lib/auth/account-page";
import { AccountBanner } from "@/components/payments/account-banner";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { hasSecondFactor, rolesRequiringSecondFactor } from "@/lib/auth/second-factor";
import { getI18n } from "@/lib/i18n/server";
import { ownerIpOf } from "@/lib/transfers/owner-ip";
import { availableEstimate } from "@/lib/balance/queries";
import { can } from "@/lib/auth/session";
import { TransferForm } from "./transfer-form";
import { accountPath } from "@/lib/accounts/paths";

export default async function NewTransferPage({ params }: { params: Promise<{ account: string }> }) {
  const ctx = await requireAccountPage("transfers.create", (await params).account);
  const { t } = await getI18n();
  // One identifier per form instance: a double click or a retry re-sends the same one.
  const identifier = `tr-${randomUUID()}`;
  const clientIp = ownerIpOf(ctx.ip);
  const secondFactor = await hasSecondFactor(ctx.user.id);
  const secondFactorMissing = !secondFactor && (await rolesRequiringSecondFactor()).includes(ctx.user.role);
  const balance = can(ctx, "balance.view", ctx.account.id) ? await availableEstimate(ctx.account.id) : null;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader
        back={{ href: accountPath(ctx.account.id, "/transfers"), label: t("transfers.back") }}
        title={t("transfers.newTitle")}
        description={t("transfers.newDescription")}
      />
      <AccountBanner account={ctx.account} />
      {secondFactorMissing && (
        <Alert variant="warning" data-testid="second-factor-required">
          <AlertDescription>
            {t("transfers.secondFactorNeeded")}{" "}
            <Link href="/profile/security" className="font-medium underline">
              {t("profile.security")}
            </Link>
          </AlertDescription>
        </Alert>
      )}
      <TransferForm
        account={{ id: ctx.account.id, name: ctx.account.name, mode: ctx.account.mode }}
        identifier={identifier}
        clientIp={clientIp}
        secondFactor={secondFactor}
        balance={balance}
      />
    </div>
  );
}
