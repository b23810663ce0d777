import Link from "next/link";
import { AlertTriangle, CopyPlus } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { accountPath } from "@/lib/accounts/paths";
import type { ChargeFormKind } from "@/lib/charges/form-values";
import type { ChargePrefill } from "@/lib/charges/prefill";
import { getI18n } from "@/lib/i18n/server";

const linkClass = "font-medium underline underline-offset-4";
// The title carries the old identifier: it wraps (anywhere, on a phone) rather than being cut off.
const titleClass = "line-clamp-none [overflow-wrap:anywhere]";

/** Above a form opened from an old charge: what was copied from which one, or why nothing was. */
export async function PrefillNotice({
  accountId,
  kind,
  prefill,
  hasCard,
}: {
  accountId: string;
  kind: ChargeFormKind;
  prefill: ChargePrefill;
  hasCard: boolean;
}) {
  const { t, format } = await getI18n();
  if (prefill.state === "notFound") {
    return (
      <Alert variant="warning" data-testid="prefill-notice" data-state="notFound">
        <AlertTriangle />
        <AlertTitle>{t("charges.prefill.notFoundTitle")}</AlertTitle>
        <AlertDescription>{t("charges.prefill.notFound")}</AlertDescription>
      </Alert>
    );
  }
  const { source } = prefill;
  if (prefill.state === "otherKind") {
    const other = prefill.source.kind;
    return (
      <Alert variant="warning" data-testid="prefill-notice" data-state="otherKind">
        <AlertTriangle />
        <AlertTitle className={titleClass}>{t("charges.prefill.otherKindTitle", { identifier: source.identifier })}</AlertTitle>
        <AlertDescription className="space-y-1">
          <p>
            {other
              ? t("charges.prefill.otherKind", { kind: t(`charges.kinds.${other}`), thisKind: t(`charges.kinds.${kind}`) })
              : t("charges.prefill.notConsole")}
          </p>
          <p className="flex flex-wrap gap-x-4">
            <Link className={linkClass} href={accountPath(accountId, `/transactions/${source.id}`)}>
              {t("charges.prefill.open")}
            </Link>
            {other && (
              <Link className={linkClass} href={`${accountPath(accountId, `/charges/new/${other}`)}?from=${source.id}`}>
                {t("charges.prefill.useItsKind", { kind: t(`charges.kinds.${other}`) })}
              </Link>
            )}
          </p>
        </AlertDescription>
      </Alert>
    );
  }
  if (prefill.renewal) {
    const { renewal } = prefill;
    return (
      <Alert data-testid="prefill-notice" data-state="renewal">
        <CopyPlus />
        <AlertTitle className={titleClass}>
          {t("charges.prefill.renewalTitle", { number: renewal.number, identifier: source.identifier })}
        </AlertTitle>
        <AlertDescription className="space-y-1">
          <p>{t("charges.prefill.renewalBody")}</p>
          <p className="flex flex-wrap gap-x-4">
            <Link
              className={linkClass}
              href={accountPath(accountId, `/subscriptions/${renewal.subscriptionId}`)}
              data-testid="prefill-subscription"
            >
              {renewal.subscriptionIdentifier
                ? t("charges.prefill.renewalSubscription", { identifier: renewal.subscriptionIdentifier })
                : t("charges.prefill.renewalSubscriptionUnnamed")}
            </Link>
            <Link className={linkClass} href={accountPath(accountId, `/transactions/${source.id}`)} data-testid="prefill-source">
              {t("charges.prefill.open")}
            </Link>
          </p>
        </AlertDescription>
      </Alert>
    );
  }
  const dueDate = prefill.values.dueDate;
  return (
    <Alert data-testid="prefill-notice" data-state="copied">
      <CopyPlus />
      <AlertTitle className={titleClass}>{t("charges.prefill.title", { identifier: source.identifier })}</AlertTitle>
      <AlertDescription className="space-y-1">
        <p>{t("charges.prefill.body")}</p>
        {dueDate && <p>{t("charges.prefill.dueDate", { date: format.date(`${dueDate}T12:00:00Z`) })}</p>}
        {hasCard && <p>{t("charges.prefill.card")}</p>}
        <p>
          <Link className={linkClass} href={accountPath(accountId, `/charges/${source.id}`)} data-testid="prefill-source">
            {t("charges.prefill.open")}
          </Link>
        </p>
      </AlertDescription>
    </Alert>
  );
}
