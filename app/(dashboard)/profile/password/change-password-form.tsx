"use client";

import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { signOut } from "next-auth/react";
import { toast } from "sonner";
import type { z } from "zod";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { applyActionResult } from "@/components/forms/action-result";
import { TextField } from "@/components/forms/fields";
import { useT } from "@/lib/i18n/client";
import { changePasswordSchema } from "@/lib/auth/schemas";
import { changePasswordAction } from "../actions";

type Values = z.input<typeof changePasswordSchema>;

export function ChangePasswordForm() {
  const t = useT();
  const form = useForm<Values>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { currentPassword: "", newPassword: "", confirmPassword: "" },
  });

  async function onSubmit(values: Values) {
    const result = await changePasswordAction(values);
    if (!applyActionResult(form, result, t)) return;
    toast.success(t("profile.passwordChanged"));
    await signOut({ callbackUrl: "/sign-in" });
  }

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} className="space-y-4" noValidate>
        <TextField control={form.control} name="currentPassword" type="password" autoComplete="current-password" label={t("profile.currentPassword")} />
        <TextField control={form.control} name="newPassword" type="password" autoComplete="new-password" label={t("profile.newPassword")} description={t("profile.newPasswordHint")} />
        <TextField control={form.control} name="confirmPassword" type="password" autoComplete="new-password" label={t("profile.confirmPassword")} />
        <Button type="submit" loading={form.formState.isSubmitting}>
          {t("profile.changePassword")}
        </Button>
      </form>
    </Form>
  );
}
