"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useFieldArray, useWatch, type Control } from "react-hook-form";
import { Plus, Trash2 } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { useActionForm } from "@/components/forms/use-action-form";
import { SelectField, TextField } from "@/components/forms/fields";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { formatBrl, maskCep, maskCpfCnpj, maskMoney, maskPhone, parseMoneyInput } from "@/lib/br";
import {
  CHECKOUT_OFFER_TYPE_SUGGESTIONS,
  CHECKOUT_COLOR_KEYS,
  CHECKOUT_CURRENCIES,
  CHECKOUT_DOCUMENTS,
  CHECKOUT_LANGUAGES,
  CHECKOUT_PAYMENT_METHODS,
  DEFAULT_CHECKOUT_COLORS,
} from "@/lib/checkout-links/options";
import type { CheckoutLinkFormValues } from "@/lib/checkout-links/schemas";
import { useI18n, useT } from "@/lib/i18n/client";
import { languageName } from "@/lib/i18n/format";
import { Select } from "@/components/ui/select";
import { useCodeText } from "@/components/ui/code-word";
import { createCheckoutLinkAction } from "../actions";
import { accountPath } from "@/lib/accounts/paths";

type Values = CheckoutLinkFormValues;

function CheckboxGroup<const O extends string>({
  control,
  name,
  label,
  options,
}: {
  control: Control<Values>;
  name: "settings.paymentMethods" | "settings.acceptedDocs";
  label: string;
  options: readonly { value: O; label: string }[];
}) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => {
        const selected = (field.value ?? []) as string[];
        return (
          <FormItem>
            <FormLabel>{label}</FormLabel>
            <div className="flex flex-wrap gap-x-5 gap-y-2">
              {options.map((option) => (
                <label key={option.value} className="flex items-center gap-2 text-sm">
                  <Checkbox
                    checked={selected.includes(option.value)}
                    onCheckedChange={(checked) =>
                      field.onChange(checked ? [...selected, option.value] : selected.filter((v) => v !== option.value))
                    }
                  />
                  {option.label}
                </label>
              ))}
            </div>
            <FormMessage />
          </FormItem>
        );
      }}
    />
  );
}

