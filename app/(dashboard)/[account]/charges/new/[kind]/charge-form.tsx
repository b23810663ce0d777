"use client";

import { useEffect, useMemo, useState, type ReactNode } from "react";
import { useRouter } from "next/navigation";
import { useFieldArray, useWatch, type Control } from "react-hook-form";
import type { z } from "zod";
import { AlertTriangle, Info, Plus, RefreshCw, SearchCheck, Trash2 } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { DateField, SelectField, TextField } from "@/components/forms/fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { useI18n } from "@/lib/i18n/client";
import { cardBrand, maskCardNumberInput, maskCep, maskCpfCnpj, maskMoney, maskPhone, parseMoneyInput, toCents } from "@/lib/br";
import { CHARGE_FORM_SCHEMAS, expectedTotalCents, localIsoDate, pickFormInput, type ChargeFormKind, type ChargeFormValues } from "@/lib/charges/schemas";
import { saoPauloDate } from "@/lib/i18n/format";
import { nextChargeDates, toIsoDate } from "@/lib/charges/recurrence";
import { PERIODICITY_TYPES, type PeriodicityType } from "@/lib/gateway/constants";
import type { ActionResult } from "@/lib/actions/safe-action";
import {
  checkOperationAction,
  operationStateAction,
  createBoletoChargeAction,
  createCardChargeAction,
  createCardSubscriptionAction,
  createCryptoChargeAction,
  createCryptoSubscriptionAction,
  createPixChargeAction,
  createPixDepositAction,
  createPixSubscriptionAction,
  type ChargeSubmitted,
} from "@/app/(dashboard)/charges/actions";

const ACTIONS: Record<ChargeFormKind, (input: never) => Promise<ActionResult<ChargeSubmitted>>> = {
  pix: createPixChargeAction,
  card: createCardChargeAction,
  boleto: createBoletoChargeAction,
  crypto: createCryptoChargeAction,
  deposit: createPixDepositAction,
  "pix-subscription": createPixSubscriptionAction,
  "card-subscription": createCardSubscriptionAction,
  "crypto-subscription": createCryptoSubscriptionAction,
};

const PREFIX: Record<ChargeFormKind, string> = {
  pix: "pix",
  card: "card",
  boleto: "bol",
  crypto: "cry",
  deposit: "dep",
  "pix-subscription": "sub-pix",
  "card-subscription": "sub-card",
  "crypto-subscription": "sub-cry",
};

function generateIdentifier(kind: ChargeFormKind): string {
  const random = crypto.randomUUID().replace(/-/g, "").slice(0, 10);
  return `${PREFIX[kind]}-${localIsoDate(new Date()).replace(/-/g, "")}-${random}`;
}

const storageKey = (accountId: string, kind: ChargeFormKind) => `charges:identifier:${accountId}:${kind}`;

function emptyValues(kind: ChargeFormKind, defaults: { clientIp: string }): ChargeFormValues {
  return {
    identifier: "",
    amount: "",
    client: { name: "", email: "", phone: "", document: "" },
    address: { country: "BR", zipCode: "", state: "", city: "", street: "", neighborhood: "", number: "", complement: "" },
    card: { number: "", owner: "", expiresAt: "", cvv: "", statementDescriptor: "" },
    installments: kind === "card" ? "1" : "",
    clientIp: defaults.clientIp,
    products: [],
    shippingFee: "",
    extraFee: "",
    discount: "",
    splits: [],
    metadata: [],
    dueDate: "",
    currency: "BRL",
    cryptoCurrency: "USDT",
    network: "POLYGON",
    product: { id: "", name: "", price: "" },
    subscription: { periodicityType: "MONTHS", periodicity: "1", firstChargeIn: "0" },
  };
}

type Pending = { id: string; note?: "absent" | "inconclusive" | "lookupFailed" | "inFlight" };

