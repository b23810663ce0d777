"use client";

import { useMemo, type ReactNode } from "react";
import { useFieldArray, useFormContext, useWatch, type Control } from "react-hook-form";
import { Plus, Trash2 } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { DateField, SelectField, TextField } from "@/components/forms/fields";
import { useI18n } from "@/lib/i18n/client";
import { cardBrand, maskCardExpiry, maskCardNumberInput, maskCep, maskCpfCnpj, maskMoney, maskPhone } from "@/lib/br";
import type { ChargeFormKind, ChargeFormValues } from "@/lib/charges/form-values";
import { saoPauloDate } from "@/lib/i18n/format";
import { nextChargeDates, toIsoDate } from "@/lib/charges/recurrence";
import { PERIODICITY_TYPES } from "@/lib/gateway/constants";

type SectionProps = { control: Control<ChargeFormValues> };

export function Section({
  title,
  description,
  children,
  action,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  action?: ReactNode;
}) {
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

export function CardSection({ control, requestIp, buyerIp }: SectionProps & { requestIp: string | null; buyerIp: string | null }) {
  const { t } = useI18n();
  const number = useWatch({ control, name: "card.number" });
  const clientIp = useWatch({ control, name: "clientIp" });
  const { setValue } = useFormContext<ChargeFormValues>();
  const brand = cardBrand(number ?? "");
  return (
    <Section
      title={t("charges.sections.card")}
      action={
        brand ? (
          <Badge variant="secondary" data-testid="card-brand">
            {t("charges.brandDetected", { brand: brand.toUpperCase() })}
          </Badge>
        ) : null
      }
    >
      <div className="grid gap-4 sm:grid-cols-6">
        <TextField
          control={control}
          name="card.number"
          label={t("charges.fields.cardNumber")}
          inputMode="numeric"
          autoComplete="off"
          placeholder="0000 0000 0000 0000"
          transform={maskCardNumberInput}
          className="sm:col-span-3"
        />
        <TextField
          control={control}
          name="card.expiresAt"
          label={t("charges.fields.cardExpiry")}
          placeholder="12/30"
          inputMode="numeric"
          autoComplete="off"
          transform={maskCardExpiry}
          className="sm:col-span-2"
        />
        <TextField
          control={control}
          name="card.cvv"
          label={t("charges.fields.cvv")}
          inputMode="numeric"
          autoComplete="off"
          maxLength={4}
          transform={(v) => v.replace(/\D/g, "")}
          className="sm:col-span-1"
        />
        <TextField
          control={control}
          name="card.owner"
          label={t("charges.fields.cardOwner")}
          autoComplete="off"
          transform={(v) => v.toUpperCase()}
          className="sm:col-span-4"
        />
        <TextField
          control={control}
          name="card.statementDescriptor"
          label={t("charges.fields.statementDescriptor")}
          maxLength={22}
          className="sm:col-span-2"
        />
        <TextField
          control={control}
          name="clientIp"
          label={t("charges.fields.clientIp")}
          inputMode="decimal"
          placeholder="203.0.113.10"
          className="sm:col-span-6"
          description={
            <>
              {t("charges.fields.clientIpWhy")}{" "}
              {requestIp && clientIp === requestIp ? t("charges.fields.clientIpHint", { ip: requestIp }) : null}
              {buyerIp && clientIp !== buyerIp && (
                <Button
                  type="button"
                  variant="link"
                  size="sm"
                  className="h-auto p-0"
                  data-testid="use-buyer-ip"
                  onClick={() => setValue("clientIp", buyerIp, { shouldValidate: true, shouldDirty: true })}
                >
                  {t("charges.fields.clientIpOffer", { ip: buyerIp })}
                </Button>
              )}
            </>
          }
        />
      </div>
    </Section>
  );
}

/** A list the user grows and shrinks: products, splits, metadata. Each row ends with its remove button. */
function RowsEditor({
  title,
  addLabel,
  emptyText,
  onAdd,
  rows,
  onRemove,
  rowClassName,
  rowTestId,
  renderRow,
  footer,
}: {
  title: string;
  addLabel: string;
  emptyText: string;
  onAdd: () => void;
  rows: { id: string }[];
  onRemove: (index: number) => void;
  rowClassName: string;
  rowTestId: string;
  renderRow: (index: number) => ReactNode;
  footer?: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <Section
      title={title}
      action={
        <Button type="button" variant="outline" size="sm" onClick={onAdd}>
          <Plus /> {addLabel}
        </Button>
      }
    >
      {rows.length === 0 ? (
        <p className="text-muted-foreground text-sm">{emptyText}</p>
      ) : (
        <div className="space-y-3">
          {rows.map((row, index) => (
            <div key={row.id} className={`grid items-start gap-3 ${rowClassName}`} data-testid={`${rowTestId}-${index}`}>
              {renderRow(index)}
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="sm:mt-6"
                aria-label={t("charges.remove")}
                onClick={() => onRemove(index)}
              >
                <Trash2 />
              </Button>
            </div>
          ))}
        </div>
      )}
      {footer}
    </Section>
  );
}

export function ProductsSection({ control, physical }: SectionProps & { physical: boolean }) {
  const { t } = useI18n();
  const { fields, append, remove } = useFieldArray({ control, name: "products" });
  return (
    <RowsEditor
      title={t("charges.sections.products")}
      rowTestId="product"
      addLabel={t("charges.addProduct")}
      emptyText={t("charges.noProducts")}
      onAdd={() => append({ id: `p${fields.length + 1}`, name: "", quantity: "1", price: "", physical: false })}
      rows={fields}
      onRemove={remove}
      rowClassName="rounded-lg border p-3 sm:grid-cols-[90px_minmax(0,1fr)_70px_120px_auto_auto]"
      renderRow={(index) => (
        <>
          <TextField control={control} name={`products.${index}.id`} label={t("charges.fields.productId")} />
          <TextField control={control} name={`products.${index}.name`} label={t("charges.fields.productName")} />
          <TextField
            control={control}
            name={`products.${index}.quantity`}
            label={t("charges.fields.quantity")}
            inputMode="numeric"
            transform={(v) => v.replace(/\D/g, "")}
          />
          <TextField
            control={control}
            name={`products.${index}.price`}
            label={t("charges.fields.unitPrice")}
            inputMode="numeric"
            placeholder="0,00"
            transform={maskMoney}
          />
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
        </>
      )}
    />
  );
}

export function SplitsSection({ control }: SectionProps) {
  const { t } = useI18n();
  const { fields, append, remove } = useFieldArray({ control, name: "splits" });
  return (
    <RowsEditor
      title={t("charges.sections.splits")}
      rowTestId="split"
      addLabel={t("charges.addSplit")}
      emptyText={t("charges.noSplits")}
      onAdd={() => append({ producerId: "", amount: "" })}
      rows={fields}
      onRemove={remove}
      rowClassName="sm:grid-cols-[minmax(0,1fr)_160px_auto]"
      renderRow={(index) => (
        <>
          <TextField control={control} name={`splits.${index}.producerId`} label={t("charges.fields.producerId")} />
          <TextField
            control={control}
            name={`splits.${index}.amount`}
            label={t("charges.fields.splitAmount")}
            inputMode="numeric"
            placeholder="0,00"
            transform={maskMoney}
          />
        </>
      )}
      footer={
        <FormField
          control={control}
          name="splits"
          render={() => (
            <FormItem>
              <FormMessage />
            </FormItem>
          )}
        />
      }
    />
  );
}

export function OriginSection({ control }: SectionProps) {
  const { t } = useI18n();
  return (
    <Section title={t("charges.sections.origin")}>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          control={control}
          name="origin"
          label={t("charges.fields.origin")}
          placeholder={t("charges.fields.originPlaceholder")}
          autoComplete="off"
          description={t("charges.fields.originHint")}
          className="sm:col-span-2"
        />
      </div>
    </Section>
  );
}

export function MetadataSection({ control }: SectionProps) {
  const { t } = useI18n();
  const { fields, append, remove } = useFieldArray({ control, name: "metadata" });
  return (
    <RowsEditor
      title={t("charges.sections.metadata")}
      rowTestId="metadata"
      addLabel={t("charges.addMetadata")}
      emptyText={t("charges.noMetadata")}
      onAdd={() => append({ key: "", value: "" })}
      rows={fields}
      onRemove={remove}
      rowClassName="sm:grid-cols-[200px_minmax(0,1fr)_auto]"
      renderRow={(index) => (
        <>
          <TextField control={control} name={`metadata.${index}.key`} label={t("charges.fields.key")} />
          <TextField control={control} name={`metadata.${index}.value`} label={t("charges.fields.value")} />
        </>
      )}
    />
  );
}

export function SubscriptionSections({ control }: SectionProps) {
  const { t, locale } = useI18n();
  const recurrence = useWatch({ control, name: "subscription" });
  const preview = useMemo(() => {
    const periodicity = Number(recurrence?.periodicity);
    const firstChargeIn = Number(recurrence?.firstChargeIn || 0);
    const type = recurrence?.periodicityType;
    if (
      !PERIODICITY_TYPES.includes(type) ||
      !Number.isInteger(periodicity) ||
      periodicity < 1 ||
      !Number.isInteger(firstChargeIn) ||
      firstChargeIn < 0
    )
      return [];
    const today = new Date();
    return nextChargeDates(
      { year: today.getFullYear(), month: today.getMonth() + 1, day: today.getDate() },
      { periodicityType: type, periodicity, firstChargeIn },
      4,
    ).map(toIsoDate);
  }, [recurrence]);
  const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  return (
    <>
      <Section title={t("charges.sections.product")}>
        <div className="grid gap-4 sm:grid-cols-[140px_minmax(0,1fr)_160px]">
          <TextField control={control} name="product.id" label={t("charges.fields.subscriptionProductId")} />
          <TextField control={control} name="product.name" label={t("charges.fields.subscriptionProductName")} />
          <TextField
            control={control}
            name="product.price"
            label={t("charges.fields.subscriptionProductPrice")}
            inputMode="numeric"
            placeholder="0,00"
            transform={maskMoney}
          />
        </div>
      </Section>
      <Section title={t("charges.sections.recurrence")}>
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField
            control={control}
            name="subscription.periodicity"
            label={t("charges.fields.periodicity")}
            inputMode="numeric"
            transform={(v) => v.replace(/\D/g, "")}
          />
          <SelectField
            control={control}
            name="subscription.periodicityType"
            label={t("charges.fields.periodicityType")}
            options={PERIODICITY_TYPES.map((value) => ({ value, label: t(`vocab.periodicity.${value}`) }))}
          />
          <TextField
            control={control}
            name="subscription.firstChargeIn"
            label={t("charges.fields.firstChargeIn")}
            inputMode="numeric"
            transform={(v) => v.replace(/\D/g, "")}
          />
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

export function ClientSection({ control }: SectionProps) {
  const { t } = useI18n();
  return (
    <Section title={t("charges.sections.client")}>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField control={control} name="client.name" label={t("charges.fields.name")} autoComplete="off" className="sm:col-span-2" />
        <TextField control={control} name="client.email" label={t("charges.fields.email")} type="email" autoComplete="off" />
        <TextField
          control={control}
          name="client.phone"
          label={t("charges.fields.phone")}
          inputMode="tel"
          placeholder="(11) 99999-9999"
          transform={maskPhone}
        />
        <TextField
          control={control}
          name="client.document"
          label={t("charges.fields.document")}
          placeholder="000.000.000-00"
          transform={maskCpfCnpj}
        />
      </div>
    </Section>
  );
}

export function AddressSection({ control }: SectionProps) {
  const { t } = useI18n();
  return (
    <Section title={t("charges.sections.address")}>
      <div className="grid gap-4 sm:grid-cols-6">
        <TextField
          control={control}
          name="address.country"
          label={t("charges.fields.country")}
          maxLength={2}
          className="sm:col-span-1"
          transform={(v) => v.toUpperCase()}
        />
        <TextField
          control={control}
          name="address.zipCode"
          label={t("charges.fields.zipCode")}
          inputMode="numeric"
          placeholder="00000-000"
          transform={maskCep}
          className="sm:col-span-2"
        />
        <TextField
          control={control}
          name="address.state"
          label={t("charges.fields.state")}
          maxLength={2}
          className="sm:col-span-1"
          transform={(v) => v.toUpperCase()}
        />
        <TextField control={control} name="address.city" label={t("charges.fields.city")} className="sm:col-span-2" />
        <TextField control={control} name="address.street" label={t("charges.fields.street")} className="sm:col-span-4" />
        <TextField control={control} name="address.number" label={t("charges.fields.number")} className="sm:col-span-2" />
        <TextField control={control} name="address.neighborhood" label={t("charges.fields.neighborhood")} className="sm:col-span-3" />
        <TextField control={control} name="address.complement" label={t("charges.fields.complement")} className="sm:col-span-3" />
      </div>
    </Section>
  );
}

export function CryptoSection({ control, kind }: SectionProps & { kind: ChargeFormKind }) {
  const { t } = useI18n();
  return (
    <Section title={t("charges.sections.crypto")}>
      <div className="grid gap-4 sm:grid-cols-3">
        {kind === "crypto" && (
          <TextField
            control={control}
            name="currency"
            label={t("charges.fields.currency")}
            list="charges-fiat"
            transform={(v) => v.toUpperCase()}
          />
        )}
        <TextField
          control={control}
          name="cryptoCurrency"
          label={t("charges.fields.cryptoCurrency")}
          list="charges-crypto"
          transform={(v) => v.toUpperCase()}
        />
        <TextField
          control={control}
          name="network"
          label={t("charges.fields.network")}
          list="charges-network"
          transform={(v) => v.toUpperCase()}
        />
      </div>
      <datalist id="charges-fiat">
        {["BRL", "USD"].map((v) => (
          <option key={v} value={v} />
        ))}
      </datalist>
      <datalist id="charges-crypto">
        {["USDT", "USDC", "BTC", "ETH"].map((v) => (
          <option key={v} value={v} />
        ))}
      </datalist>
      <datalist id="charges-network">
        {["ETHEREUM", "POLYGON", "BSC", "TRON", "SOLANA", "BITCOIN"].map((v) => (
          <option key={v} value={v} />
        ))}
      </datalist>
    </Section>
  );
}

export function FeesSection({ control }: SectionProps) {
  const { t } = useI18n();
  return (
    <Section title={t("charges.sections.fees")}>
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField
          control={control}
          name="shippingFee"
          label={t("charges.fields.shippingFee")}
          inputMode="numeric"
          placeholder="0,00"
          transform={maskMoney}
        />
        <TextField
          control={control}
          name="extraFee"
          label={t("charges.fields.extraFee")}
          inputMode="numeric"
          placeholder="0,00"
          transform={maskMoney}
        />
        <TextField
          control={control}
          name="discount"
          label={t("charges.fields.discount")}
          inputMode="numeric"
          placeholder="0,00"
          transform={maskMoney}
        />
      </div>
    </Section>
  );
}

export function DueDateSection({ control }: SectionProps) {
  const { t } = useI18n();
  return (
    <Section title={t("charges.sections.delivery")}>
      <div className="grid gap-4 sm:grid-cols-3">
        <DateField control={control} name="dueDate" label={t("charges.fields.dueDate")} min={saoPauloDate()} />
      </div>
    </Section>
  );
}
