"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useWatch } from "react-hook-form";
import { Settings2 } from "lucide-react";
import { FormDialog } from "@/components/forms/form-dialog";
import { SelectField, TextField } from "@/components/forms/fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/toast";
import { useT } from "@/lib/i18n/client";
import { RECOVERY_PLACEHOLDERS, renderRecoveryMessage } from "@/lib/sales/message";
import { saveRecoverySettingsAction } from "./actions";
import { DELAY_UNITS, type RecoverySettingsValues } from "./schemas";

const SAMPLE_LINK = "https://pagamento.exemplo/abc123";
const SAMPLE_CENTS = 19_700;

/** The account's recovery delays and message template, for those who may change them. */
export function RecoverySettingsDialog({
  accountId,
  values,
  lastSaved,
}: {
  accountId: string;
  values: RecoverySettingsValues;
  /** "Alterado por … em …", already in words; null for the defaults. */
  lastSaved: string | null;
}) {
  const t = useT();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  // What was just saved, until the page's refreshed values arrive (the page remounts this dialog then).
  const [saved, setSaved] = useState<RecoverySettingsValues | null>(null);
  const { form, submit, prepare } = useActionForm<RecoverySettingsValues, void>({
    schema: () => import("./schemas").then((m) => m.recoverySettingsFormSchema),
    defaultValues: values,
    action: (typed) => saveRecoverySettingsAction({ ...typed, accountId }),
    onSuccess: (_, typed) => {
      setSaved(typed);
      setOpen(false);
      toast.success(t("salesRecovery.settings.saved"));
      router.refresh();
    },
  });
  const template = useWatch({ control: form.control, name: "messageTemplate" }) ?? "";
  const renewalTemplate = useWatch({ control: form.control, name: "renewalTemplate" }) ?? "";
  const unitOptions = DELAY_UNITS.map((unit) => ({ value: unit, label: t(`salesRecovery.settings.units.${unit}`) }));
  const sample = {
    name: t("salesRecovery.settings.sample.name"),
    amountCents: SAMPLE_CENTS,
    currency: "BRL",
    product: t("salesRecovery.settings.sample.product"),
    link: SAMPLE_LINK,
  };
  const preview = renderRecoveryMessage(template, sample);
  const renewalPreview = renderRecoveryMessage(renewalTemplate, sample);

  const templateField = (name: "messageTemplate" | "renewalTemplate", label: string, hint?: string) => (
    <FormField
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <Textarea {...field} rows={name === "messageTemplate" ? 5 : 4} className="max-h-60" data-testid={`recovery-${name}`} />
          </FormControl>
          <FormMessage />
          {hint && <FormDescription>{hint}</FormDescription>}
        </FormItem>
      )}
    />
  );

  const delay = (legend: string, amount: "pixDelay" | "boletoDelay", unit: "pixUnit" | "boletoUnit", hint?: string) => (
    <fieldset className="space-y-2" data-testid={`recovery-${amount}`}>
      <legend className="mb-2 text-sm font-medium">{legend}</legend>
      <div className="grid grid-cols-[minmax(0,7rem)_minmax(0,1fr)] gap-3">
        <TextField control={form.control} name={amount} label={t("salesRecovery.settings.amount")} inputMode="numeric" autoComplete="off" />
        <SelectField control={form.control} name={unit} label={t("salesRecovery.settings.unit")} options={unitOptions} />
      </div>
      {hint && <p className="text-[13px] text-muted-foreground">{hint}</p>}
    </fieldset>
  );

  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        if (next) {
          prepare().catch(() => {});
          form.reset(saved ?? values);
        }
        setOpen(next);
      }}
      trigger={
        <Button variant="outline" data-testid="recovery-settings">
          <Settings2 /> {t("salesRecovery.settings.open")}
        </Button>
      }
      title={t("salesRecovery.settings.title")}
      description={
        <>
          {t("salesRecovery.settings.description")}
          {lastSaved && <span className="mt-1 block text-xs">{lastSaved}</span>}
        </>
      }
      form={form}
      onSubmit={submit}
      className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-xl"
    >
      {delay(t("salesRecovery.settings.pix"), "pixDelay", "pixUnit")}
      {delay(t("salesRecovery.settings.boleto"), "boletoDelay", "boletoUnit", t("salesRecovery.settings.boletoHint"))}
      {templateField("messageTemplate", t("salesRecovery.settings.template"))}
      {templateField("renewalTemplate", t("salesRecovery.settings.renewalTemplate"), t("salesRecovery.settings.renewalTemplateHint"))}
      <ul className="grid gap-x-4 gap-y-0.5 text-[13px] text-muted-foreground sm:grid-cols-2">
        <li className="sm:col-span-2">{t("salesRecovery.settings.placeholders")}</li>
        {RECOVERY_PLACEHOLDERS.map((name) => (
          <li key={name}>
            <code className="rounded bg-muted px-1 font-mono text-xs text-foreground">{`{${name}}`}</code>{" "}
            {t(`salesRecovery.settings.placeholder.${name}`)}
          </li>
        ))}
      </ul>
      <div className="space-y-1">
        <p className="text-sm font-medium">{t("salesRecovery.settings.preview")}</p>
        <p
          className="rounded-md border bg-muted/40 p-3 text-sm whitespace-pre-wrap [overflow-wrap:anywhere]"
          data-testid="recovery-template-preview"
        >
          {preview}
        </p>
        <p className="pt-1 text-sm font-medium">{t("salesRecovery.settings.renewalPreview")}</p>
        <p
          className="rounded-md border bg-muted/40 p-3 text-sm whitespace-pre-wrap [overflow-wrap:anywhere]"
          data-testid="recovery-renewal-template-preview"
        >
          {renewalPreview}
        </p>
      </div>
    </FormDialog>
  );
}
