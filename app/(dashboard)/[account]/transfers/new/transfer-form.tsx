"use client";

import { CodeWord } from "@/components/ui/code-word";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useForm, useWatch } from "react-hook-form";
import { ArrowLeft, ShieldCheck } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { applyActionResult } from "@/components/forms/action-result";
import { useDeferredResolver } from "@/components/forms/deferred-resolver";
import { SelectField, TextField } from "@/components/forms/fields";
import { ModeBadge } from "@/components/shell/mode-badge";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { DeferredDialog } from "@/components/ui/deferred-dialog";
import { DialogFooter } from "@/components/ui/dialog-layout";
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { BalanceEstimate, type BalanceEstimateValue } from "@/components/payments/balance-estimate";
import { formatDocument, maskCnpj, maskCpf, maskCpfCnpj, maskMoney, maskPhone, parseMoneyInput, toCents } from "@/lib/br";
import { useI18n } from "@/lib/i18n/client";
import { OWNER_DOCUMENT_TYPES, TRANSFER_PIX_KEY_TYPES, ownerNameAsSent } from "@/lib/transfers/form-options";
import type { TransferFormValues, TransferInput } from "@/lib/transfers/schemas";
import { submitTransferAction } from "../actions";
import { accountPath } from "@/lib/accounts/paths";

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

function SummaryRow({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[12rem_1fr] sm:gap-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm font-medium break-words">{children}</dd>
    </div>
  );
}

