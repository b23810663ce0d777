"use client";

import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { FormDialog, useFormDialog } from "@/components/forms/form-dialog";
import { TextField } from "@/components/forms/fields";
import { useT } from "@/lib/i18n/client";
import { replaceSecretKeyAction, replaceWebhookTokenAction } from "../actions";

/** The new value is typed, sent once and never shown again; the current one is never sent to the browser. */
export function ReplaceSecretDialog({ accountId, kind }: { accountId: string; kind: "secretKey" | "webhookToken" }) {
  const t = useT();
  const router = useRouter();
  const { form, dialog } = useFormDialog({
    schema: () => import("@/lib/accounts/schemas").then((m) => m.replaceValueSchemas[kind]),
    defaultValues: { value: "" },
    action: ({ value }) =>
      kind === "secretKey"
        ? replaceSecretKeyAction({ accountId, secretKey: value })
        : replaceWebhookTokenAction({ accountId, webhookToken: value }),
    successMessage: () => t(kind === "secretKey" ? "accounts.secretReplaced" : "accounts.tokenReplaced"),
    onSuccess: () => router.refresh(),
  });

  const title = t(kind === "secretKey" ? "accounts.replaceSecretTitle" : "accounts.replaceTokenTitle");
  return (
    <FormDialog
      {...dialog}
      trigger={
        <Button variant="outline" size="sm" aria-label={title}>
          {t("accounts.replace")}
        </Button>
      }
      title={title}
      description={t(kind === "secretKey" ? "accounts.replaceSecretDescription" : "accounts.replaceTokenDescription")}
    >
      <TextField
        control={form.control}
        name="value"
        type="password"
        autoComplete="new-password"
        label={t(kind === "secretKey" ? "accounts.secretKey" : "accounts.webhookToken")}
      />
    </FormDialog>
  );
}
