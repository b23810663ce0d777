"use client";

import type { PopupProps } from "@/components/ui/deferred";
import { DialogFooter, DialogPopup } from "@/components/ui/dialog";
import { useT } from "@/lib/i18n/client";
import { RefundRequestForm } from "./refund-request-form";

/** RefundRequestDialog's dialog and form, loaded when first wanted. */
export function RefundRequestPopup({
  trigger,
  open,
  onOpenChange,
  accountId,
  transactionId,
  ledgerId,
  subject,
  secondFactor,
  onRequested,
}: PopupProps & {
  accountId: string;
  transactionId: string;
  ledgerId?: string;
  subject?: string;
  secondFactor: boolean;
  onRequested: (status: string) => void;
}) {
  const t = useT();
  return (
    <DialogPopup
      trigger={trigger}
      open={open}
      onOpenChange={onOpenChange}
      title={t("refunds.requestTitle")}
      description={t("refunds.requestDescription")}
      className="sm:max-w-lg"
    >
      {subject && (
        <p className="font-medium" data-testid="refund-subject">
          {subject}
        </p>
      )}
      <p className="font-mono text-xs break-all text-muted-foreground">{transactionId}</p>
      <RefundRequestForm
        key={open ? "open" : "closed"}
        accountId={accountId}
        transactionId={transactionId}
        ledgerId={ledgerId}
        secondFactor={secondFactor}
        onRequested={(result) => onRequested(result.status)}
        footer={(submit) => <DialogFooter>{submit}</DialogFooter>}
      />
    </DialogPopup>
  );
}
