"use client";

import { useState } from "react";
import Link from "next/link";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter } from "@/components/ui/card";
import { Form } from "@/components/ui/form";
import { accountPath } from "@/lib/accounts/paths";
import type { DestinationFormValues } from "@/lib/destinations/form-schemas";
import { useT } from "@/lib/i18n/client";
import { createDestinationAction } from "../actions";
import { DestinationFields } from "../destination-fields";
import { SecretOnce } from "../secret-once";

export function NewDestinationForm({ accountId, mode }: { accountId: string; mode: "test" | "live" }) {
  const t = useT();
  const [created, setCreated] = useState<{ id: string; secret: string } | null>(null);
  const { form, onSubmit, pending, events } = useActionForm({
    schema: () => import("@/lib/destinations/form-schemas").then((m) => m.destinationFormSchema),
    defaultValues: { url: "", description: "", allTypes: true, eventTypes: [] } satisfies DestinationFormValues,
    action: (values) => createDestinationAction({ ...values, accountId }),
    onSuccess: (data) => setCreated(data),
  });

  if (created) {
    return (
      <SecretOnce secret={created.secret} title={t("destinations.created.title")} description={t("destinations.created.description")}>
        <Button asChild>
          <Link href={accountPath(accountId, `/destinations/${created.id}`)}>{t("destinations.created.open")}</Link>
        </Button>
      </SecretOnce>
    );
  }

  return (
    <Form {...form}>
      <form {...events} onSubmit={onSubmit} noValidate>
        <Card>
          <CardContent>
            <DestinationFields control={form.control} mode={mode} />
          </CardContent>
          <CardFooter className="justify-end gap-2">
            <Button variant="ghost" asChild>
              <Link href={accountPath(accountId, "/destinations")}>{t("common.cancel")}</Link>
            </Button>
            <Button type="submit" loading={pending}>
              {t("destinations.create")}
            </Button>
          </CardFooter>
        </Card>
      </form>
    </Form>
  );
}
