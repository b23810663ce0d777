"use client";

import { useRouter } from "next/navigation";
import { Radio } from "lucide-react";
import { useLiveEvents } from "@/lib/feed/client";
import { useT } from "@/lib/i18n/client";

/** Re-renders the page (server data) whenever a notification about this ledger row arrives. */
export function LiveRefresh({ accountId, ledgerId, since }: { accountId: string; ledgerId: string; since?: number }) {
  const t = useT();
  const router = useRouter();
  const mode = useLiveEvents({ accountId, ledgerId }, () => router.refresh(), since);
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-muted-foreground" data-mode={mode} data-testid="live-indicator">
      <Radio className={mode === "live" ? "size-3.5 text-success" : "size-3.5"} aria-hidden />
      {t("transactions.detail.live")}
    </span>
  );
}
