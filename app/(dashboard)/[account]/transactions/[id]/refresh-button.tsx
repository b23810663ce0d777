"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { RefreshCw } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";
import { useStatusWords } from "@/components/payments/status-badge";
import { useT } from "@/lib/i18n/client";
import { machineKindForOperation } from "@/lib/status/machine";
import { gatewayErrorMessage } from "../gateway-error-message";
import { refreshTransactionAction } from "../actions";

/** "Atualizar pelo gateway": the server enforces one lookup per 30 s per transaction and says how long to wait. */
export function RefreshButton({ accountId, id, operationKind }: { accountId: string; id: string; operationKind: string }) {
  const t = useT();
  const statusWords = useStatusWords();
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  async function refresh() {
    setPending(true);
    try {
      const result = await refreshTransactionAction({ accountId, id });
      if (!result.ok) {
        toast.error(t(result.error));
        return;
      }
      const outcome = result.data;
      if (outcome.ok) {
        setNotice(null);
        toast.success(
          t("transactions.detail.refreshed", {
            status: outcome.status ? statusWords(machineKindForOperation(operationKind), outcome.status) : "—",
          }),
        );
        router.refresh();
      } else if (outcome.reason === "too_soon") {
        setNotice(t("transactions.detail.refreshWait", { seconds: outcome.waitSeconds }));
      } else if (outcome.reason === "not_found") {
        toast.error(t("transactions.detail.notFound"));
      } else {
        setNotice(gatewayErrorMessage(t, outcome));
        router.refresh();
      }
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="flex flex-col items-end gap-1">
      <Button variant="outline" size="sm" onClick={refresh} loading={pending} title={t("transactions.detail.refreshHint")}>
        <RefreshCw aria-hidden />
        {t("transactions.detail.refresh")}
      </Button>
      {notice && (
        <p role="status" className="text-xs text-muted-foreground" data-testid="refresh-notice">
          {notice}
        </p>
      )}
    </div>
  );
}
