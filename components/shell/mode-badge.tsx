"use client";

import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";
import { useT } from "@/lib/i18n/client";

export type AccountMode = "test" | "live";

/** TEST is amber on purpose: it has to be noticed before anyone thinks money moved. */
export function ModeBadge({ mode, className }: { mode: AccountMode; className?: string }) {
  const t = useT();
  return (
    <Badge
      variant={mode === "live" ? "success" : "warning"}
      className={cn("px-1 py-0 text-[10px] leading-4 font-semibold tracking-wide", className)}
      title={mode === "live" ? t("shell.mode.liveLong") : t("shell.mode.testLong")}
      data-mode={mode}
    >
      {mode === "live" ? t("shell.mode.live") : t("shell.mode.test")}
    </Badge>
  );
}
