import { Alert, AlertDescription } from "@/components/ui/alert";
import { PageHeader } from "@/components/ui/page-header";
import { ParamsProblems } from "@/components/params-problems";
import { accountPath } from "@/lib/accounts/paths";
import { getI18n } from "@/lib/i18n/server";
import { MAX_PERIOD_DAYS } from "@/lib/sales/period";
import type { SalesFormat } from "./format";
import { PeriodPicker } from "./period-picker";
import type { SalesQuery } from "./query";
import { SalesTabs, type SalesSection } from "./sales-tabs";

/** The top of a period report: title, sections, what of the address was dropped, and the period picker. */
export async function SalesPeriodHeader({
  accountId,
  current,
  query,
  fmt,
}: {
  accountId: string;
  current: Exclude<SalesSection, "recovery">;
  query: SalesQuery;
  fmt: SalesFormat;
}) {
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t("sales.title")} description={t("sales.description")} className="pb-0" />
      <SalesTabs accountId={accountId} current={current} query={query.search} />
      <ParamsProblems problems={query.problems} />
      {query.periodRefused && (
        <Alert variant="warning" data-testid="period-refused">
          <AlertDescription>{t("sales.period.invalid", { max: MAX_PERIOD_DAYS })}</AlertDescription>
        </Alert>
      )}
      <PeriodPicker path={accountPath(accountId, current === "overview" ? "/sales" : "/sales/origin")} query={query} fmt={fmt} />
    </>
  );
}