function ColorField({
  control,
  name,
  label,
}: {
  control: Control<Values>;
  name: `settings.colors.${(typeof CHECKOUT_COLOR_KEYS)[number]}`;
  label: string;
}) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <div className="flex items-center gap-2">
            <input
              type="color"
              aria-label={`${label} (seletor)`}
              className="h-9 w-11 shrink-0 cursor-pointer rounded-md border bg-background p-1"
              value={/^#[0-9a-fA-F]{6}$/.test(field.value ?? "") ? field.value : "#000000"}
              onChange={(event) => field.onChange(event.target.value)}
            />
            <FormControl>
              <Input {...field} value={field.value ?? ""} className="font-mono" maxLength={7} />
            </FormControl>
          </div>
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

const OTHER_OFFER_TYPE = "__other__";

/**
 * The offer type in words (one-time payment, subscription); "another type" opens a text field for
 * a type agreed with the gateway, sent as typed.
 */
function OfferTypeField({ control }: { control: Control<Values> }) {
  const t = useT();
  const codeText = useCodeText();
  const [typing, setTyping] = useState(false);
  const suggested = CHECKOUT_OFFER_TYPE_SUGGESTIONS as readonly string[];
  return (
    <FormField
      control={control}
      name="offer.offerType"
      render={({ field }) => {
        const value = String(field.value ?? "");
        const custom = typing || (value !== "" && !suggested.includes(value));
        return (
          <FormItem>
            <FormLabel>{t("checkoutLinks.offerType")}</FormLabel>
            <FormControl>
              <Select
                value={custom ? OTHER_OFFER_TYPE : value}
                onValueChange={(next) => {
                  setTyping(next === OTHER_OFFER_TYPE);
                  field.onChange(next === OTHER_OFFER_TYPE ? "" : next);
                }}
                options={[
                  ...suggested.map((type) => ({ value: type, label: <span data-raw={type}>{codeText("offerType", type)}</span> })),
                  { value: OTHER_OFFER_TYPE, label: t("checkoutLinks.offerTypeOther") },
                ]}
                className="w-full"
                onBlur={field.onBlur}
                ref={field.ref}
              />
            </FormControl>
            {custom && (
              <Input
                aria-label={t("checkoutLinks.offerTypeOther")}
                value={value}
                onChange={(event) => field.onChange(event.target.value)}
                maxLength={60}
              />
            )}
            <p className="text-xs text-muted-foreground">{t("checkoutLinks.offerTypeHint")}</p>
            <FormMessage />
          </FormItem>
        );
      }}
    />
  );
}

function CheckoutPreview({ control }: { control: Control<Values> }) {
  const t = useT();
  const codeText = useCodeText();
  const values = useWatch({ control });
  const colors = values.settings?.useColors ? { ...DEFAULT_CHECKOUT_COLORS, ...values.settings.colors } : DEFAULT_CHECKOUT_COLORS;
  const price = typeof values.offer?.price === "string" ? parseMoneyInput(values.offer.price) : null;
  const photo = values.product?.photos?.find((p) => p?.url && /^https?:\/\//.test(p.url))?.url;
  const [failedPhoto, setFailedPhoto] = useState<string | null>(null);
  const methods = values.settings?.paymentMethods ?? [];
  return (
    <div
      data-testid="checkout-preview"
      className="overflow-hidden rounded-xl border shadow-sm"
      style={{ background: colors.background, color: colors.text }}
    >
      <div className="h-2" style={{ background: colors.primary }} />
      <div className="space-y-4 p-5">
        <div className="flex items-start gap-3">
          {photo && photo !== failedPhoto ? (
            // eslint-disable-next-line @next/next/no-img-element -- arbitrary merchant URLs, preview only
            <img src={photo} alt="" className="size-14 rounded-md border object-cover" onError={() => setFailedPhoto(photo)} />
          ) : (
            <div className="size-14 rounded-md opacity-20" style={{ background: colors.primary }} />
          )}
          <div className="min-w-0">
            <p className="truncate font-semibold">{values.product?.name || t("checkoutLinks.productName")}</p>
            <p className="truncate text-sm opacity-75">{values.offer?.name || t("checkoutLinks.offerName")}</p>
          </div>
        </div>
        <p className="text-2xl font-semibold tabular-nums">
          {price !== null ? formatBrl(price) : "R$ 0,00"}
          {values.offer?.currency && values.offer.currency !== "BRL" && (
            <span className="ml-2 text-xs font-normal opacity-60">{values.offer.currency}</span>
          )}
        </p>
        <div className="space-y-2">
          <p className="text-xs font-medium tracking-wide uppercase opacity-60">{t("checkoutLinks.previewBuyer")}</p>
          <div className="h-8 rounded-md border opacity-40" style={{ borderColor: colors.text }} />
          <div className="h-8 rounded-md border opacity-40" style={{ borderColor: colors.text }} />
        </div>
        <div className="flex flex-wrap gap-2">
          {methods.map((method) => (
            <span key={method} className="rounded-full border px-2 py-0.5 text-xs" style={{ borderColor: colors.primary }}>
              {method ? codeText("method", method) : null}
            </span>
          ))}
        </div>
        <div className="rounded-md py-2 text-center text-sm font-semibold" style={{ background: colors.primary, color: colors.buttonText }}>
          {t("checkoutLinks.previewPay")}
        </div>
      </div>
    </div>
  );
}
function SwitchField({
  control,
  name,
  label,
  description,
}: {
  control: Control<Values>;
  name: "settings.askForAddress" | "settings.useColors" | "prefill";
  label: string;
  description?: string;
}) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem className="flex items-center justify-between gap-4 rounded-md border p-3">
          <div className="space-y-0.5">
            <FormLabel>{label}</FormLabel>
            {description && <p className="text-[13px] text-muted-foreground">{description}</p>}
          </div>
          <FormControl>
            <Switch checked={Boolean(field.value)} onCheckedChange={field.onChange} />
          </FormControl>
        </FormItem>
      )}
    />
  );
}

