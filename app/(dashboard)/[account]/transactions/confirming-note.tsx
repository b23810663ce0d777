import { Hourglass } from "lucide-react";
import { getI18n } from "@/lib/i18n/server";
import { countAwaitingConfirmation } from "@/lib/ledger/unconfirmed";

/**
 * "confirmando N pagamentos": paid notifications waiting for the gateway's lookup (queued behind
 * the lookup ceiling or a 429). Nothing when none waits. The caller has checked `transactions.view`.
 */
export async function ConfirmingNote({ accountId }: { accountId: string }) {
  const { t } = await getI18n();
  const count = await countAwaitingConfirmation(accountId);
  if (count === 0) return null;
  return (
    <p
      className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-lg border border-dashed px-4 py-2.5 text-sm"
      role="status"
      data-testid="confirming-note"
      data-count={count}
    >
      <Hourglass className="size-4 shrink-0 text-muted-foreground" aria-hidden />
      <span className="font-medium">{t("transactions.confirming.count", { count })}</span>
      <span className="text-muted-foreground">— {t("transactions.confirming.hint")}</span>
    </p>
  );
}
