import { AlertTriangle, CheckCircle2, XCircle } from "lucide-react";
import { MaskedCard } from "@/components/payments/masked-card";
import { Card, CardContent } from "@/components/ui/card";
import { obj, OrderLinks, str, type ChargeView } from "../frame";

/** A card charge: approved, declined (with the gateway's reason) or still pending, beside the masked card. */
export function CardChargeOutcome({ view }: { view: ChargeView }) {
  const { row, t, amountLabel } = view;
  const response = obj(row.response);
  const request = obj(row.request);
  const card = obj(request.card);
  const reason = str(response.errorDescription) ?? str(obj(row.gatewayRecord).errorDescription);
  const declined = row.status === "FAILED" || !!reason;
  const approved = !declined && (row.status === "OK" || row.status === "COMPLETED");
  const installments = typeof request.installments === "number" ? request.installments : 1;
  const Icon = declined ? XCircle : approved ? CheckCircle2 : AlertTriangle;
  return (
    <Card data-testid="card-result" data-outcome={declined ? "declined" : approved ? "approved" : "pending"}>
      <CardContent className="grid gap-6 md:grid-cols-[minmax(0,1fr)_auto]">
        <div className="space-y-4">
          <div className={declined ? "text-destructive" : approved ? "text-success" : "text-warning"}>
            <Icon className="size-10" aria-hidden />
            <div className="mt-2 text-2xl font-semibold" data-testid="card-outcome">
              {declined ? t("charges.result.cardDeclined") : approved ? t("charges.result.cardApproved") : t("charges.result.cardPending")}
            </div>
          </div>
          <div className="text-3xl font-semibold tabular-nums">
            {amountLabel}
            {installments > 1 && (
              <span className="text-muted-foreground ml-2 text-base font-normal">
                {t("charges.result.installments", { n: installments })}
              </span>
            )}
          </div>
          {reason && (
            <p className="text-sm" data-testid="decline-reason">
              {t("vocab.reasonFromGateway", { reason })}
            </p>
          )}
          <OrderLinks orderUrl={str(obj(response.order).url)} t={t} />
        </div>
        <MaskedCard
          brand={str(card.brand)}
          bin={str(card.bin)}
          last4={str(card.last4)}
          owner={str(card.owner)}
          expiresAt={str(card.expiresAt)}
        />
      </CardContent>
    </Card>
  );
}