function ProductFields({ control }: { control: Control<Values> }) {
  const t = useT();
  const photos = useFieldArray({ control, name: "product.photos" });
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("checkoutLinks.product")}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5 md:grid-cols-2">
        <TextField control={control} name="product.name" label={t("checkoutLinks.productName")} />
        <TextField control={control} name="product.externalId" label={t("checkoutLinks.externalId")} autoComplete="off" />
        <div className="space-y-2 md:col-span-2">
          <p className="text-sm font-medium">{t("checkoutLinks.photos")}</p>
          {photos.fields.map((photo, index) => (
            <div key={photo.id} className="flex items-start gap-2">
              <TextField
                control={control}
                name={`product.photos.${index}.url`}
                label={<span className="sr-only">{`${t("checkoutLinks.photos")} ${index + 1}`}</span>}
                placeholder="https://"
                className="flex-1 gap-0"
              />
              <Button
                type="button"
                variant="ghost"
                size="icon"
                aria-label={t("checkoutLinks.removePhoto")}
                onClick={() => photos.remove(index)}
              >
                <Trash2 />
              </Button>
            </div>
          ))}
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => photos.append({ url: "" })}
            disabled={photos.fields.length >= 10}
          >
            <Plus /> {t("checkoutLinks.addPhoto")}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function OfferFields({ control }: { control: Control<Values> }) {
  const { t, locale } = useI18n();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("checkoutLinks.offer")}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5 md:grid-cols-2">
        <TextField control={control} name="offer.name" label={t("checkoutLinks.offerName")} />
        <TextField
          control={control}
          name="offer.price"
          label={t("checkoutLinks.price")}
          inputMode="numeric"
          placeholder="0,00"
          transform={maskMoney}
        />
        <OfferTypeField control={control} />
        <SelectField
          control={control}
          name="offer.currency"
          label={t("checkoutLinks.currency")}
          options={CHECKOUT_CURRENCIES.map((c) => ({ value: c, label: c === "all" ? t("checkoutLinks.all") : c }))}
        />
        <SelectField
          control={control}
          name="offer.lang"
          label={t("checkoutLinks.lang")}
          options={CHECKOUT_LANGUAGES.map((l) => ({
            value: l,
            label: l === "all" ? t("checkoutLinks.allLanguages") : languageName(locale, l),
          }))}
        />
      </CardContent>
    </Card>
  );
}

function SettingsFields({ control }: { control: Control<Values> }) {
  const t = useT();
  const codeText = useCodeText();
  const useColors = useWatch({ control, name: "settings.useColors" });
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("checkoutLinks.settings")}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-5">
        <CheckboxGroup
          control={control}
          name="settings.paymentMethods"
          label={t("checkoutLinks.paymentMethods")}
          options={CHECKOUT_PAYMENT_METHODS.map((m) => ({ value: m, label: codeText("method", m) }))}
        />
        <CheckboxGroup
          control={control}
          name="settings.acceptedDocs"
          label={t("checkoutLinks.acceptedDocs")}
          options={CHECKOUT_DOCUMENTS.map((d) => ({ value: d, label: d }))}
        />
        <TextField control={control} name="settings.thankYouPage" label={t("checkoutLinks.thankYouPage")} placeholder="https://" />
        <SwitchField control={control} name="settings.askForAddress" label={t("checkoutLinks.askForAddress")} />
        <SwitchField control={control} name="settings.useColors" label={t("checkoutLinks.useColors")} />
        {useColors && (
          <div className="grid gap-4 sm:grid-cols-2">
            {CHECKOUT_COLOR_KEYS.map((key) => (
              <ColorField key={key} control={control} name={`settings.colors.${key}`} label={t(`checkoutLinks.colorKeys.${key}`)} />
            ))}
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/** The customer's data the checkout opens with, when the link is for one customer. */
function CustomerFields({ control }: { control: Control<Values> }) {
  const t = useT();
  const prefill = useWatch({ control, name: "prefill" });
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("checkoutLinks.customer")}</CardTitle>
        <CardDescription>{t("checkoutLinks.prefillHint")}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        <SwitchField control={control} name="prefill" label={t("checkoutLinks.prefill")} />
        {prefill && (
          <div className="grid gap-5 md:grid-cols-2">
            <TextField control={control} name="customer.name" label={t("checkoutLinks.customerName")} />
            <TextField control={control} name="customer.email" label={t("checkoutLinks.customerEmail")} type="email" />
            <TextField
              control={control}
              name="customer.phone"
              label={t("checkoutLinks.customerPhone")}
              transform={maskPhone}
              inputMode="tel"
            />
            <TextField control={control} name="customer.document" label={t("checkoutLinks.customerDocument")} transform={maskCpfCnpj} />
            <TextField
              control={control}
              name="customer.address.zipCode"
              label={t("checkoutLinks.address.zipCode")}
              transform={maskCep}
              inputMode="numeric"
            />
            <TextField control={control} name="customer.address.street" label={t("checkoutLinks.address.street")} />
            <TextField control={control} name="customer.address.number" label={t("checkoutLinks.address.number")} />
            <TextField control={control} name="customer.address.complement" label={t("checkoutLinks.address.complement")} />
            <TextField control={control} name="customer.address.neighborhood" label={t("checkoutLinks.address.neighborhood")} />
            <TextField control={control} name="customer.address.city" label={t("checkoutLinks.address.city")} />
            <TextField
              control={control}
              name="customer.address.state"
              label={t("checkoutLinks.address.state")}
              maxLength={2}
              transform={(v) => v.toUpperCase()}
            />
            <TextField
              control={control}
              name="customer.address.country"
              label={t("checkoutLinks.address.country")}
              maxLength={2}
              transform={(v) => v.toUpperCase()}
              placeholder="BR"
            />
          </div>
        )}
      </CardContent>
    </Card>
  );
}

