import "server-only";
import { param, parseSearchParams, type ParamProblem, type RawSearchParams } from "@/lib/http/search-params";
import { saoPauloDate } from "@/lib/i18n/format";
import { checkPeriod, InvalidPeriodError, lastDays, previousPeriod, type SalesPeriod } from "@/lib/sales/period";
import { ORIGIN_DIMENSIONS, type OriginDimension } from "@/lib/sales/queries";

export const PERIOD_PRESETS = ["7d", "30d", "90d", "month"] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];
const PRESET_DAYS: Record<Exclude<PeriodPreset, "month">, number> = { "7d": 7, "30d": 30, "90d": 90 };
export const DEFAULT_PRESET: PeriodPreset = "30d";

export type SalesQuery = {
  period: SalesPeriod;
  comparison: SalesPeriod;
  /** The preset shown as chosen; "custom" when the period came as dates. */
  preset: PeriodPreset | "custom";
  dimension: OriginDimension;
  problems: ParamProblem[];
  /** Dates that each parse but do not make a period (from after to, too long): the page says so and shows the default. */
  periodRefused: boolean;
  /** The period alone as a query string ("period=7d" or "from=…&to=…"), for links that set their own dimension. */
  periodSearch: string;
  /** The query string that keeps this period (and dimension) on the area's other pages and exports. */
  search: string;
};

function presetPeriod(preset: PeriodPreset, today: string): SalesPeriod {
  return preset === "month" ? { from: `${today.slice(0, 8)}01`, to: today } : lastDays(PRESET_DAYS[preset], today);
}

/** The period (and origin dimension) a sales page shows, from its address: bad values are dropped with a problem, the default is 30 days. */
export function salesQuery(raw: RawSearchParams, today = saoPauloDate()): SalesQuery {
  const { values, problems } = parseSearchParams(raw, {
    period: param.oneOf(PERIOD_PRESETS),
    from: param.day(),
    to: param.day(),
    dimension: param.oneOf(ORIGIN_DIMENSIONS),
  });
  let preset: PeriodPreset | "custom" = values.period ?? DEFAULT_PRESET;
  let period = presetPeriod(values.period ?? DEFAULT_PRESET, today);
  let periodRefused = false;
  if (values.from || values.to) {
    try {
      period = checkPeriod({ from: values.from ?? values.to!, to: values.to ?? values.from! });
      preset = "custom";
    } catch (error) {
      if (!(error instanceof InvalidPeriodError)) throw error;
      periodRefused = true;
    }
  }
  const dimension = values.dimension ?? "utm_source";
  const periodSearch = new URLSearchParams(preset === "custom" ? { from: period.from, to: period.to } : { period: preset }).toString();
  const search = values.dimension ? `?${periodSearch}&dimension=${values.dimension}` : `?${periodSearch}`;
  return { period, comparison: previousPeriod(period), preset, dimension, problems, periodRefused, periodSearch, search };
}
