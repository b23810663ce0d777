"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { Undo2 } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { useT } from "@/lib/i18n/client";
import { RefundRequestForm } from "./refund-request-form";

/**
 * "Pedir reembolso" for one transaction (its gateway id), with the ledger row when there is one.
 * The server action checks `refunds.request` on the account named; callers decide whether to show it.
 */
export function RefundRequestDialog({
  accountId,
  transactionId,
  ledgerId,
  secondFactor,
}: {
  accountId: string;
  transactionId: string;
  ledgerId?: string;
  secondFactor: boolean;
}) {
  const t = useT();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <Undo2 /> {t("refunds.requestTitle")}
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{t("refunds.requestTitle")}</DialogTitle>
          <DialogDescription>{t("refunds.requestDescription")}</DialogDescription>
        </DialogHeader>
        <p className="font-mono text-xs break-all text-muted-foreground">{transactionId}</p>
        <RefundRequestForm
          key={open ? "open" : "closed"}
          accountId={accountId}
          transactionId={transactionId}
          ledgerId={ledgerId}
          secondFactor={secondFactor}
          onRequested={(result) => {
            toast.success(t("refunds.requested", { status: result.status }));
            setOpen(false);
            router.refresh();
          }}
          footer={(submit) => <DialogFooter>{submit}</DialogFooter>}
        />
      </DialogContent>
    </Dialog>
  );
}
