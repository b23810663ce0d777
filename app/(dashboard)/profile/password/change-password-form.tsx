"use client";

import { signOutTo } from "@/lib/auth/browser";
import { toast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { useActionForm } from "@/components/forms/use-action-form";
import { TextField } from "@/components/forms/fields";
import { useT } from "@/lib/i18n/client";
import { changePasswordAction } from "../actions";

export function ChangePasswordForm() {
  const t = useT();
  const { form, onSubmit, pending, events } = useActionForm({
    schema: () => import("@/lib/auth/schemas").then((m) => m.changePasswordSchema),
    defaultValues: { currentPassword: "", newPassword: "", confirmPassword: "" },
    action: changePasswordAction,
    onSuccess: async () => {
      toast.success(t("profile.passwordChanged"));
      await signOutTo("/sign-in");
    },
  });

  return (
    <Form {...form}>
      <form {...events} onSubmit={onSubmit} className="space-y-4" noValidate>
        <TextField
          control={form.control}
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          label={t("profile.currentPassword")}
        />
        <TextField
          control={form.control}
          name="newPassword"
          type="password"
          autoComplete="new-password"
          label={t("profile.newPassword")}
          description={t("profile.newPasswordHint")}
        />
        <TextField
          control={form.control}
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          label={t("profile.confirmPassword")}
        />
        <Button type="submit" loading={pending}>
          {t("profile.changePassword")}
        </Button>
      </form>
    </Form>
  );
}
