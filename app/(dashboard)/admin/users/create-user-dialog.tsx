"use client";

import { useRouter } from "next/navigation";
import { useWatch } from "react-hook-form";
import { UserPlus } from "lucide-react";
import { Button } from "@/components/ui/button";
import { FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { FormDialog, useFormDialog } from "@/components/forms/form-dialog";
import { SelectField, TextField } from "@/components/forms/fields";
import { useT } from "@/lib/i18n/client";
import { generatePassword } from "@/lib/auth/password-rules";
import { ROLES } from "@/lib/db/schema-enums";
import { createUserAction } from "./actions";
import { AccountChecklist } from "./account-checklist";

export function CreateUserDialog({ accounts }: { accounts: { id: string; name: string }[] }) {
  const t = useT();
  const router = useRouter();
  const { form, dialog } = useFormDialog({
    schema: () => import("@/lib/auth/schemas").then((m) => m.createUserSchema),
    defaultValues: { email: "", name: "", role: "operator", password: "", accountIds: [] },
    action: createUserAction,
    successMessage: () => t("users.created"),
    onSuccess: () => router.refresh(),
  });
  const role = useWatch({ control: form.control, name: "role" });

  return (
    <FormDialog
      {...dialog}
      trigger={
        <Button>
          <UserPlus /> {t("users.newUser")}
        </Button>
      }
      title={t("users.createTitle")}
      description={t("users.createDescription")}
    >
      <TextField control={form.control} name="name" label={t("users.name")} autoComplete="off" />
      <TextField control={form.control} name="email" type="email" label={t("users.email")} autoComplete="off" />
      <SelectField
        control={form.control}
        name="role"
        label={t("users.role")}
        description={t(`users.roleDescriptions.${role}`)}
        options={ROLES.map((value) => ({ value, label: t(`users.roles.${value}`) }))}
      />
      <div className="flex items-start gap-2">
        <TextField
          className="min-w-0 flex-1"
          control={form.control}
          name="password"
          label={t("users.initialPassword")}
          description={t("users.initialPasswordHint")}
          autoComplete="new-password"
        />
        <Button
          type="button"
          variant="outline"
          className="mt-[22px]"
          onClick={() => form.setValue("password", generatePassword(), { shouldValidate: true })}
        >
          {t("users.generate")}
        </Button>
      </div>
      <FormField
        control={form.control}
        name="accountIds"
        render={({ field }) => (
          <FormItem>
            <FormLabel>{t("users.accounts")}</FormLabel>
            <AccountChecklist accounts={accounts} value={field.value ?? []} onChange={field.onChange} />
            <FormMessage />
          </FormItem>
        )}
      />
    </FormDialog>
  );
}
