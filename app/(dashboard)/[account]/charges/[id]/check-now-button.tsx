"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { SearchCheck } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { Button, type ButtonProps } from "@/components/ui/button";
import { useT } from "@/lib/i18n/client";
import { checkOperationAction } from "../actions";

/** Looks the operation up on the gateway, settles the ledger row and re-renders the page with what was found. */
export function CheckNowButton({
  accountId,
  id,
  label,
  variant = "default",
}: {
  accountId: string;
  id: string;
  label: string;
  variant?: ButtonProps["variant"];
}) {
  const t = useT();
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  async function check() {
    setBusy(true);
    try {
      const result = await checkOperationAction({ accountId, id });
      if (!result.ok) {
        toast.error(t(result.error));
        return;
      }
      const { outcome } = result.data;
      if (outcome === "lookup_failed") toast.error(t("charges.unknown.lookupFailed"));
      else if (outcome === "not_found_inconclusive") toast.warning(t("charges.unknown.inconclusive"));
      else if (outcome === "found") toast.success(t("charges.result.checkedFound"));
      router.refresh();
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button type="button" size="sm" variant={variant} onClick={check} loading={busy} data-testid="check-now">
      <SearchCheck /> {label}
    </Button>
  );
}
