import Link from "next/link";
import { Receipt } from "lucide-react";
import { StatusBadge } from "@/components/payments/status-badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { accountPath } from "@/lib/accounts/paths";
import { paymentInstructions } from "@/lib/charges/payment-instructions";
import { firstChargeOf } from "@/lib/charges/subscription-charge";
import type { Translate } from "@/lib/i18n/translate";
import { isPayable, stateOf, transactionMachine } from "@/lib/status/machine";
import { ClosedOutcome, obj, PaidOutcome, RawAnswer, str, type ChargeView, type Json } from "../frame";
import { CryptoInstructionsCard } from "./crypto";
import { PixInstructionsCard } from "./pix";

function recurrenceText(recurrence: Json, t: Translate): string {
  const type = str(recurrence.periodicityType);
  const n = recurrence.periodicity;
  // "Todo mês", "A cada 2 semanas": a period the console knows, with its plural; anything else as the gateway spelled it.
  const every =
    type && ["DAYS", "WEEKS", "MONTHS", "YEARS"].includes(type) && typeof n === "number"
      ? t(`charges.result.every.${type}`, { n })
      : t("charges.result.every.other", { n: String(n ?? ""), unit: type ?? "" });
  const first =
    typeof recurrence.firstChargeIn === "number" && recurrence.firstChargeIn > 0
      ? t("charges.result.firstAfter", { n: recurrence.firstChargeIn })
      : t("charges.result.firstNow");
  return `${every} · ${first}`;
}

/**
 * A subscription (Pix, card or crypto): its first charge's payment instructions from the creation
 * answer (when it carries them) until that charge is paid, then the receipt of that payment, or why it closed.
 */
export function SubscriptionOutcome({ view }: { view: ChargeView }) {
  const { row, t, amountOf, amountLabel } = view;
  const response = obj(row.response);
  const request = obj(row.request);
  const first = view.firstCharge ?? firstChargeOf(row.response);
  const charge = view.firstChargeRow;
  const product = obj(request.product);
  const recurrence = obj(request.subscription);
  const card = obj(request.card);
  const state = charge ? stateOf(transactionMachine, charge.status) : null;
  const closed = charge !== null && !isPayable(charge.status) && state !== "paid";
  const chargeAmount = (charge && amountOf(charge)) || amountLabel;
  // The first charge's instructions: from the subscription's answer, else from that charge's own lookup record.
  const firstPix = paymentInstructions("pix_charge", first.answer, charge?.gatewayRecord);
  const firstCrypto = firstPix ? null : paymentInstructions("crypto_charge", first.answer, charge?.gatewayRecord);
  const recorded: [string, React.ReactNode][] = [
    [t("charges.result.identifier"), row.identifier],
    [t("charges.fields.subscriptionProductName"), `${str(product.name) ?? ""} (${str(product.id) ?? ""})`],
    [t("charges.sections.recurrence"), recurrenceText(recurrence, t)],
    [t("charges.result.status"), <StatusBadge key="s" operationKind={row.kind} status={row.status} />],
  ];
  if (str(card.last4)) recorded.push([t("charges.result.card"), `${str(card.brand) ?? ""} ${str(card.bin) ?? ""}•••${str(card.last4)}`]);
  if (first.transactionId) {
    recorded.push([
      t("charges.result.firstCharge"),
      charge ? (
        <Link
          key="f"
          href={accountPath(charge.accountId, `/transactions/${charge.id}`)}
          className="text-primary font-mono hover:underline"
          data-testid="first-charge-id"
        >
          {first.transactionId}
        </Link>
      ) : (
        <span key="f" className="font-mono" data-testid="first-charge-id">
          {first.transactionId}
        </span>
      ),
    ]);
  }
  return (
    <div className="space-y-6" data-testid="subscription-result" data-first-charge={state ?? "none"}>
      {state === "paid" && charge ? (
        <PaidOutcome
          view={view}
          row={charge}
          amountLabel={chargeAmount}
          title={t("charges.result.subscriptionPaidTitle")}
          hint={t("charges.result.subscriptionPaidHint")}
        />
      ) : closed && charge && state ? (
        <ClosedOutcome view={view} row={charge} state={state} amountLabel={chargeAmount} />
      ) : firstPix?.method === "pix" ? (
        <PixInstructionsCard view={view} row={row} pix={firstPix} amountLabel={chargeAmount} />
      ) : firstCrypto?.method === "crypto" ? (
        <CryptoInstructionsCard crypto={firstCrypto} t={t} />
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Receipt className="text-primary size-5" /> {t("charges.result.subscriptionTitle")}
          </CardTitle>
          <CardDescription>{t("charges.result.recorded")}</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-3 text-sm sm:grid-cols-2">
            {recorded.map(([label, value]) => (
              <div key={label}>
                <dt className="text-muted-foreground text-xs">{label}</dt>
                <dd className="font-medium break-all">{value}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
      {/* The answer carries the payment instructions: once the charge is settled it is not shown. */}
      {state !== "paid" && !closed && <RawAnswer response={response} t={t} />}
    </div>
  );
}
