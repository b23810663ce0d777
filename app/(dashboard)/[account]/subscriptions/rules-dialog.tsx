"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { Settings2 } from "lucide-react";
import { FormDialog } from "@/components/forms/form-dialog";
import { TextField } from "@/components/forms/fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { useT } from "@/lib/i18n/client";
import type { StateRulesValues } from "@/lib/subscriptions/rules-schema";
import { saveSubscriptionRulesAction } from "./actions";

/** The account's grace days and missed periods before lost, for those who may change them. */
export function SubscriptionRulesDialog({ accountId, values }: { accountId: string; values: StateRulesValues }) {
  const t = useT();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const { form, submit, prepare } = useActionForm<StateRulesValues, void>({
    schema: () => import("@/lib/subscriptions/rules-schema").then((m) => m.stateRulesFormSchema),
    defaultValues: values,
    action: (typed) => saveSubscriptionRulesAction({ ...typed, accountId }),
    onSuccess: () => {
      setOpen(false);
      toast.success(t("subscriptions.rules.saved"));
      router.refresh();
    },
  });
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        if (next) {
          prepare().catch(() => {});
          form.reset(values);
        }
        setOpen(next);
      }}
      trigger={
        <Button variant="outline" data-testid="subscription-rules">
          <Settings2 /> {t("subscriptions.rules.open")}
        </Button>
      }
      title={t("subscriptions.rules.title")}
      description={t("subscriptions.rules.description")}
      form={form}
      onSubmit={submit}
    >
      <TextField
        control={form.control}
        name="graceDays"
        label={t("subscriptions.rules.graceDays")}
        description={t("subscriptions.rules.graceDaysHint")}
        inputMode="numeric"
        autoComplete="off"
      />
      <TextField
        control={form.control}
        name="lostAfterPeriods"
        label={t("subscriptions.rules.lostAfterPeriods")}
        inputMode="numeric"
        autoComplete="off"
      />
    </FormDialog>
  );
}
