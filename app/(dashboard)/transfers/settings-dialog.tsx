"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useForm, type Resolver } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Gauge } from "lucide-react";
import { toast } from "sonner";
import { applyActionResult } from "@/components/forms/action-result";
import { FormDialog } from "@/components/forms/form-dialog";
import { TextField } from "@/components/forms/fields";
import { Button } from "@/components/ui/button";
import { maskMoney } from "@/lib/br";
import { useT } from "@/lib/i18n/client";
import { transferSettingsSchema, type TransferSettingsValues } from "@/lib/transfers/schemas";
import { saveTransferSettingsAction } from "./actions";

export function TransferSettingsDialog({ accountId, dailyLimit }: { accountId: string; dailyLimit: string }) {
  const t = useT();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const form = useForm<TransferSettingsValues>({
    resolver: zodResolver(transferSettingsSchema) as unknown as Resolver<TransferSettingsValues>,
    defaultValues: { dailyLimit } as TransferSettingsValues,
  });

  async function onSubmit(values: TransferSettingsValues) {
    const result = await saveTransferSettingsAction({ ...values, accountId });
    if (!applyActionResult(form, result, t)) return;
    toast.success(t("transfers.settingsSaved"));
    setOpen(false);
    router.refresh();
  }

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
      onSubmit={onSubmit}
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
