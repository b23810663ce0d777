"use client";

import { CodeWord } from "@/components/ui/code-word";
import { ModeBadge } from "@/components/shell/mode-badge";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { BalanceEstimate, type BalanceEstimateValue } from "@/components/payments/balance-estimate";
import { formatDocument, toCents } from "@/lib/br";
import { useI18n } from "@/lib/i18n/client";
import type { TransferInput } from "@/lib/transfers/schemas";
import { accountPath } from "@/lib/accounts/paths";

function SummaryRow({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[12rem_1fr] sm:gap-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm font-medium break-words">{children}</dd>
    </div>
  );
}

/** The transfer as it will be sent, read back before the password is asked for. */
function ReviewSummary({
  account,
  review,
  balance,
  clientIp,
}: {
  account: { id: string; name: string; mode: "test" | "live" };
  review: TransferInput;
  balance: BalanceEstimateValue | null;
  clientIp: string | null;
}) {
  const { t, format } = useI18n();
  const amount = format.money(review.amount);
  return (
    <dl className="divide-y">
      <SummaryRow label={t("transfers.fromAccount")}>
        <span className="flex flex-wrap items-center gap-2" data-testid="review-account" data-account-id={account.id}>
          {account.name} <ModeBadge mode={account.mode} />
        </span>
        <span className="block text-muted-foreground">{t(account.mode === "live" ? "transfers.liveMoney" : "transfers.testMoney")}</span>
      </SummaryRow>
      <SummaryRow label={t("transfers.receiver")}>
        {review.owner.name}
        <span className="block text-muted-foreground">
          <CodeWord group="documentType" code={review.owner.document.type} /> {formatDocument(review.owner.document.number)}
        </span>
      </SummaryRow>
      <SummaryRow label={t("transfers.pixKey")}>
        <span className="font-mono">{review.pix.key}</span>
        <CodeWord group="pixKeyType" code={review.pix.type} className="block text-muted-foreground" />
      </SummaryRow>
      <SummaryRow label={t("transfers.amount")}>
        <span className="text-lg">{amount}</span>
        {balance && (
          <BalanceEstimate estimate={balance} amountCents={toCents(review.amount)} balanceHref={accountPath(account.id, "/balance")} />
        )}
      </SummaryRow>
      <SummaryRow label={t("transfers.feeChoice")}>
        {review.discountFeeOfReceiver ? t("transfers.feeFromReceiver") : t("transfers.feeNotFromReceiver")}
        <span className="block text-muted-foreground">
          {t("transfers.receiverGets")}:{" "}
          {review.discountFeeOfReceiver ? t("transfers.receiverGetsMinusFee", { amount }) : t("transfers.receiverGetsFull", { amount })}
        </span>
      </SummaryRow>
      <SummaryRow label={t("transfers.ownerIp")}>
        <span className="font-mono" data-testid="review-owner-ip">
          {clientIp ?? "—"}
        </span>
        <span className="block text-[13px] font-normal text-muted-foreground">{t("transfers.ownerIpHint")}</span>
      </SummaryRow>
      <SummaryRow label={t("transfers.identifier")}>
        <span className="font-mono text-xs">{review.identifier}</span>
      </SummaryRow>
    </dl>
  );
}

/** `gatewaySaid`: the gateway's own text when the console explains the refusal in its words (tooltip only). */
export type Refusal = { title: string; detail?: string; gatewaySaid?: string };

export function RefusalAlert({ refusal }: { refusal: Refusal }) {
  return (
    <Alert variant="destructive" data-testid="transfer-refusal">
      <AlertTitle className="line-clamp-none">{refusal.title}</AlertTitle>
      {refusal.detail && (
        <AlertDescription title={refusal.gatewaySaid} data-gateway-message={refusal.gatewaySaid}>
          {refusal.detail}
        </AlertDescription>
      )}
    </Alert>
  );
}

/** The review card; `children` are its footer's buttons (back to the form, send). */
export function ReviewCard({
  children,
  ...summary
}: {
  account: { id: string; name: string; mode: "test" | "live" };
  review: TransferInput;
  balance: BalanceEstimateValue | null;
  clientIp: string | null;
  children: React.ReactNode;
}) {
  const { t } = useI18n();
  return (
    <Card data-testid="transfer-review">
      <CardHeader>
        <CardTitle>{t("transfers.reviewTitle")}</CardTitle>
        <CardDescription>{t("transfers.reviewDescription")}</CardDescription>
      </CardHeader>
      <CardContent>
        <ReviewSummary {...summary} />
      </CardContent>
      <CardFooter className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{children}</CardFooter>
    </Card>
  );
}
