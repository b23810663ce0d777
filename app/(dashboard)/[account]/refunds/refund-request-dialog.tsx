"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { Undo2 } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";
import { Deferred } from "@/components/ui/deferred";
import { useStatusWords } from "@/components/payments/status-badge";
import { useT } from "@/lib/i18n/client";

// The dialog and its form (radix dialog, react-hook-form) load when the button is first hovered, focused or clicked.
const loadRefundDialog = () => import("./refund-request-popup").then((m) => m.RefundRequestPopup);

/**
 * "Pedir reembolso" for one transaction (its gateway id), with the ledger row when there is one.
 * The server action checks `refunds.request` on the account named; callers decide whether to show it.
 */
export function RefundRequestDialog({
  accountId,
  transactionId,
  ledgerId,
  subject,
  secondFactor,
}: {
  accountId: string;
  transactionId: string;
  ledgerId?: string;
  /** Whom the money goes back to and how much, in words ("R$ 10,00 de volta para Ana"). */
  subject?: string;
  secondFactor: boolean;
}) {
  const t = useT();
  const router = useRouter();
  const statusWords = useStatusWords();
  const [open, setOpen] = useState(false);
  return (
    <Deferred
      kind="dialog"
      load={loadRefundDialog}
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="outline">
          <Undo2 /> {t("refunds.requestTitle")}
        </Button>
      }
      props={{
        accountId,
        transactionId,
        ledgerId,
        subject,
        secondFactor,
        onRequested: (status: string) => {
          toast.success(t("refunds.requested", { status: statusWords("refund", status) }));
          setOpen(false);
          router.refresh();
        },
      }}
    />
  );
}
