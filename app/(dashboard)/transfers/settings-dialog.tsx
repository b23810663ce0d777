"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { Gauge } from "lucide-react";
import { toast } from "sonner";
import { FormDialog } from "@/components/forms/form-dialog";
import { TextField } from "@/components/forms/fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { maskMoney } from "@/lib/br";
import { useT } from "@/lib/i18n/client";
import { transferSettingsSchema, type TransferSettingsValues } from "@/lib/transfers/schemas";
import { saveTransferSettingsAction } from "./actions";

export function TransferSettingsDialog({ accountId, dailyLimit }: { accountId: string; dailyLimit: string }) {
  const t = useT();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const { form, submit } = useActionForm({
    schema: transferSettingsSchema,
    defaultValues: { dailyLimit } as TransferSettingsValues,
    action: (values) => saveTransferSettingsAction({ ...values, accountId }),
    onSuccess: () => {
      toast.success(t("transfers.settingsSaved"));
      setOpen(false);
      router.refresh();
    },
  });

  return (
    <FormDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="outline">
          <Gauge /> {t("transfers.settings")}
        </Button>
      }
      title={t("transfers.settingsTitle")}
      description={t("transfers.settingsDescription")}
      form={form}
      onSubmit={submit}
      submitLabel={t("common.save")}
      className="sm:max-w-md"
    >
      <TextField
        control={form.control}
        name="dailyLimit"
        label={t("transfers.dailyLimit")}
        inputMode="numeric"
        placeholder={t("transfers.noLimit")}
        transform={maskMoney}
      />
    </FormDialog>
  );
}
