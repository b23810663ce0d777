import "server-only";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import type { ParamProblem } from "@/lib/http/search-params";
import { hasMessage, getI18n } from "@/lib/i18n/server";

/**
 * The page's word on the parameters of its address it dropped: one line per parameter, and the page renders on.
 * `labels` names a page's own parameters whose name means something else elsewhere (`from` of a charge form is a charge, not a date).
 */
export async function ParamsProblems({
  problems,
  labels = {},
}: {
  problems: readonly ParamProblem[];
  labels?: Partial<Record<string, `params.labels.${string}`>>;
}) {
  if (problems.length === 0) return null;
  const { t, locale } = await getI18n();
  const label = (param: string) =>
    labels[param] && hasMessage(locale, labels[param])
      ? t(labels[param] as "params.labels.from")
      : hasMessage(locale, `params.labels.${param}`) && param !== "other"
        ? t(`params.labels.${param}` as "params.labels.from")
        : t("params.labels.other", { name: param.slice(0, 40) });
  return (
    <Alert variant="warning" data-testid="params-problems">
      <AlertTitle>{t("params.title")}</AlertTitle>
      <AlertDescription>
        <ul className="space-y-0.5">
          {problems.map((problem) => (
            <li key={problem.param} data-param={problem.param}>
              {t("params.problem", { label: label(problem.param), reason: t(`params.reasons.${problem.reason}`) })}
            </li>
          ))}
        </ul>
        <p>{t("params.ignored")}</p>
      </AlertDescription>
    </Alert>
  );
}
