"use client";

import { useRouter } from "next/navigation";
import { Gauge } from "lucide-react";
import { FormDialog, useFormDialog } from "@/components/forms/form-dialog";
import { TextField } from "@/components/forms/fields";
import { Button } from "@/components/ui/button";
import { maskMoney } from "@/lib/br";
import { useT } from "@/lib/i18n/client";
import type { TransferSettingsValues } from "@/lib/transfers/schemas";
import { saveTransferSettingsAction } from "./actions";

export function TransferSettingsDialog({ accountId, dailyLimit }: { accountId: string; dailyLimit: string }) {
  const t = useT();
  const router = useRouter();
  const { form, dialog } = useFormDialog({
    schema: () => import("@/lib/transfers/schemas").then((m) => m.transferSettingsSchema),
    defaultValues: { dailyLimit } as TransferSettingsValues,
    action: (values) => saveTransferSettingsAction({ ...values, accountId }),
    successMessage: () => t("transfers.settingsSaved"),
    onSuccess: () => router.refresh(),
  });

  return (
    <FormDialog
      {...dialog}
      trigger={
        <Button variant="outline">
          <Gauge /> {t("transfers.settings")}
        </Button>
      }
      title={t("transfers.settingsTitle")}
      description={t("transfers.settingsDescription")}
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
