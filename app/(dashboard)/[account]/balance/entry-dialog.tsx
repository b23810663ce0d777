"use client";

import { useRouter } from "next/navigation";
import { PenLine } from "lucide-react";
import { FormDialog, useFormDialog } from "@/components/forms/form-dialog";
import { DateField, TextField } from "@/components/forms/fields";
import { Button } from "@/components/ui/button";
import { maskMoney } from "@/lib/br";
import type { BalanceEntryInput } from "@/lib/balance/schemas";
import { useT } from "@/lib/i18n/client";
import { TIME_ZONE } from "@/lib/locale";
import { recordBalanceEntryAction } from "./actions";

type EntryValues = { available: string; pending: string; readDay: string; readTime: string };

/** Now as São Paulo's day and minute, whatever the browser's zone: the reading's default. */
function nowInSaoPaulo(): Pick<EntryValues, "readDay" | "readTime"> {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone: TIME_ZONE,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(new Date())
      .map((part) => [part.type, part.value]),
  );
  return { readDay: `${parts.year}-${parts.month}-${parts.day}`, readTime: `${parts.hour}:${parts.minute}` };
}

/** A balance may be below zero (a chargeback can leave one): the mask keeps a leading minus. */
function maskBalance(value: string): string {
  const masked = maskMoney(value);
  return value.trim().startsWith("-") ? `-${masked}` : masked;
}

function maskTime(value: string): string {
  const digits = value.replace(/\D/g, "").slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
}

/** "Informar saldo do gateway": what the gateway's panel shows, and when it was read. */
export function BalanceEntryDialog({ accountId }: { accountId: string }) {
  const t = useT();
  const router = useRouter();
  const empty = (): EntryValues => ({ available: "", pending: "", ...nowInSaoPaulo() });
  const { form, dialog } = useFormDialog({
    schema: () => import("@/lib/balance/schemas").then((m) => m.balanceEntrySchema),
    defaultValues: empty() as BalanceEntryInput,
    action: (values) => recordBalanceEntryAction({ ...values, accountId }),
    successMessage: () => t("balance.entry.saved"),
    onSuccess: () => router.refresh(),
  });

  return (
    <FormDialog
      {...dialog}
      onOpenChange={(next) => {
        // A reading starts at the moment the dialog opens, unless the producer already typed one.
        if (next && !form.formState.isDirty) form.reset(empty() as BalanceEntryInput);
        dialog.onOpenChange(next);
      }}
      trigger={
        <Button data-testid="balance-entry-open">
          <PenLine /> {t("balance.entry.open")}
        </Button>
      }
      title={t("balance.entry.title")}
      description={t("balance.entry.description")}
      submitLabel={t("balance.entry.submit")}
      className="sm:max-w-md"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          control={form.control}
          name="available"
          label={t("balance.entry.available")}
          inputMode="decimal"
          autoComplete="off"
          placeholder="0,00"
          transform={maskBalance}
        />
        <TextField
          control={form.control}
          name="pending"
          label={t("balance.entry.pending")}
          inputMode="decimal"
          autoComplete="off"
          placeholder="0,00"
          transform={maskBalance}
        />
      </div>
      <p className="-mt-2 text-[13px] text-muted-foreground">{t("balance.entry.amountHint")}</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <DateField control={form.control} name="readDay" label={t("balance.entry.readDay")} />
        <TextField
          control={form.control}
          name="readTime"
          label={t("balance.entry.readTime")}
          inputMode="numeric"
          autoComplete="off"
          placeholder="hh:mm"
          transform={maskTime}
        />
      </div>
    </FormDialog>
  );
}
