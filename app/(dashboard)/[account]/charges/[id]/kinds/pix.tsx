import { CopyField } from "@/components/payments/copy-field";
import { Countdown } from "@/components/payments/countdown";
import { QrCode, ShareLinks } from "@/components/payments/qr-card";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { paymentInstructions, type PixInstructions } from "@/lib/charges/payment-instructions";
import type { LedgerRow } from "@/lib/ledger/queries";
import { FromLookup, OrderLinks, RawFallback, settledOneOff, type ChargeView } from "../frame";

/** A Pix charge: its QR code and copy-and-paste code until the gateway reports it paid or closed. */
export function PixChargeOutcome({ view }: { view: ChargeView }) {
  const settled = settledOneOff(view);
  if (settled) return settled;
  // What the customer needs to pay: from the creation answer, else (that answer was lost and a
  // lookup settled the charge) from the latest lookup record.
  const pix = paymentInstructions(view.row.kind, view.row.response, view.row.gatewayRecord);
  return pix?.method === "pix" ? (
    <PixInstructionsCard view={view} row={view.row} pix={pix} amountLabel={view.amountLabel} />
  ) : (
    <RawFallback view={view} />
  );
}

/** Pay by Pix: shared by the charge, the deposit and a Pix subscription's first charge. */
export function PixInstructionsCard({
  view,
  row,
  pix,
  amountLabel,
}: {
  view: ChargeView;
  row: LedgerRow;
  pix: PixInstructions;
  amountLabel: string;
}) {
  const { t } = view;
  const { code, expiresAt } = pix;
  return (
    <Card data-testid="pix-result" data-source={pix.source}>
      <CardHeader>
        <CardTitle>{row.kind === "pix_deposit" ? t("charges.result.depositTitle") : t("charges.result.pixTitle")}</CardTitle>
        <CardDescription>{t("charges.result.pixHint")}</CardDescription>
        <FromLookup source={pix.source} t={t} />
      </CardHeader>
      <CardContent className="grid gap-6 md:grid-cols-[auto_minmax(0,1fr)]">
        <div className="flex flex-col items-center gap-3">
          <QrCode value={code} fileName={`pix-${row.identifier}.png`} downloadLabel={t("charges.result.downloadPng")} />
          {expiresAt && (
            <Countdown expiresAt={expiresAt} label={t("charges.result.expiresIn")} expiredLabel={t("charges.result.expired")} />
          )}
        </div>
        <div className="min-w-0 space-y-5">
          <div>
            <div className="text-muted-foreground text-xs">{t("charges.result.amount")}</div>
            <div className="text-3xl font-semibold tabular-nums">{amountLabel}</div>
          </div>
          <CopyField
            label={t("charges.result.copyPaste")}
            value={code}
            copyLabel={t("charges.result.copyCode")}
            copiedMessage={t("charges.result.codeCopied")}
            testId="pix-code"
          />
          <ShareLinks
            text={t("charges.result.shareText", { amount: amountLabel, code })}
            subject={t("charges.result.shareSubject", { amount: amountLabel })}
            whatsappLabel={t("charges.result.shareWhatsapp")}
            emailLabel={t("charges.result.shareEmail")}
            email={row.clientEmail}
          />
          <OrderLinks receiptUrl={pix.receiptUrl} orderUrl={pix.orderUrl} t={t} />
        </div>
      </CardContent>
    </Card>
  );
}