export function TransferForm({
  account,
  identifier,
  clientIp,
  secondFactor,
  balance,
}: {
  account: { id: string; name: string; mode: "test" | "live" };
  /** The console's estimate of the available balance (null: the user may not see the balance). */
  balance: BalanceEstimateValue | null;
  identifier: string;
  clientIp: string | null;
  /** The user confirms money out with a code from the authenticator app as well. */
  secondFactor: boolean;
}) {
  const { t, format } = useI18n();
  const router = useRouter();
  const [review, setReview] = useState<TransferInput | null>(null);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  // `gatewaySaid`: the gateway's own text when the console explains the refusal in its words (tooltip only).
  const [refusal, setRefusal] = useState<{ title: string; detail?: string; gatewaySaid?: string } | null>(null);

  const { resolver, events } = useDeferredResolver<TransferFormValues, TransferInput>(() =>
    import("@/lib/transfers/schemas").then((m) => m.transferFormSchema),
  );
  const form = useForm<TransferFormValues, unknown, TransferInput>({
    resolver,
    defaultValues: {
      identifier,
      amount: "",
      discountFeeOfReceiver: true,
      pixKeyType: "email",
      pixKeyTypeOther: "",
      pixKey: "",
      ownerName: "",
      ownerDocumentType: "cpf",
      ownerDocumentTypeOther: "",
      ownerDocumentNumber: "",
    },
  });
  const keyType = useWatch({ control: form.control, name: "pixKeyType" });
  const documentType = useWatch({ control: form.control, name: "ownerDocumentType" });
  const ownerName = useWatch({ control: form.control, name: "ownerName" });
  const watchedAmount: unknown = useWatch({ control: form.control, name: "amount" });
  const typedAmount = typeof watchedAmount === "string" ? parseMoneyInput(watchedAmount) : null;
  const nameAsSent = ownerNameAsSent(ownerName ?? "");

  function onReview(values: TransferInput) {
    setRefusal(null);
    setReview(values);
  }

  async function onSend() {
    if (!review) return;
    setSending(true);
    setPasswordError(null);
    setCodeError(null);
    const result = await submitTransferAction({
      accountId: account.id,
      transfer: form.getValues(),
      password,
      code: secondFactor ? code : undefined,
    });
    setSending(false);
    if (result.ok) {
      setPasswordOpen(false);
      toast.success(result.data.replayed ? t("transfers.replayed") : t("transfers.sent"));
      router.push(accountPath(account.id, `/transfers/${result.data.transferId}`));
      return;
    }
    if (
      result.error === "transfers.errors.wrongPassword" ||
      (result.error === "transfers.errors.tooManyAttempts" && result.fieldErrors?.password)
    ) {
      setPasswordError(t(result.error));
      return;
    }
    if (["transfers.errors.wrongCode", "transfers.errors.codeRequired", "transfers.errors.tooManyAttempts"].includes(result.error)) {
      setCode("");
      setCodeError(t(result.error));
      return;
    }
    setPasswordOpen(false);
    setPassword("");
    setCode("");
    if (result.error === "errors.validation") {
      setReview(null);
      applyActionResult(
        form,
        {
          ...result,
          fieldErrors: Object.fromEntries(Object.entries(result.fieldErrors ?? {}).map(([k, v]) => [k.replace(/^transfer\./, ""), v])),
        },
        t,
      );
      return;
    }
    if (result.error.startsWith("transfers.errors.refused.")) {
      setRefusal({ title: t("transfers.errors.gatewayRefused"), detail: t(result.error), gatewaySaid: result.message });
      return;
    }
    setRefusal({ title: t(result.error), detail: result.message });
  }

  if (review) {
    const amount = format.money(review.amount);
    return (
      <div className="space-y-4">
        {refusal && (
          <Alert variant="destructive" data-testid="transfer-refusal">
            <AlertTitle className="line-clamp-none">{refusal.title}</AlertTitle>
            {refusal.detail && (
              <AlertDescription title={refusal.gatewaySaid} data-gateway-message={refusal.gatewaySaid}>
                {refusal.detail}
              </AlertDescription>
            )}
          </Alert>
        )}
        <Card data-testid="transfer-review">
          <CardHeader>
            <CardTitle>{t("transfers.reviewTitle")}</CardTitle>
            <CardDescription>{t("transfers.reviewDescription")}</CardDescription>
          </CardHeader>
          <CardContent>
            <dl className="divide-y">
              <SummaryRow label={t("transfers.fromAccount")}>
                <span className="flex flex-wrap items-center gap-2" data-testid="review-account" data-account-id={account.id}>
                  {account.name} <ModeBadge mode={account.mode} />
                </span>
                <span className="block text-muted-foreground">
                  {t(account.mode === "live" ? "transfers.liveMoney" : "transfers.testMoney")}
                </span>
              </SummaryRow>
              <SummaryRow label={t("transfers.receiver")}>
                {review.owner.name}
                <span className="block text-muted-foreground">
                  <CodeWord group="documentType" code={review.owner.document.type} /> {formatDocument(review.owner.document.number)}
                </span>
              </SummaryRow>
              <SummaryRow label={t("transfers.pixKey")}>
                <span className="font-mono">{review.pix.key}</span>
                <CodeWord group="pixKeyType" code={review.pix.type} className="block text-muted-foreground" />
              </SummaryRow>
              <SummaryRow label={t("transfers.amount")}>
                <span className="text-lg">{amount}</span>
                {balance && (
                  <BalanceEstimate
                    estimate={balance}
                    amountCents={toCents(review.amount)}
                    balanceHref={accountPath(account.id, "/balance")}
                  />
                )}
              </SummaryRow>
              <SummaryRow label={t("transfers.feeChoice")}>
                {review.discountFeeOfReceiver ? t("transfers.feeFromReceiver") : t("transfers.feeNotFromReceiver")}
                <span className="block text-muted-foreground">
                  {t("transfers.receiverGets")}:{" "}
                  {review.discountFeeOfReceiver
                    ? t("transfers.receiverGetsMinusFee", { amount })
                    : t("transfers.receiverGetsFull", { amount })}
                </span>
              </SummaryRow>
              <SummaryRow label={t("transfers.ownerIp")}>
                <span className="font-mono" data-testid="review-owner-ip">
                  {clientIp ?? "—"}
                </span>
                <span className="block text-[13px] font-normal text-muted-foreground">{t("transfers.ownerIpHint")}</span>
              </SummaryRow>
              <SummaryRow label={t("transfers.identifier")}>
                <span className="font-mono text-xs">{review.identifier}</span>
              </SummaryRow>
            </dl>
          </CardContent>
          <CardFooter className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={() => setReview(null)}>
              <ArrowLeft /> {t("transfers.edit")}
            </Button>
            <DeferredDialog
              open={passwordOpen}
              onOpenChange={(open) => {
                setPasswordOpen(open);
                if (!open) {
                  setPassword("");
                  setPasswordError(null);
                  setCode("");
                  setCodeError(null);
                }
              }}
              trigger={
                <Button disabled={!clientIp}>
                  <ShieldCheck /> {t("transfers.continue")}
                </Button>
              }
              title={t("transfers.passwordTitle")}
              description={t("transfers.passwordDescription", { amount })}
              className="sm:max-w-md"
            >
              <form
                className="space-y-4"
                onSubmit={(event) => {
                  event.preventDefault();
                  void onSend();
                }}
              >
                <div className="space-y-2">
                  <Label htmlFor="transfer-password">{t("transfers.password")}</Label>
                  <Input
                    id="transfer-password"
                    type="password"
                    autoComplete="current-password"
                    value={password}
                    onChange={(event) => setPassword(event.target.value)}
                    aria-invalid={passwordError ? true : undefined}
                    autoFocus
                  />
                  {passwordError && (
                    <p role="alert" className="text-[13px] font-medium text-destructive">
                      {passwordError}
                    </p>
                  )}
                </div>
                {secondFactor && (
                  <div className="space-y-2">
                    <Label htmlFor="transfer-code">{t("profile.codeLabel")}</Label>
                    <Input
                      id="transfer-code"
                      autoComplete="one-time-code"
                      inputMode="numeric"
                      maxLength={32}
                      className="font-mono tracking-widest"
                      value={code}
                      onChange={(event) => setCode(event.target.value)}
                      aria-invalid={codeError ? true : undefined}
                    />
                    {codeError && (
                      <p role="alert" className="text-[13px] font-medium text-destructive">
                        {codeError}
                      </p>
                    )}
                  </div>
                )}
                <DialogFooter>
                  <Button type="submit" loading={sending} disabled={!password || (secondFactor && !code.trim())}>
                    {t("transfers.send")}
                  </Button>
                </DialogFooter>
              </form>
            </DeferredDialog>
          </CardFooter>
        </Card>
      </div>
    );
  }

  return (
    <Form {...form}>
      <form {...events} onSubmit={form.handleSubmit((values) => onReview(values))} className="space-y-6" noValidate>
        {!clientIp && (
          <Alert variant="destructive">
            <AlertTitle className="line-clamp-none">{t("transfers.ipMissingTitle")}</AlertTitle>
            <AlertDescription>{t("transfers.ipMissing")}</AlertDescription>
          </Alert>
        )}
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
        <div className="flex justify-end">
          <Button type="submit" disabled={!clientIp}>
            {t("transfers.review")}
          </Button>
        </div>
      </form>
    </Form>
  );
}
