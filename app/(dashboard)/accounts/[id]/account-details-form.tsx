"use client";

import { useRouter } from "next/navigation";
import { useWatch } from "react-hook-form";
import { toast } from "@/components/ui/toast";
import type { z } from "zod";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { SelectField, TextField } from "@/components/forms/fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { useT } from "@/lib/i18n/client";
import { accountModeOptions } from "../mode-options";
import type { accountDetailsSchema } from "@/lib/accounts/schemas";
import { updateAccountAction } from "../actions";

type Values = z.input<typeof accountDetailsSchema>;

export function AccountDetailsForm({
  accountId,
  defaultValues,
  readOnly,
}: {
  accountId: string;
  defaultValues: Values;
  readOnly: boolean;
}) {
  const t = useT();
  const router = useRouter();
  const { form, onSubmit, pending, events } = useActionForm({
    schema: () => import("@/lib/accounts/schemas").then((m) => m.accountDetailsSchema),
    defaultValues: { ...defaultValues, secretKey: "" },
    action: (values) => updateAccountAction({ ...values, accountId }),
    onSuccess: (_none, values) => {
      toast.success(t("accounts.saved"));
      form.reset({ ...values, secretKey: "" });
      router.refresh();
    },
  });
  const [baseUrl, mode] = useWatch({ control: form.control, name: ["baseUrl", "mode"] });
  const destinationChanged = baseUrl !== defaultValues.baseUrl || mode !== defaultValues.mode;

  return (
    <Form {...form}>
      <form {...events} onSubmit={onSubmit} className="space-y-4" noValidate>
        <fieldset disabled={readOnly} className="space-y-4">
          <TextField control={form.control} name="name" label={t("accounts.name")} />
          <TextField control={form.control} name="baseUrl" label={t("accounts.baseUrl")} description={t("accounts.baseUrlHint")} />
          <TextField control={form.control} name="publicKey" label={t("accounts.publicKey")} autoComplete="off" />
          <SelectField control={form.control} name="mode" label={t("accounts.mode")} options={accountModeOptions(t)} />
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
          <Button type="submit" loading={pending} disabled={!form.formState.isDirty}>
            {t("common.save")}
          </Button>
        )}
      </form>
    </Form>
  );
}
