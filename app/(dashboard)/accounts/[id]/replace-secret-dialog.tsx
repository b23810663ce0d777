"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "sonner";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Form } from "@/components/ui/form";
import { applyActionResult } from "@/components/forms/action-result";
import { TextField } from "@/components/forms/fields";
import { useT } from "@/lib/i18n/client";
import { replaceSecretSchema, replaceWebhookTokenSchema } from "@/lib/accounts/schemas";
import { replaceSecretKeyAction, replaceWebhookTokenAction } from "../actions";

const schema = z.object({ value: z.string() });

/** The new value is typed, sent once and never shown again; the current one is never sent to the browser. */
export function ReplaceSecretDialog({ accountId, kind }: { accountId: string; kind: "secretKey" | "webhookToken" }) {
  const t = useT();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const inner = kind === "secretKey" ? replaceSecretSchema.shape.secretKey : replaceWebhookTokenSchema.shape.webhookToken;
  const form = useForm<{ value: string }>({
    resolver: zodResolver(schema.extend({ value: inner })),
    defaultValues: { value: "" },
  });

  async function onSubmit({ value }: { value: string }) {
    const result =
      kind === "secretKey"
        ? await replaceSecretKeyAction({ accountId, secretKey: value })
        : await replaceWebhookTokenAction({ accountId, webhookToken: value });
    if (!applyActionResult(form, result, t)) return;
    toast.success(t(kind === "secretKey" ? "accounts.secretReplaced" : "accounts.tokenReplaced"));
    form.reset();
    setOpen(false);
    router.refresh();
  }

  const title = t(kind === "secretKey" ? "accounts.replaceSecretTitle" : "accounts.replaceTokenTitle");
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={title}>
          {t("accounts.replace")}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            {t(kind === "secretKey" ? "accounts.replaceSecretDescription" : "accounts.replaceTokenDescription")}
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form onSubmit={form.handleSubmit(onSubmit)} className="space-y-4" noValidate>
            <TextField
              control={form.control}
              name="value"
              type="password"
              autoComplete="new-password"
              label={t(kind === "secretKey" ? "accounts.secretKey" : "accounts.webhookToken")}
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
