import Link from "next/link";
import { Download } from "lucide-react";
import { Button } from "@/components/ui/button";
import { getI18n } from "@/lib/i18n/server";
import { cn } from "@/lib/utils";
import { PeriodDateField } from "./period-date-field";
import { PERIOD_PRESETS, type SalesQuery } from "./query";
import type { SalesFormat } from "./format";

/** Preset periods as links, and a plain GET form for any two dates (its defaults submit before any script loads). */
export async function PeriodPicker({ path, query, fmt }: { path: string; query: SalesQuery; fmt: SalesFormat }) {
  const { t } = await getI18n();
  const keep = query.dimension !== "utm_source" ? `&dimension=${query.dimension}` : "";
  return (
    <div className="flex flex-col gap-3 rounded-lg border bg-card p-3 lg:flex-row lg:items-end lg:justify-between">
      <div className="space-y-1.5">
        <p className="text-xs font-medium text-muted-foreground">{t("sales.period.label")}</p>
        <div className="flex flex-wrap gap-1.5" data-testid="period-presets">
          {PERIOD_PRESETS.map((preset) => (
            <Link
              key={preset}
              href={`${path}?period=${preset}${keep}`}
              aria-current={query.preset === preset ? "true" : undefined}
              className={cn(
                "rounded-md border px-2.5 py-1 text-sm hover:bg-muted focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none",
                query.preset === preset && "border-primary bg-primary/10 font-medium text-foreground",
              )}
            >
              {t(`sales.period.presets.${preset}`)}
            </Link>
          ))}
        </div>
        <p className="text-sm" data-testid="period-range">
          <span className="font-medium">{t("sales.period.range", { from: fmt.day(query.period.from), to: fmt.day(query.period.to) })}</span>
          <span className="text-muted-foreground">
            {" · "}
            {t("sales.period.comparedWith", { from: fmt.day(query.comparison.from), to: fmt.day(query.comparison.to) })}
          </span>
        </p>
      </div>
      <form method="get" action={path} className="flex flex-wrap items-end gap-2">
        {query.dimension !== "utm_source" && <input type="hidden" name="dimension" value={query.dimension} />}
        <PeriodDateField id="sales-period-from" name="from" label={t("sales.period.from")} defaultValue={query.period.from} />
        <PeriodDateField id="sales-period-to" name="to" label={t("sales.period.to")} defaultValue={query.period.to} />
        <Button type="submit" variant={query.preset === "custom" ? "default" : "outline"}>
          {t("sales.period.apply")}
        </Button>
      </form>
    </div>
  );
}

/** A link that downloads a table of the page as CSV, for the page's period. */
export async function ExportLink({ href, table }: { href: string; table: string }) {
  const { t } = await getI18n();
  return (
    <Button asChild variant="outline" size="sm">
      <a href={href} download aria-label={t("sales.export.label", { table })}>
        <Download /> {t("sales.export.csv")}
      </a>
    </Button>
  );
}
