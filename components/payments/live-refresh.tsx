"use client";

import { useRouter } from "next/navigation";
import { Radio } from "lucide-react";
import { useLiveEvents } from "@/lib/feed/client";
import { useT } from "@/lib/i18n/client";

/**
 * Re-renders the page (server data) whenever a notification about this ledger row arrives, or
 * about one of `gatewayTransactionIds` (a subscription's charges, reported as transactions of their own).
 */
export function LiveRefresh({
  accountId,
  ledgerId,
  gatewayTransactionIds = [],
  since,
}: {
  accountId: string;
  ledgerId: string;
  gatewayTransactionIds?: string[];
  since?: number;
}) {
  const t = useT();
  const router = useRouter();
  const filters = [{ accountId, ledgerId }, ...gatewayTransactionIds.map((gatewayTransactionId) => ({ accountId, gatewayTransactionId }))];
  const mode = useLiveEvents(filters, () => router.refresh(), since);
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-muted-foreground" data-mode={mode} data-testid="live-indicator">
      <Radio className={mode === "live" ? "size-3.5 text-success" : "size-3.5"} aria-hidden />
      {t("transactions.detail.live")}
    </span>
  );
}