export function CheckoutLinkForm({ accountId, externalId }: { accountId: string; externalId: string }) {
  const t = useT();
  const router = useRouter();
  const [refusal, setRefusal] = useState<{ error: string; detail?: string } | null>(null);
  const { form, onSubmit, pending, events } = useActionForm({
    schema: () => import("@/lib/checkout-links/schemas").then((m) => m.checkoutLinkFormSchema),
    defaultValues: {
      product: { externalId, name: "", photos: [{ url: "" }] },
      offer: { name: "", price: "", offerType: "UNIQUE", currency: "BRL", lang: "pt-BR" },
      settings: {
        paymentMethods: ["PIX", "CREDIT_CARD", "BOLETO"],
        acceptedDocs: ["CPF"],
        thankYouPage: "",
        askForAddress: false,
        useColors: false,
        colors: DEFAULT_CHECKOUT_COLORS,
      },
      prefill: false,
      customer: { name: "", email: "", phone: "", document: "", address: {} },
    },
    action: (values) => {
      setRefusal(null);
      return createCheckoutLinkAction({ ...values, accountId });
    },
    onSuccess: ({ id }) => {
      toast.success(t("checkoutLinks.created"));
      router.push(accountPath(accountId, `/checkout-links/${id}`));
    },
    onFailure: (failure) => {
      if (failure.error === "errors.validation") return;
      setRefusal({ error: failure.error, detail: failure.message && t("vocab.reasonFromGateway", { reason: failure.message }) });
      window.scrollTo({ top: 0, behavior: "smooth" });
      return "shown";
    },
  });

  return (
    <Form {...form}>
      <form {...events} onSubmit={onSubmit} noValidate className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-6">
          {refusal && (
            <Alert variant="destructive" data-testid="checkout-error">
              <AlertTitle className="line-clamp-none">
                {t(refusal.error === "checkoutLinks.errors.forbidden" ? "checkoutLinks.forbiddenTitle" : refusal.error)}
              </AlertTitle>
              <AlertDescription>
                {refusal.error === "checkoutLinks.errors.forbidden" && <p>{t("checkoutLinks.forbiddenExplanation")}</p>}
                {refusal.detail && <p className="font-medium">{refusal.detail}</p>}
              </AlertDescription>
            </Alert>
          )}
          <ProductFields control={form.control} />
          <OfferFields control={form.control} />
          <SettingsFields control={form.control} />
          <CustomerFields control={form.control} />
          <div className="flex justify-end">
            <Button type="submit" loading={pending}>
              {t("checkoutLinks.create")}
            </Button>
          </div>
        </div>
        <aside className="space-y-2 lg:sticky lg:top-20 lg:self-start">
          <p className="text-sm font-medium text-muted-foreground">{t("checkoutLinks.preview")}</p>
          <CheckoutPreview control={form.control} />
        </aside>
      </form>
    </Form>
  );
}
