import Link from "next/link";
import { AlertTriangle } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { accountPath } from "@/lib/accounts/paths";
import { disabledDestinations } from "@/lib/destinations/queries";
import { getI18n } from "@/lib/i18n/server";

/** The console stopped sending to a producer's system by itself (a 410, or days of failures): every account page that shows it says so. */
export async function DisabledDestinationsBanner({ accountId }: { accountId: string }) {
  const disabled = await disabledDestinations(accountId);
  if (disabled.length === 0) return null;
  const { t, format } = await getI18n();
  return (
    <Alert variant="destructive" data-testid="destinations-disabled-banner">
      <AlertTriangle />
      <AlertTitle>{t("destinations.disabledBanner.title", { count: disabled.length })}</AlertTitle>
      <AlertDescription>
        <ul className="space-y-1">
          {disabled.map((d) => (
            <li key={d.id}>
              <Link href={accountPath(accountId, `/destinations/${d.id}`)} className="font-mono text-xs underline">
                {d.url}
              </Link>{" "}
              — {d.disabledReason ? t(`destinations.disabledReason.${d.disabledReason}`) : null}
              {d.disabledAt ? ` (${format.dateTimeZoned(d.disabledAt)})` : null}
            </li>
          ))}
        </ul>
        <p className="mt-1">{t("destinations.disabledBanner.hint")}</p>
      </AlertDescription>
    </Alert>
  );
}