export function ChargeForm({ accountId, kind, requestIp }: { accountId: string; kind: ChargeFormKind; requestIp: string | null }) {
  const { t, format } = useI18n();
  const router = useRouter();
  const { form, onSubmit, pending: submitting } = useActionForm({
    schema: CHARGE_FORM_SCHEMAS[kind] as unknown as z.ZodType<unknown, ChargeFormValues>,
    defaultValues: emptyValues(kind, { clientIp: requestIp ?? "" }),
    mode: "onTouched",
    action: (values) => {
      setRejected(null);
      return ACTIONS[kind]({ ...pickFormInput(kind, values), accountId } as never);
    },
    onSuccess: ({ id, submission }) => {
      if (submission === "SUBMITTED") return done(id);
      setPending({ id, note: submission === "SUBMITTING" ? "inFlight" : undefined });
    },
    onFailure: (failure) => {
      if (!failure.error.startsWith("charges.errors.gateway.")) return;
      setRejected({ title: t(failure.error), message: failure.message });
      return "shown";
    },
  });
  const [rejected, setRejected] = useState<{ title: string; message?: string } | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [checking, setChecking] = useState(false);
  const [autoCheck, setAutoCheck] = useState<{ seconds: number | null; needsPerson: boolean } | null>(null);

  // One identifier per form instance, kept across retries and page reloads until the operation exists.
  useEffect(() => {
    const stored = window.sessionStorage.getItem(storageKey(accountId, kind));
    const identifier = stored ?? generateIdentifier(kind);
    window.sessionStorage.setItem(storageKey(accountId, kind), identifier);
    form.setValue("identifier", identifier);
  }, [form, accountId, kind]);

  const has = {
    client: kind !== "deposit",
    card: kind === "card" || kind === "card-subscription",
    address: kind === "card",
    products: kind === "pix" || kind === "card" || kind === "boleto" || kind === "crypto",
    fees: kind === "pix" || kind === "card" || kind === "boleto",
    metadata: kind === "pix" || kind === "card" || kind === "boleto" || kind === "crypto",
    dueDate: kind === "pix" || kind === "boleto",
    crypto: kind === "crypto" || kind === "crypto-subscription",
    subscription: kind.endsWith("-subscription"),
  };
  const blocked = !!pending && pending.note !== "absent";

  function done(id: string) {
    window.sessionStorage.removeItem(storageKey(accountId, kind));
    router.push(`/charges/${encodeURIComponent(id)}`);
  }

  // An unknown outcome settles on the server by itself (the reconciler); the form follows it without a click.
  const pendingId = pending && pending.note !== "absent" ? pending.id : null;
  useEffect(() => {
    if (!pendingId) return;
    const timer = setInterval(async () => {
      const result = await operationStateAction({ accountId, id: pendingId });
      if (!result.ok) return;
      const { submission, nextCheckInSeconds, needsPerson } = result.data;
      if (submission === "SUBMITTED") return done(pendingId);
      if (submission === "ABSENT") setPending({ id: pendingId, note: "absent" });
      else setAutoCheck({ seconds: nextCheckInSeconds, needsPerson });
    }, 2_000);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- re-arm only when the watched operation changes
  }, [pendingId]);

  async function checkNow() {
    if (!pending) return;
    setChecking(true);
    try {
      const result = await checkOperationAction({ accountId, id: pending.id });
      if (!result.ok) {
        setPending({ ...pending, note: "lookupFailed" });
        return;
      }
      const { submission, outcome } = result.data;
      if (submission === "SUBMITTED") return done(pending.id);
      if (submission === "ABSENT") setPending({ ...pending, note: "absent" });
      else if (outcome === "lookup_failed") setPending({ ...pending, note: "lookupFailed" });
      else if (submission === "SUBMITTING") setPending({ ...pending, note: "inFlight" });
      else setPending({ ...pending, note: "inconclusive" });
    } finally {
      setChecking(false);
    }
  }

  const submitLabel = kind === "deposit" ? t("charges.submitDeposit") : has.subscription ? t("charges.submitSubscription") : t("charges.submit");

  return (
    <Form {...form}>
      <form onSubmit={(event) => (blocked ? event.preventDefault() : onSubmit(event))} noValidate className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_340px]" data-testid="charge-form">
        <div className="min-w-0 space-y-6">
          <Section title={t("charges.sections.basics")}>
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField
                control={form.control}
                name="identifier"
                render={({ field }) => (
                  <FormItem className="sm:col-span-2">
                    <FormLabel>{t("charges.fields.identifier")}</FormLabel>
                    <div className="flex gap-2">
                      <FormControl>
                        <Input {...field} className="font-mono" autoComplete="off" readOnly={blocked} />
                      </FormControl>
                      <Button
                        type="button"
                        variant="outline"
                        disabled={blocked}
                        onClick={() => {
                          const identifier = generateIdentifier(kind);
                          window.sessionStorage.setItem(storageKey(accountId, kind), identifier);
                          form.setValue("identifier", identifier, { shouldValidate: true });
                          setPending(null);
                        }}
                      >
                        <RefreshCw /> <span className="hidden sm:inline">{t("charges.newIdentifier")}</span>
                      </Button>
                    </div>
                    <p className="text-muted-foreground text-xs">
                      {kind === "deposit" ? t("charges.fields.identifierOptionalHint") : t("charges.fields.identifierHint")}
                    </p>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <TextField control={form.control} name="amount" label={t("charges.fields.amount")} inputMode="numeric" placeholder="0,00" transform={maskMoney} />
              {kind === "card" && (
                <SelectField
                  control={form.control}
                  name="installments"
                  label={t("charges.fields.installments")}
                  options={Array.from({ length: 12 }, (_, i) => ({ value: String(i + 1), label: `${i + 1}x` }))}
                />
              )}
            </div>
          </Section>

          {has.client && (
            <Section title={t("charges.sections.client")}>
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField control={form.control} name="client.name" label={t("charges.fields.name")} autoComplete="off" className="sm:col-span-2" />
                <TextField control={form.control} name="client.email" label={t("charges.fields.email")} type="email" autoComplete="off" />
                <TextField control={form.control} name="client.phone" label={t("charges.fields.phone")} inputMode="tel" placeholder="(11) 99999-9999" transform={maskPhone} />
                <TextField control={form.control} name="client.document" label={t("charges.fields.document")} placeholder="000.000.000-00" transform={maskCpfCnpj} />
              </div>
            </Section>
          )}

          {has.address && (
            <Section title={t("charges.sections.address")}>
              <div className="grid gap-4 sm:grid-cols-6">
                <TextField control={form.control} name="address.country" label={t("charges.fields.country")} maxLength={2} className="sm:col-span-1" transform={(v) => v.toUpperCase()} />
                <TextField control={form.control} name="address.zipCode" label={t("charges.fields.zipCode")} inputMode="numeric" placeholder="00000-000" transform={maskCep} className="sm:col-span-2" />
                <TextField control={form.control} name="address.state" label={t("charges.fields.state")} maxLength={2} className="sm:col-span-1" transform={(v) => v.toUpperCase()} />
                <TextField control={form.control} name="address.city" label={t("charges.fields.city")} className="sm:col-span-2" />
                <TextField control={form.control} name="address.street" label={t("charges.fields.street")} className="sm:col-span-4" />
                <TextField control={form.control} name="address.number" label={t("charges.fields.number")} className="sm:col-span-2" />
                <TextField control={form.control} name="address.neighborhood" label={t("charges.fields.neighborhood")} className="sm:col-span-3" />
                <TextField control={form.control} name="address.complement" label={t("charges.fields.complement")} className="sm:col-span-3" />
              </div>
            </Section>
          )}

          {has.card && <CardSection control={form.control} requestIp={requestIp} />}

          {has.crypto && (
            <Section title={t("charges.sections.crypto")}>
              <div className="grid gap-4 sm:grid-cols-3">
                {kind === "crypto" && <TextField control={form.control} name="currency" label={t("charges.fields.currency")} list="charges-fiat" transform={(v) => v.toUpperCase()} />}
                <TextField control={form.control} name="cryptoCurrency" label={t("charges.fields.cryptoCurrency")} list="charges-crypto" transform={(v) => v.toUpperCase()} />
                <TextField control={form.control} name="network" label={t("charges.fields.network")} list="charges-network" transform={(v) => v.toUpperCase()} />
              </div>
              <datalist id="charges-fiat">
                {["BRL", "USD"].map((v) => <option key={v} value={v} />)}
              </datalist>
              <datalist id="charges-crypto">
                {["USDT", "USDC", "BTC", "ETH"].map((v) => <option key={v} value={v} />)}
              </datalist>
              <datalist id="charges-network">
                {["ETHEREUM", "POLYGON", "BSC", "TRON", "SOLANA", "BITCOIN"].map((v) => <option key={v} value={v} />)}
              </datalist>
            </Section>
          )}

          {has.subscription && <SubscriptionSections control={form.control} />}

          {has.products && <ProductsSection control={form.control} physical={kind === "pix"} />}

          {has.fees && (
            <Section title={t("charges.sections.fees")}>
              <div className="grid gap-4 sm:grid-cols-3">
                <TextField control={form.control} name="shippingFee" label={t("charges.fields.shippingFee")} inputMode="numeric" placeholder="0,00" transform={maskMoney} />
                <TextField control={form.control} name="extraFee" label={t("charges.fields.extraFee")} inputMode="numeric" placeholder="0,00" transform={maskMoney} />
                <TextField control={form.control} name="discount" label={t("charges.fields.discount")} inputMode="numeric" placeholder="0,00" transform={maskMoney} />
              </div>
            </Section>
          )}

          {has.fees && <SplitsSection control={form.control} />}
          {has.metadata && <MetadataSection control={form.control} />}

          {has.dueDate && (
            <Section title={t("charges.sections.delivery")}>
              <div className="grid gap-4 sm:grid-cols-3">
                <DateField control={form.control} name="dueDate" label={t("charges.fields.dueDate")} min={saoPauloDate()} />
              </div>
            </Section>
          )}
        </div>

        <aside className="space-y-4 lg:sticky lg:top-20">
          <SummaryCard control={form.control} kind={kind} format={format} />
          {rejected && (
            <Alert variant="destructive" data-testid="charge-rejected">
              <AlertTriangle />
              <AlertTitle>{t("charges.errors.rejectedTitle")}</AlertTitle>
              <AlertDescription>
                <p>{rejected.title}</p>
                {rejected.message && <p className="mt-1 font-mono text-xs">{rejected.message}</p>}
              </AlertDescription>
            </Alert>
          )}
          {pending && (
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
          )}
          <Button type="submit" size="lg" className="w-full" loading={submitting} disabled={blocked}>
            {submitLabel}
          </Button>
        </aside>
      </form>
    </Form>
  );
}

function Section({ title, description, children, action }: { title: string; description?: ReactNode; children: ReactNode; action?: ReactNode }) {
  return (
    <Card>
      <CardHeader className="flex flex-row items-start justify-between gap-4">
        <div className="space-y-1">
          <CardTitle className="text-base">{title}</CardTitle>
          {description && <CardDescription>{description}</CardDescription>}
        </div>
        {action}
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

function CardSection({ control, requestIp }: { control: Control<ChargeFormValues>; requestIp: string | null }) {
  const { t } = useI18n();
  const number = useWatch({ control, name: "card.number" });
  const brand = cardBrand(number ?? "");
  return (
    <Section
      title={t("charges.sections.card")}
      action={brand ? <Badge variant="secondary" data-testid="card-brand">{t("charges.brandDetected", { brand: brand.toUpperCase() })}</Badge> : null}
    >
      <div className="grid gap-4 sm:grid-cols-6">
        <TextField control={control} name="card.number" label={t("charges.fields.cardNumber")} inputMode="numeric" autoComplete="off" placeholder="0000 0000 0000 0000" transform={maskCardNumberInput} className="sm:col-span-4" />
        <TextField control={control} name="card.expiresAt" label={t("charges.fields.cardExpiry")} placeholder="2030-12" autoComplete="off" className="sm:col-span-1" />
        <TextField control={control} name="card.cvv" label={t("charges.fields.cvv")} inputMode="numeric" autoComplete="off" maxLength={4} transform={(v) => v.replace(/\D/g, "")} className="sm:col-span-1" />
        <TextField control={control} name="card.owner" label={t("charges.fields.cardOwner")} autoComplete="off" transform={(v) => v.toUpperCase()} className="sm:col-span-4" />
        <TextField control={control} name="card.statementDescriptor" label={t("charges.fields.statementDescriptor")} maxLength={22} className="sm:col-span-2" />
        <TextField
          control={control}
          name="clientIp"
          label={t("charges.fields.clientIp")}
          inputMode="decimal"
          placeholder="203.0.113.10"
          className="sm:col-span-6"
          description={requestIp ? t("charges.fields.clientIpHint", { ip: requestIp }) : t("charges.fields.clientIpMissing")}
        />
      </div>
    </Section>
  );
}

function ProductsSection({ control, physical }: { control: Control<ChargeFormValues>; physical: boolean }) {
  const { t } = useI18n();
  const { fields, append, remove } = useFieldArray({ control, name: "products" });
  return (
    <Section
      title={t("charges.sections.products")}
      action={
        <Button type="button" variant="outline" size="sm" onClick={() => append({ id: `p${fields.length + 1}`, name: "", quantity: "1", price: "", physical: false })}>
          <Plus /> {t("charges.addProduct")}
        </Button>
      }
    >
      {fields.length === 0 ? (
        <p className="text-muted-foreground text-sm">{t("charges.noProducts")}</p>
      ) : (
        <div className="space-y-3">
          {fields.map((item, index) => (
            <div key={item.id} className="grid items-start gap-3 rounded-lg border p-3 sm:grid-cols-[90px_minmax(0,1fr)_70px_120px_auto_auto]" data-testid={`product-${index}`}>
              <TextField control={control} name={`products.${index}.id`} label={t("charges.fields.productId")} />
              <TextField control={control} name={`products.${index}.name`} label={t("charges.fields.productName")} />
              <TextField control={control} name={`products.${index}.quantity`} label={t("charges.fields.quantity")} inputMode="numeric" transform={(v) => v.replace(/\D/g, "")} />
              <TextField control={control} name={`products.${index}.price`} label={t("charges.fields.unitPrice")} inputMode="numeric" placeholder="0,00" transform={maskMoney} />
              {physical ? (
                <FormField
                  control={control}
                  name={`products.${index}.physical`}
                  render={({ field }) => (
                    <FormItem className="flex flex-col gap-3">
                      <FormLabel>{t("charges.fields.physical")}</FormLabel>
                      <FormControl>
                        <Checkbox checked={!!field.value} onCheckedChange={(v) => field.onChange(v === true)} />
                      </FormControl>
                    </FormItem>
                  )}
                />
              ) : (
                <span />
              )}
              <Button type="button" variant="ghost" size="icon" className="sm:mt-6" aria-label={t("charges.remove")} onClick={() => remove(index)}>
                <Trash2 />
              </Button>
            </div>
          ))}
        </div>
      )}
    </Section>
  );
}

function SplitsSection({ control }: { control: Control<ChargeFormValues> }) {
  const { t } = useI18n();
  const { fields, append, remove } = useFieldArray({ control, name: "splits" });
  return (
    <Section
      title={t("charges.sections.splits")}
      action={
        <Button type="button" variant="outline" size="sm" onClick={() => append({ producerId: "", amount: "" })}>
          <Plus /> {t("charges.addSplit")}
        </Button>
      }
    >
      {fields.length === 0 && <p className="text-muted-foreground text-sm">{t("charges.noSplits")}</p>}
      <div className="space-y-3">
        {fields.map((item, index) => (
          <div key={item.id} className="grid items-start gap-3 sm:grid-cols-[minmax(0,1fr)_160px_auto]">
            <TextField control={control} name={`splits.${index}.producerId`} label={t("charges.fields.producerId")} />
            <TextField control={control} name={`splits.${index}.amount`} label={t("charges.fields.splitAmount")} inputMode="numeric" placeholder="0,00" transform={maskMoney} />
            <Button type="button" variant="ghost" size="icon" className="sm:mt-6" aria-label={t("charges.remove")} onClick={() => remove(index)}>
              <Trash2 />
            </Button>
          </div>
        ))}
      </div>
      <FormField control={control} name="splits" render={() => <FormItem><FormMessage /></FormItem>} />
    </Section>
  );
}

function MetadataSection({ control }: { control: Control<ChargeFormValues> }) {
  const { t } = useI18n();
  const { fields, append, remove } = useFieldArray({ control, name: "metadata" });
  return (
    <Section
      title={t("charges.sections.metadata")}
      action={
        <Button type="button" variant="outline" size="sm" onClick={() => append({ key: "", value: "" })}>
          <Plus /> {t("charges.addMetadata")}
        </Button>
      }
    >
      {fields.length === 0 && <p className="text-muted-foreground text-sm">{t("charges.noMetadata")}</p>}
      <div className="space-y-3">
        {fields.map((item, index) => (
          <div key={item.id} className="grid items-start gap-3 sm:grid-cols-[200px_minmax(0,1fr)_auto]">
            <TextField control={control} name={`metadata.${index}.key`} label={t("charges.fields.key")} />
            <TextField control={control} name={`metadata.${index}.value`} label={t("charges.fields.value")} />
            <Button type="button" variant="ghost" size="icon" className="sm:mt-6" aria-label={t("charges.remove")} onClick={() => remove(index)}>
              <Trash2 />
            </Button>
          </div>
        ))}
      </div>
    </Section>
  );
}

function SubscriptionSections({ control }: { control: Control<ChargeFormValues> }) {
  const { t, locale } = useI18n();
  const recurrence = useWatch({ control, name: "subscription" });
  const preview = useMemo(() => {
    const periodicity = Number(recurrence?.periodicity);
    const firstChargeIn = Number(recurrence?.firstChargeIn || 0);
    const type = recurrence?.periodicityType as PeriodicityType;
    if (!PERIODICITY_TYPES.includes(type) || !Number.isInteger(periodicity) || periodicity < 1 || !Number.isInteger(firstChargeIn) || firstChargeIn < 0) return [];
    const today = new Date();
    return nextChargeDates({ year: today.getFullYear(), month: today.getMonth() + 1, day: today.getDate() }, { periodicityType: type, periodicity, firstChargeIn }, 4).map(toIsoDate);
  }, [recurrence]);
  const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  return (
    <>
      <Section title={t("charges.sections.product")}>
        <div className="grid gap-4 sm:grid-cols-[140px_minmax(0,1fr)_160px]">
          <TextField control={control} name="product.id" label={t("charges.fields.subscriptionProductId")} />
          <TextField control={control} name="product.name" label={t("charges.fields.subscriptionProductName")} />
          <TextField control={control} name="product.price" label={t("charges.fields.subscriptionProductPrice")} inputMode="numeric" placeholder="0,00" transform={maskMoney} />
        </div>
      </Section>
      <Section title={t("charges.sections.recurrence")}>
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField control={control} name="subscription.periodicity" label={t("charges.fields.periodicity")} inputMode="numeric" transform={(v) => v.replace(/\D/g, "")} />
          <SelectField
            control={control}
            name="subscription.periodicityType"
            label={t("charges.fields.periodicityType")}
            options={PERIODICITY_TYPES.map((value) => ({ value, label: t(`charges.periodicity.${value}`) }))}
          />
          <TextField control={control} name="subscription.firstChargeIn" label={t("charges.fields.firstChargeIn")} inputMode="numeric" transform={(v) => v.replace(/\D/g, "")} />
        </div>
        {preview.length > 0 && (
          <div className="bg-muted/40 mt-4 rounded-lg border p-3" data-testid="recurrence-preview">
            <div className="text-sm font-medium">{t("charges.previewTitle")}</div>
            <ol className="mt-2 grid gap-1 text-sm sm:grid-cols-4">
              {preview.map((date, n) => (
                <li key={date} className="tabular-nums" data-date={date}>
                  <span className="text-muted-foreground">{n + 1}.</span> {dateFormat.format(new Date(`${date}T00:00:00Z`))}
                </li>
              ))}
            </ol>
            <p className="text-muted-foreground mt-2 text-xs">{t("charges.previewHint")}</p>
          </div>
        )}
      </Section>
    </>
  );
}

function SummaryCard({ control, kind, format }: { control: Control<ChargeFormValues>; kind: ChargeFormKind; format: ReturnType<typeof useI18n>["format"] }) {
  const { t } = useI18n();
  const [amount, products, shippingFee, extraFee, discount, installments] = useWatch({
    control,
    name: ["amount", "products", "shippingFee", "extraFee", "discount", "installments"],
  });
  const amountValue = parseMoneyInput(amount ?? "");
  const expected = expectedTotalCents({ products: products ?? [], shippingFee, extraFee, discount });
  const mismatch = expected !== null && amountValue !== null && expected !== toCents(amountValue);
  return (
    <Card>
      <CardHeader>
        <CardDescription>{t(`charges.kinds.${kind}`)}</CardDescription>
        <CardTitle className="text-3xl tabular-nums" data-testid="summary-amount">
          {format.money(amountValue ?? 0)}
        </CardTitle>
        {kind === "card" && Number(installments) > 1 && amountValue && (
          <CardDescription className="tabular-nums">
            {installments}x {format.money(Math.round((amountValue * 100) / Number(installments)) / 100)}
          </CardDescription>
        )}
      </CardHeader>
      {expected !== null && (
        <CardContent>
          {mismatch ? (
            <div className="border-warning/35 bg-warning/8 flex gap-2 rounded-md border p-2 text-xs" role="status" data-testid="total-mismatch">
              <AlertTriangle className="text-warning mt-0.5 size-3.5 shrink-0" />
              <span>{t("charges.totalMismatch", { expected: format.money(expected / 100), amount: format.money(amountValue ?? 0) })}</span>
            </div>
          ) : (
            <p className="text-muted-foreground text-xs">{t("charges.totalMatches", { expected: format.money(expected / 100) })}</p>
          )}
        </CardContent>
      )}
    </Card>
  );
}
