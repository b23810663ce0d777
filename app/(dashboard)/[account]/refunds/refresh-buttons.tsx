"use client";

import { useTransition } from "react";
import { useRouter } from "next/navigation";
import { RefreshCw, Search } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";
import { useStatusWords } from "@/components/payments/status-badge";
import { useT } from "@/lib/i18n/client";
import { refreshRefundAction } from "./actions";

/** Re-reads what the console knows (ledger updated by webhooks, last lookups): no gateway call. */
export function RefreshPageButton() {
  const t = useT();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return (
    <Button variant="outline" loading={pending} onClick={() => startTransition(() => router.refresh())}>
      <RefreshCw /> {t("refunds.refresh")}
    </Button>
  );
}

/** One lookup of this refund's transaction at the gateway, on click only. */
export function LookupTransactionButton({ accountId, refundId }: { accountId: string; refundId: string }) {
  const t = useT();
  const statusWords = useStatusWords();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={t("refunds.refreshRow")}
      title={t("refunds.refreshRow")}
      loading={pending}
      onClick={() =>
        startTransition(async () => {
          const result = await refreshRefundAction({ accountId, refundId });
          if (result.ok)
            toast.success(
              t("refunds.refreshed", {
                status: result.data.transactionStatus ? statusWords("transaction", result.data.transactionStatus) : "—",
              }),
            );
          else toast.error(t(result.error), result.message ? { description: result.message } : undefined);
          router.refresh();
        })
      }
    >
      <Search />
    </Button>
  );
}
