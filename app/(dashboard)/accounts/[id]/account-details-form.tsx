"use client";

import { useRouter } from "next/navigation";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "sonner";
import type { z } from "zod";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { applyActionResult } from "@/components/forms/action-result";
import { SelectField, TextField } from "@/components/forms/fields";
import { useT } from "@/lib/i18n/client";
import { accountDetailsSchema } from "@/lib/accounts/schemas";
import { updateAccountAction } from "../actions";

type Values = z.input<typeof accountDetailsSchema>;

export function AccountDetailsForm({ accountId, defaultValues, readOnly }: { accountId: string; defaultValues: Values; readOnly: boolean }) {
  const t = useT();
  const router = useRouter();
  const form = useForm<Values>({ resolver: zodResolver(accountDetailsSchema), defaultValues: { ...defaultValues, secretKey: "" } });
  const [baseUrl, mode] = useWatch({ control: form.control, name: ["baseUrl", "mode"] });
  const destinationChanged = baseUrl !== defaultValues.baseUrl || mode !== defaultValues.mode;

  async function onSubmit(values: Values) {
    const result = await updateAccountAction({ ...values, accountId });
    if (!applyActionResult(form, result, t)) return;
    toast.success(t("accounts.saved"));
    form.reset({ ...values, secretKey: "" });
    router.refresh();
  }

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} className="space-y-4" noValidate>
        <fieldset disabled={readOnly} className="space-y-4">
          <TextField control={form.control} name="name" label={t("accounts.name")} />
          <TextField control={form.control} name="baseUrl" label={t("accounts.baseUrl")} description={t("accounts.baseUrlHint")} />
          <TextField control={form.control} name="publicKey" label={t("accounts.publicKey")} autoComplete="off" />
          <SelectField
            control={form.control}
            name="mode"
            label={t("accounts.mode")}
            options={[
              { value: "test", label: t("accounts.modeTest") },
              { value: "live", label: t("accounts.modeLive") },
            ]}
          />
          {destinationChanged && (
            <TextField
              control={form.control}
              name="secretKey"
              type="password"
              autoComplete="off"
              label={t("accounts.secretKey")}
              description={t("errors.secretRequiredForChange")}
            />
          )}
        </fieldset>
        {!readOnly && (
          <Button type="submit" loading={form.formState.isSubmitting} disabled={!form.formState.isDirty}>
            {t("common.save")}
          </Button>
        )}
      </form>
    </Form>
  );
}
