import Link from "next/link";
import { randomUUID } from "node:crypto";
import { PageHeader } from "@/components/ui/page-header";
import { requireAccountPage } from "@/lib/auth/account-page";
import { AccountBanner } from "@/components/payments/account-banner";
import { isIPv4 } from "@/lib/br";
import { getI18n } from "@/lib/i18n/server";
import { TransferForm } from "./transfer-form";

export default async function NewTransferPage({ params }: { params: Promise<{ account: string }> }) {
  const ctx = await requireAccountPage("transfers.create", (await params).account);
  const { t } = await getI18n();
  // One identifier per form instance: a double click or a retry re-sends the same one.
  const identifier = `tr-${randomUUID()}`;
  const clientIp = ctx.ip && isIPv4(ctx.ip) ? ctx.ip : null;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader
        eyebrow={
          <Link href="/transfers" className="hover:underline">
            {t("transfers.back")}
          </Link>
        }
        title={t("transfers.newTitle")}
        description={t("transfers.newDescription")}
      />
      <AccountBanner account={ctx.account} />
      <TransferForm account={{ id: ctx.account.id, name: ctx.account.name, mode: ctx.account.mode }} identifier={identifier} clientIp={clientIp} />
    </div>
  );
}
