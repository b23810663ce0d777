"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useForm, type Resolver } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Gauge } from "lucide-react";
import { toast } from "sonner";
import { applyActionResult } from "@/components/forms/action-result";
import { TextField } from "@/components/forms/fields";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Form } from "@/components/ui/form";
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
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <Gauge /> {t("transfers.settings")}
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>{t("transfers.settingsTitle")}</DialogTitle>
          <DialogDescription>{t("transfers.settingsDescription")}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form onSubmit={form.handleSubmit(onSubmit)} className="space-y-4" noValidate>
            <TextField
              control={form.control}
              name="dailyLimit"
              label={t("transfers.dailyLimit")}
              inputMode="numeric"
              placeholder={t("transfers.noLimit")}
              transform={maskMoney}
            />
            <DialogFooter>
              <Button type="submit" loading={form.formState.isSubmitting}>
                {t("common.save")}
              </Button>
            </DialogFooter>
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
