"use client";

import { useWatch, type UseFormReturn } from "react-hook-form";
import { SelectField, TextField } from "@/components/forms/fields";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { BalanceEstimate, type BalanceEstimateValue } from "@/components/payments/balance-estimate";
import { maskCnpj, maskCpf, maskCpfCnpj, maskMoney, maskPhone, parseMoneyInput, toCents } from "@/lib/br";
import { useT } from "@/lib/i18n/client";
import { OWNER_DOCUMENT_TYPES, TRANSFER_PIX_KEY_TYPES, ownerNameAsSent } from "@/lib/transfers/form-options";
import type { TransferFormValues, TransferInput } from "@/lib/transfers/schemas";
import { accountPath } from "@/lib/accounts/paths";

type TransferFormApi = UseFormReturn<TransferFormValues, unknown, TransferInput>;

function keyMask(type: string): ((value: string) => string) | undefined {
  if (type === "cpf") return maskCpf;
  if (type === "cnpj") return maskCnpj;
  if (type === "phone") return (value) => (value.trim().startsWith("+") ? value : maskPhone(value));
  return undefined;
}

function documentMask(type: string): ((value: string) => string) | undefined {
  if (type === "cpf") return maskCpf;
  if (type === "cnpj") return maskCnpj;
  return undefined;
}

const KEY_PLACEHOLDERS: Record<string, string> = {
  cpf: "000.000.000-00",
  cnpj: "00.000.000/0000-00",
  email: "nome@exemplo.com.br",
  phone: "(11) 99999-9999",
  random: "123e4567-e89b-12d3-a456-426614174000",
};

/** How much, which identifier, and who pays the fee. */
export function AmountFields({
  form,
  account,
  identifier,
  balance,
}: {
  form: TransferFormApi;
  account: { id: string };
  identifier: string;
  balance: BalanceEstimateValue | null;
}) {
  const t = useT();
  const watchedAmount: unknown = useWatch({ control: form.control, name: "amount" });
  const typedAmount = typeof watchedAmount === "string" ? parseMoneyInput(watchedAmount) : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("transfers.amount")}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5 md:grid-cols-2">
        <TextField
          control={form.control}
          name="amount"
          label={t("transfers.amount")}
          inputMode="numeric"
          placeholder="0,00"
          transform={maskMoney}
        />
        {balance && (
          <div className="md:col-span-2">
            <BalanceEstimate
              estimate={balance}
              amountCents={typedAmount === null ? null : toCents(typedAmount)}
              balanceHref={accountPath(account.id, "/balance")}
            />
          </div>
        )}
        <div className="space-y-2">
          <Label>{t("transfers.identifier")}</Label>
          <Input value={identifier} readOnly className="font-mono text-xs" aria-label={t("transfers.identifier")} />
          <p className="text-[13px] text-muted-foreground">{t("transfers.identifierHint")}</p>
        </div>
        <FormField
          control={form.control}
          name="discountFeeOfReceiver"
          render={({ field }) => (
            <FormItem className="md:col-span-2">
              <FormLabel>{t("transfers.feeChoice")}</FormLabel>
              <FormControl>
                <RadioGroup
                  value={field.value ? "yes" : "no"}
                  onValueChange={(value) => field.onChange(value === "yes")}
                  className="grid gap-3 sm:grid-cols-2"
                >
                  {(["yes", "no"] as const).map((value) => (
                    <label
                      key={value}
                      className="flex cursor-pointer items-start gap-3 rounded-md border p-3 has-[[data-state=checked]]:border-primary"
                    >
                      <RadioGroupItem
                        value={value}
                        className="mt-0.5"
                        aria-label={value === "yes" ? t("transfers.feeFromReceiver") : t("transfers.feeNotFromReceiver")}
                      />
                      <span className="space-y-1">
                        <span className="block text-sm font-medium">
                          {value === "yes" ? t("transfers.feeFromReceiver") : t("transfers.feeNotFromReceiver")}
                        </span>
                        <span className="block text-[13px] text-muted-foreground">
                          {value === "yes" ? t("transfers.feeFromReceiverHint") : t("transfers.feeNotFromReceiverHint")}
                        </span>
                      </span>
                    </label>
                  ))}
                </RadioGroup>
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
      </CardContent>
    </Card>
  );
}

/** The receiver: the Pix key and its owner. */
export function ReceiverFields({ form }: { form: TransferFormApi }) {
  const t = useT();
  const keyType = useWatch({ control: form.control, name: "pixKeyType" });
  const documentType = useWatch({ control: form.control, name: "ownerDocumentType" });
  const ownerName = useWatch({ control: form.control, name: "ownerName" });
  const nameAsSent = ownerNameAsSent(ownerName ?? "");
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("transfers.receiver")}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5 md:grid-cols-2">
        <SelectField
          control={form.control}
          name="pixKeyType"
          label={t("transfers.pixKeyType")}
          options={TRANSFER_PIX_KEY_TYPES.map((type) => ({ value: type, label: t(`vocab.pixKeyType.${type}`) }))}
        />
        {keyType === "other" ? (
          <TextField control={form.control} name="pixKeyTypeOther" label={t("transfers.pixKeyTypeOther")} autoComplete="off" />
        ) : (
          <div className="hidden md:block" />
        )}
        <TextField
          key={`key-${keyType}`}
          control={form.control}
          name="pixKey"
          label={t("transfers.pixKey")}
          autoComplete="off"
          placeholder={KEY_PLACEHOLDERS[keyType]}
          transform={keyMask(keyType)}
          className="md:col-span-2"
        />
        <TextField
          control={form.control}
          name="ownerName"
          label={t("transfers.ownerName")}
          autoComplete="off"
          className="md:col-span-2"
          description={
            nameAsSent && nameAsSent !== (ownerName ?? "").trim() ? (
              <span data-testid="owner-name-sent">{t("transfers.ownerNameSent", { name: nameAsSent })}</span>
            ) : (
              t("transfers.ownerNameHint")
            )
          }
        />
        <SelectField
          control={form.control}
          name="ownerDocumentType"
          label={t("transfers.ownerDocumentType")}
          options={OWNER_DOCUMENT_TYPES.map((type) => ({ value: type, label: t(`vocab.documentType.${type}`) }))}
        />
        {documentType === "other" && (
          <TextField
            control={form.control}
            name="ownerDocumentTypeOther"
            label={t("transfers.ownerDocumentTypeOther")}
            autoComplete="off"
          />
        )}
        <TextField
          key={`doc-${documentType}`}
          control={form.control}
          name="ownerDocumentNumber"
          label={t("transfers.ownerDocumentNumber")}
          autoComplete="off"
          inputMode={documentType === "cpf" ? "numeric" : undefined}
          transform={documentType === "other" ? undefined : (documentMask(documentType) ?? maskCpfCnpj)}
        />
      </CardContent>
    </Card>
  );
}
