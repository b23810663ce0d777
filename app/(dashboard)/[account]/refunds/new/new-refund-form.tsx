"use client";

import { useRouter } from "next/navigation";
import { toast } from "@/components/ui/toast";
import { RefundRequestForm } from "../refund-request-form";
import { useStatusWords } from "@/components/payments/status-badge";
import { useT } from "@/lib/i18n/client";
import { accountPath } from "@/lib/accounts/paths";

export function NewRefundForm({ accountId, secondFactor }: { accountId: string; secondFactor: boolean }) {
  const t = useT();
  const router = useRouter();
  const statusWords = useStatusWords();
  return (
    <RefundRequestForm
      accountId={accountId}
      secondFactor={secondFactor}
      onRequested={(result) => {
        toast.success(t("refunds.requested", { status: statusWords("refund", result.status) }));
        router.push(accountPath(accountId, "/refunds"));
      }}
    />
  );
}
