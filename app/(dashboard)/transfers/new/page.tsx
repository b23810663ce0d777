import Link from "next/link";
import { randomUUID } from "node:crypto";
import { PageHeader } from "@/components/ui/page-header";
import { requirePage } from "@/lib/auth/session";
import { isIPv4 } from "@/lib/br";
import { getI18n } from "@/lib/i18n/server";
import { TransferForm } from "./transfer-form";

export default async function NewTransferPage() {
  const ctx = await requirePage("transfers.create");
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
      <TransferForm identifier={identifier} clientIp={clientIp} />
    </div>
  );
}
