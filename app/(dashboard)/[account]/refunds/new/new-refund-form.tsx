"use client";

import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { RefundRequestForm } from "@/app/(dashboard)/refunds/refund-request-form";
import { useT } from "@/lib/i18n/client";

export function NewRefundForm({ accountId }: { accountId: string }) {
  const t = useT();
  const router = useRouter();
  return (
    <RefundRequestForm
      accountId={accountId}
      onRequested={(result) => {
        toast.success(t("refunds.requested", { status: result.status }));
        router.push("/refunds");
      }}
    />
  );
}
