"use client";

import { AlertTriangle, Info, RefreshCw, SearchCheck } from "lucide-react";
import type { Control } from "react-hook-form";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { SelectField, TextField } from "@/components/forms/fields";
import { useT } from "@/lib/i18n/client";
import { maskMoney } from "@/lib/br";
import type { ChargeFormKind, ChargeFormValues } from "@/lib/charges/form-values";
import { CHARGE_FORMS } from "@/lib/charges/kinds/forms";
import { accountPath } from "@/lib/accounts/paths";
import { Section } from "./sections";

export type Pending = { id: string; note?: "absent" | "inconclusive" | "lookupFailed" | "inFlight" };

/** The identifier (kept while an outcome is unknown), the amount and, for a card, the installments. */
export function BasicsSection({
  control,
  kind,
  identifierLocked,
  onNewIdentifier,
}: {
  control: Control<ChargeFormValues>;
  kind: ChargeFormKind;
  identifierLocked: boolean;
  onNewIdentifier: () => void;
}) {
  const t = useT();
  return (
    <Section title={t("charges.sections.basics")}>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          control={control}
          name="identifier"
          render={({ field }) => (
            <FormItem className="sm:col-span-2">
              <FormLabel>{t("charges.fields.identifier")}</FormLabel>
              <div className="flex gap-2">
                <FormControl>
                  <Input {...field} className="font-mono" autoComplete="off" readOnly={identifierLocked} />
                </FormControl>
                <Button
                  type="button"
                  variant="outline"
                  aria-label={t("charges.newIdentifier")}
                  disabled={identifierLocked}
                  onClick={onNewIdentifier}
                >
                  <RefreshCw /> <span className="hidden sm:inline">{t("charges.newIdentifier")}</span>
                </Button>
              </div>
              <p className="text-muted-foreground text-xs">{t(CHARGE_FORMS[kind].identifierHint)}</p>
              <FormMessage />
            </FormItem>
          )}
        />
        <TextField
          control={control}
          name="amount"
          label={t("charges.fields.amount")}
          inputMode="numeric"
          placeholder="0,00"
          transform={maskMoney}
        />
        {kind === "card" && (
          <SelectField
            control={control}
            name="installments"
            label={t("charges.fields.installments")}
            options={Array.from({ length: 12 }, (_, i) => ({ value: String(i + 1), label: `${i + 1}x` }))}
          />
        )}
      </div>
    </Section>
  );
}

/** The request went out and no answer came back: the same identifier is sent again, never a new one. */
export function NoAnswerAlert({ accountId, identifier }: { accountId: string; identifier: string }) {
  const t = useT();
  return (
    <Alert variant="warning" data-testid="charge-no-answer" role="alert">
      <AlertTriangle />
      <AlertTitle>{t("charges.noAnswer.title")}</AlertTitle>
      <AlertDescription className="space-y-2">
        <p>{t("charges.noAnswer.body", { identifier: identifier })}</p>
        <p>{t("charges.noAnswer.retry")}</p>
        <a
          className="font-medium underline underline-offset-4"
          href={`${accountPath(accountId, "/transactions")}?q=${encodeURIComponent(identifier)}`}
          target="_blank"
          rel="noopener"
        >
          {t("charges.noAnswer.look")}
        </a>
      </AlertDescription>
    </Alert>
  );
}

/** An outcome not known yet, followed by the reconciler, with a button to look it up now. */
export function PendingAlert({
  pending,
  autoCheck,
  checking,
  checkNow,
}: {
  pending: Pending;
  autoCheck: { seconds: number | null; needsPerson: boolean } | null;
  checking: boolean;
  checkNow: () => void;
}) {
  const t = useT();
  return (
    <Alert variant={pending.note === "absent" ? "success" : "warning"} data-testid="charge-unknown">
      {pending.note === "absent" ? <Info /> : <AlertTriangle />}
      <AlertTitle>{t("charges.unknown.title")}</AlertTitle>
      <AlertDescription className="space-y-3">
        <p>{pending.note === "absent" ? t("charges.unknown.absent") : t("charges.unknown.body")}</p>
        {pending.note && pending.note !== "absent" && <p className="font-medium">{t(`charges.unknown.${pending.note}`)}</p>}
        {pending.note !== "absent" && autoCheck && (
          <p className="text-sm" data-testid="reconcile-status">
            {autoCheck.needsPerson
              ? t("charges.unknown.needsPerson")
              : autoCheck.seconds !== null && autoCheck.seconds > 1
                ? t("charges.unknown.autoCheck", { seconds: autoCheck.seconds })
                : t("charges.unknown.checkingNow")}
          </p>
        )}
        {pending.note !== "absent" && (
          <Button type="button" variant="outline" size="sm" onClick={checkNow} loading={checking}>
            <SearchCheck /> {t("charges.unknown.check")}
          </Button>
        )}
      </AlertDescription>
    </Alert>
  );
}
