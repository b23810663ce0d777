"use client";

import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { RefundRequestForm } from "@/components/refunds/refund-request-form";
import { useT } from "@/lib/i18n/client";

export function NewRefundForm() {
  const t = useT();
  const router = useRouter();
  return (
    <RefundRequestForm
      onRequested={(result) => {
        toast.success(t("refunds.requested", { status: result.status }));
        router.push("/refunds");
      }}
    />
  );
}
