import { CopyField } from "@/components/payments/copy-field";
import { Countdown } from "@/components/payments/countdown";
import { QrCode } from "@/components/payments/qr-card";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { paymentInstructions, type CryptoInstructions } from "@/lib/charges/payment-instructions";
import type { Translate } from "@/lib/i18n/translate";
import { FromLookup, OrderLinks, RawFallback, settledOneOff, type ChargeView } from "../frame";

/** A crypto charge: the address and amount to send until the gateway reports it paid or closed. */
export function CryptoChargeOutcome({ view }: { view: ChargeView }) {
  const settled = settledOneOff(view);
  if (settled) return settled;
  const crypto = paymentInstructions(view.row.kind, view.row.response, view.row.gatewayRecord);
  return crypto?.method === "crypto" ? <CryptoInstructionsCard crypto={crypto} t={view.t} /> : <RawFallback view={view} />;
}

/** Pay in crypto: shared by the charge and a crypto subscription's first charge. */
export function CryptoInstructionsCard({ crypto, t }: { crypto: CryptoInstructions; t: Translate }) {
  const { address } = crypto;
  const cryptoAmount = crypto.amount ?? null;
  return (
    <Card data-testid="crypto-result" data-source={crypto.source}>
      <CardHeader>
        <CardTitle>{t("charges.result.cryptoTitle")}</CardTitle>
        <FromLookup source={crypto.source} t={t} />
      </CardHeader>
      <CardContent className="grid gap-6 md:grid-cols-[auto_minmax(0,1fr)]">
        <div className="flex flex-col items-center gap-3">
          <QrCode value={address} size={200} />
          {crypto.expiresAt && (
            <Countdown expiresAt={crypto.expiresAt} label={t("charges.result.expiresIn")} expiredLabel={t("charges.result.expired")} />
          )}
        </div>
        <div className="min-w-0 space-y-5">
          <div className="grid grid-cols-2 gap-4">
            <div>
              <div className="text-muted-foreground text-xs">{t("charges.result.cryptoAmount")}</div>
              <div className="text-2xl font-semibold tabular-nums" data-testid="crypto-amount">
                {cryptoAmount ?? "—"} <span className="text-muted-foreground text-base font-medium">{crypto.currency}</span>
              </div>
            </div>
            <div>
              <div className="text-muted-foreground text-xs">{t("charges.result.network")}</div>
              <div className="text-lg font-medium" data-testid="crypto-network">
                {crypto.network ?? "—"}
              </div>
            </div>
          </div>
          <CopyField
            label={t("charges.result.cryptoAddress")}
            value={address}
            copyLabel={t("charges.result.copyAddress")}
            testId="crypto-address"
          />
          <OrderLinks orderUrl={crypto.orderUrl} t={t} />
        </div>
      </CardContent>
    </Card>
  );
}
