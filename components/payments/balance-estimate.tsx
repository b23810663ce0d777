"use client";

import Link from "next/link";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { useI18n } from "@/lib/i18n/client";

/** The console's estimate of the available balance, as the balance page calculates it (lib/balance). */
export type BalanceEstimateValue = { availableCents: number; entryReadAt: string | null };

/**
 * Shown where money goes out: the estimated available balance, what it is calculated from, and a
 * warning when the amount is above it. Only a warning: the estimate can be wrong, the user may send.
 */
export function BalanceEstimate({
  estimate,
  amountCents,
  balanceHref,
}: {
  estimate: BalanceEstimateValue;
  /** What is about to go out, in cents; null while the amount is not a valid number. */
  amountCents: number | null;
  balanceHref: string;
}) {
  const { t, format } = useI18n();
  const available = format.money(estimate.availableCents / 100);
  const above = amountCents !== null && amountCents > estimate.availableCents;
  return (
    <div className="space-y-2" data-testid="balance-estimate" data-available-cents={estimate.availableCents}>
      <p className="text-sm">
        <span className="text-muted-foreground">{t("common.balanceEstimate.label")}: </span>
        <span className="font-medium tabular-nums">{available}</span>{" "}
        <Link href={balanceHref} className="text-xs underline underline-offset-2">
          {t("common.balanceEstimate.link")}
        </Link>
      </p>
      <p className="text-xs text-muted-foreground">
        {estimate.entryReadAt
          ? t("common.balanceEstimate.fromEntry", { readAt: format.dateTime(estimate.entryReadAt) })
          : t("common.balanceEstimate.fromMovements")}
      </p>
      {above && (
        <Alert variant="warning" data-testid="balance-warning">
          <AlertDescription>{t("common.balanceEstimate.above", { available })}</AlertDescription>
        </Alert>
      )}
    </div>
  );
}
