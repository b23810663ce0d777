import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { Translate } from "@/lib/i18n/translate";
import type { SubscriptionFilters } from "@/lib/subscriptions/queries";
import { STATE_NAMES } from "@/lib/subscriptions/rules";
import type { SubscriptionWords } from "./words";

const selectClass = "h-9 rounded-md border border-input bg-background px-2 text-sm";

/** The list's filters: a plain GET form, so they work before any JavaScript and live in the address. */
export function SubscriptionFiltersForm({
  t,
  words,
  filters,
  facets,
  clearHref,
}: {
  t: Translate;
  words: SubscriptionWords;
  filters: SubscriptionFilters;
  facets: { methods: string[]; products: string[] };
  clearHref: string;
}) {
  return (
    <form
      method="get"
      aria-label={t("subscriptions.filters.label")}
      className="flex flex-wrap items-end gap-3"
      data-testid="subscription-filters"
    >
      <label className="flex flex-col gap-1 text-sm">
        {t("subscriptions.filters.state")}
        <select name="state" defaultValue={filters.state ?? ""} className={selectClass}>
          <option value="">{t("subscriptions.filters.any")}</option>
          {STATE_NAMES.map((state) => (
            <option key={state} value={state}>
              {t(`subscriptions.state.${state === "overdue" ? "overdueAny" : state}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm">
        {t("subscriptions.filters.method")}
        <select name="method" defaultValue={filters.method ?? ""} className={selectClass}>
          <option value="">{t("subscriptions.filters.any")}</option>
          {facets.methods.map((method) => (
            <option key={method} value={method}>
              {words.method(method)}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm">
        {t("subscriptions.filters.product")}
        <select name="product" defaultValue={filters.product ?? ""} className={selectClass}>
          <option value="">{t("subscriptions.filters.any")}</option>
          {facets.products.map((product) => (
            <option key={product} value={product}>
              {product}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm">
        {t("subscriptions.filters.customer")}
        <Input
          name="q"
          defaultValue={filters.customer ?? ""}
          placeholder={t("subscriptions.filters.customerPlaceholder")}
          className="w-56"
        />
      </label>
      <Button type="submit" variant="secondary">
        {t("subscriptions.filters.apply")}
      </Button>
      <Button asChild variant="ghost">
        <Link href={clearHref}>{t("subscriptions.filters.clear")}</Link>
      </Button>
    </form>
  );
}
