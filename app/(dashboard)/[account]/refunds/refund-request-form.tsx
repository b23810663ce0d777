"use client";

import { useState } from "react";
import { useWatch } from "react-hook-form";
import { SelectField, TextField } from "@/components/forms/fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Textarea } from "@/components/ui/textarea";
import { useT } from "@/lib/i18n/client";
import { REFUND_REASON_CODES } from "@/lib/refunds/reasons";
import { requestRefundAction } from "./actions";

export type RefundRequested = { refundId: string; status: string };

/** The refund request form, shared by the transaction page's dialog and /refunds/new. */
export function RefundRequestForm({
  accountId,
  transactionId,
  ledgerId,
  onRequested,
  footer,
  secondFactor = false,
}: {
  /** The account the refund is asked on: the one the page shows. */
  accountId: string;
  /** Fixed transaction; when absent the user types the gateway's transaction id. */
  transactionId?: string;
  ledgerId?: string;
  onRequested: (result: RefundRequested) => void;
  footer?: (submit: React.ReactNode) => React.ReactNode;
  /** The user confirms with a code from the authenticator app (money leaves the account). */
  secondFactor?: boolean;
}) {
  const t = useT();
  const [refusal, setRefusal] = useState<{ title: string; detail?: string } | null>(null);
  const { form, onSubmit, pending, events } = useActionForm({
    schema: () => import("@/lib/refunds/schemas").then((m) => m.refundRequestFormSchema),
    defaultValues: {
      transactionId: transactionId ?? "",
      ledgerId,
      reasonCode: "customer_request",
      reasonText: "",
      description: "",
      code: "",
    },
    action: (values) => {
      setRefusal(null);
      return requestRefundAction({ ...values, accountId });
    },
    onSuccess: onRequested,
    onFailure: (failure) => {
      if (failure.error === "errors.validation") return;
      setRefusal({ title: t(failure.error), detail: failure.message && t("vocab.reasonFromGateway", { reason: failure.message }) });
      return "shown";
    },
  });
  const reasonCode = useWatch({ control: form.control, name: "reasonCode" });

  const submit = (
    <Button type="submit" loading={pending}>
      {t("refunds.send")}
    </Button>
  );

  return (
    <Form {...form}>
      <form {...events} onSubmit={onSubmit} className="space-y-4" noValidate>
        {refusal && (
          <Alert variant="destructive" data-testid="refund-error">
            <AlertTitle className="line-clamp-none">{refusal.title}</AlertTitle>
            {refusal.detail && <AlertDescription>{refusal.detail}</AlertDescription>}
          </Alert>
        )}
        {transactionId === undefined && (
          <TextField control={form.control} name="transactionId" label={t("refunds.transactionId")} autoComplete="off" />
        )}
        <SelectField
          control={form.control}
          name="reasonCode"
          label={t("refunds.reason")}
          options={REFUND_REASON_CODES.map((code) => ({ value: code, label: t(`refunds.reasons.${code}`) }))}
        />
        {reasonCode === "other" && <TextField control={form.control} name="reasonText" label={t("refunds.reasonOther")} />}
        <FormField
          control={form.control}
          name="description"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t("refunds.descriptionField")}</FormLabel>
              <FormControl>
                <Textarea rows={3} {...field} value={field.value ?? ""} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        {secondFactor && (
          <TextField
            control={form.control}
            name="code"
            label={t("profile.codeLabel")}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={32}
          />
        )}
        {footer ? footer(submit) : <div className="flex justify-end">{submit}</div>}
      </form>
    </Form>
  );
}
