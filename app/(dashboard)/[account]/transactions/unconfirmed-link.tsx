import Link from "next/link";
import { ShieldQuestion } from "lucide-react";
import { getI18n } from "@/lib/i18n/server";
import { countUnconfirmedNotifications } from "@/lib/ledger/unconfirmed";
import { accountPath } from "@/lib/accounts/paths";

/** A line above the ledger when notifications wait outside it (the caller has checked `transactions.view`). */
export async function UnconfirmedLink({ accountId }: { accountId: string }) {
  const { t } = await getI18n();
  const counts = await countUnconfirmedNotifications(accountId);
  if (counts.total === 0) return null;
  return (
    <p
      className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-lg border border-dashed px-4 py-2.5 text-sm"
      data-testid="unconfirmed-link"
    >
      <ShieldQuestion className="size-4 shrink-0 text-muted-foreground" aria-hidden />
      <Link href={accountPath(accountId, "/transactions/unconfirmed")} className="font-medium underline underline-offset-4">
        {t("transactions.unconfirmed.link", { count: counts.total })}
      </Link>
      <span className="text-muted-foreground">— {t("transactions.unconfirmed.linkHint")}</span>
    </p>
  );
}
