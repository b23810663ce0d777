"use client";

import { useState, useTransition, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { Search, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { DatePicker, isWholeDayOrEmpty } from "@/components/ui/date-picker";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { useT } from "@/lib/i18n/client";
import { parseMoneyInput } from "@/lib/br/money";
import { LEDGER_FILTER_KEYS, type LedgerFilterParams } from "@/lib/ledger/filter-keys";
import { accountPath } from "@/lib/accounts/paths";
import { useStatusWords } from "@/components/payments/status-badge";
import { useCodeText } from "@/components/ui/code-word";

const ANY = "__any__";

/** The filters live in the URL: submitting navigates, so a filtered list can be shared, bookmarked or saved as a view. */
export function TransactionFilters({
  accountId,
  initial,
  statuses,
  methods,
}: {
  accountId: string;
  initial: LedgerFilterParams;
  statuses: string[];
  methods: string[];
}) {
  const t = useT();
  const statusWords = useStatusWords();
  const codeText = useCodeText();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [values, setValues] = useState<LedgerFilterParams>(initial);
  const [amountErrors, setAmountErrors] = useState<{ min?: boolean; max?: boolean }>({});
  const set = (key: keyof LedgerFilterParams, value: string) => setValues((current) => ({ ...current, [key]: value }));
  const activeCount = Object.keys(initial).length;

  function submit(event: FormEvent) {
    event.preventDefault();
    const errors = {
      min: Boolean(values.min?.trim()) && parseMoneyInput(values.min!) === null,
      max: Boolean(values.max?.trim()) && parseMoneyInput(values.max!) === null,
    };
    setAmountErrors(errors);
    if (errors.min || errors.max) return;
    const params = new URLSearchParams();
    for (const key of LEDGER_FILTER_KEYS) {
      const value = values[key]?.trim();
      if (value) params.set(key, value);
    }
    startTransition(() => router.push(`${accountPath(accountId, "/transactions")}${params.size ? `?${params}` : ""}`));
  }

  function clear() {
    setValues({});
    setAmountErrors({});
    startTransition(() => router.push(accountPath(accountId, "/transactions")));
  }

  const selectOptions = (options: string[], current: string | undefined) =>
    current && !options.includes(current) ? [...options, current] : options;

  return (
    <Card className="py-4">
      <CardContent className="px-4">
        <form
          onSubmit={submit}
          className="grid grid-cols-2 gap-3 lg:grid-cols-6"
          aria-label={t("transactions.filters.title")}
          role="search"
        >
          <div className="col-span-2 space-y-1.5 lg:col-span-6">
            <Label htmlFor="filter-q">{t("transactions.filters.search")}</Label>
            <div className="relative">
              <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
              <Input
                id="filter-q"
                name="q"
                className="pl-8"
                value={values.q ?? ""}
                onChange={(e) => set("q", e.target.value)}
                placeholder={t("transactions.filters.searchPlaceholder")}
              />
            </div>
          </div>
          {(
            [
              ["status", statuses, (code: string) => statusWords("transaction", code)],
              ["method", methods, (code: string) => codeText("method", code)],
            ] as const
          ).map(([key, known, words]) => (
            <FilterSelect
              key={key}
              id={`filter-${key}`}
              label={t(`transactions.filters.${key}`)}
              anyLabel={t("transactions.filters.any")}
              value={values[key]}
              options={selectOptions(known, values[key])}
              words={words}
              onChange={(v) => set(key, v)}
            />
          ))}
          <div className="space-y-1.5">
            <Label htmlFor="filter-from">{t("transactions.filters.from")}</Label>
            <DatePicker
              id="filter-from"
              value={values.from ?? ""}
              onChange={(v) => isWholeDayOrEmpty(v) && set("from", v)}
              title={t("transactions.filters.daysHint")}
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="filter-to">{t("transactions.filters.to")}</Label>
            <DatePicker
              id="filter-to"
              value={values.to ?? ""}
              onChange={(v) => isWholeDayOrEmpty(v) && set("to", v)}
              title={t("transactions.filters.daysHint")}
            />
          </div>
          <AmountInput
            id="filter-min"
            label={t("transactions.filters.minAmount")}
            value={values.min}
            invalid={amountErrors.min}
            error={t("transactions.filters.invalidAmount")}
            onChange={(v) => set("min", v)}
          />
          <AmountInput
            id="filter-max"
            label={t("transactions.filters.maxAmount")}
            value={values.max}
            invalid={amountErrors.max}
            error={t("transactions.filters.invalidAmount")}
            onChange={(v) => set("max", v)}
          />
          <div className="col-span-2 flex flex-wrap items-center justify-end gap-2 lg:col-span-6">
            <span className="mr-auto text-xs text-muted-foreground">
              {activeCount > 0 ? t("transactions.filters.active", { count: activeCount }) : t("transactions.filters.daysHint")}
            </span>
            {activeCount > 0 && (
              <Button type="button" variant="ghost" size="sm" onClick={clear} disabled={pending}>
                <X aria-hidden />
                {t("transactions.filters.clear")}
              </Button>
            )}
            <Button type="submit" size="sm" loading={pending}>
              {t("transactions.filters.apply")}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function FilterSelect({
  id,
  label,
  anyLabel,
  value,
  options,
  words,
  onChange,
}: {
  id: string;
  label: string;
  anyLabel: string;
  value: string | undefined;
  options: string[];
  words: (code: string) => string;
  onChange: (value: string) => void;
}) {
  const labels = options.map(words);
  // Two spellings with the same words (OK and PENDING both await payment) keep the code beside them to tell them apart.
  const shared = (label: string) => labels.filter((other) => other === label).length > 1;
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Select
        id={id}
        className="w-full"
        value={value || ANY}
        onValueChange={(v) => onChange(v === ANY ? "" : v)}
        options={[
          { value: ANY, label: anyLabel },
          ...options.map((option, i) => ({
            value: option,
            label: (
              <span data-raw={option} title={option}>
                {labels[i]}
                {shared(labels[i]!) && <span className="ml-1.5 font-mono text-[10px] text-muted-foreground">{option}</span>}
              </span>
            ),
          })),
        ]}
      />
    </div>
  );
}

function AmountInput({
  id,
  label,
  value,
  invalid,
  error,
  onChange,
}: {
  id: string;
  label: string;
  value: string | undefined;
  invalid?: boolean;
  error: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div className="relative">
        <span className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-sm text-muted-foreground">R$</span>
        <Input
          id={id}
          inputMode="decimal"
          className="pl-9"
          value={value ?? ""}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? `${id}-error` : undefined}
          onChange={(e) => onChange(e.target.value)}
          placeholder="0,00"
        />
      </div>
      {invalid && (
        <p id={`${id}-error`} className="text-xs text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
