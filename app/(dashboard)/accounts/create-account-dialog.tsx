"use client";

import { useRouter } from "next/navigation";
import { Plus } from "lucide-react";
import { Button } from "@/components/ui/button";
import { FormDialog, useFormDialog } from "@/components/forms/form-dialog";
import { TextField, SelectField } from "@/components/forms/fields";
import { GATEWAY_PRESETS } from "@/lib/accounts/presets";
import { useT } from "@/lib/i18n/client";
import { accountModeOptions } from "./mode-options";
import { createAccountAction } from "./actions";

export function CreateAccountDialog() {
  const t = useT();
  const router = useRouter();
  const { form, dialog } = useFormDialog({
    schema: () => import("@/lib/accounts/schemas").then((m) => m.createAccountSchema),
    defaultValues: { name: "", baseUrl: "", publicKey: "", secretKey: "", webhookToken: "", mode: "test" },
    action: createAccountAction,
    successMessage: () => t("accounts.created"),
    onSuccess: ({ id }) => router.push(`/accounts/${id}`),
  });

  return (
    <FormDialog
      {...dialog}
      trigger={
        <Button>
          <Plus /> {t("accounts.newAccount")}
        </Button>
      }
      title={t("accounts.createTitle")}
      description={t("accounts.createDescription")}
    >
      <TextField control={form.control} name="name" label={t("accounts.name")} />
      <TextField
        control={form.control}
        name="baseUrl"
        label={t("accounts.baseUrl")}
        description={t("accounts.baseUrlHint")}
        placeholder="https://"
      />
      <div className="-mt-2 flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground" data-testid="gateway-presets">
        {t("accounts.presets")}
        {GATEWAY_PRESETS.map((preset) => (
          <Button
            key={preset.baseUrl}
            type="button"
            variant="outline"
            size="sm"
            className="h-6 px-2 text-xs"
            title={preset.baseUrl}
            onClick={() => {
              form.setValue("baseUrl", preset.baseUrl, { shouldValidate: true });
              if (!form.getValues("name")) form.setValue("name", preset.name);
            }}
          >
            {preset.name}
          </Button>
        ))}
      </div>
      <TextField control={form.control} name="publicKey" label={t("accounts.publicKey")} autoComplete="off" />
      <TextField
        control={form.control}
        name="secretKey"
        type="password"
        label={t("accounts.secretKey")}
        description={t("accounts.secretKeyHint")}
        autoComplete="new-password"
      />
      <TextField
        control={form.control}
        name="webhookToken"
        type="password"
        label={t("accounts.webhookToken")}
        description={t("accounts.webhookTokenHint")}
        autoComplete="new-password"
      />
      <SelectField control={form.control} name="mode" label={t("accounts.mode")} options={accountModeOptions(t)} />
    </FormDialog>
  );
}
