import { FileText } from "lucide-react";
import { ItfBarcode } from "@/components/payments/itf-barcode";
import { CopyField } from "@/components/payments/copy-field";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { formatDigitableLine, parseBoletoBarcode } from "@/lib/br/boleto";
import { onlyDigits } from "@/lib/br/digits";
import { paymentInstructions } from "@/lib/charges/payment-instructions";
import { FromLookup, obj, OrderLinks, RawFallback, settledOneOff, str, type ChargeView } from "../frame";

/** A boleto: its digitable line, barcode and PDF until the gateway reports it paid or closed. */
export function BoletoOutcome({ view }: { view: ChargeView }) {
  const settled = settledOneOff(view);
  if (settled) return settled;
  const { row, t, format } = view;
  const boleto = paymentInstructions(row.kind, row.response, row.gatewayRecord);
  if (boleto?.method !== "boleto") return <RawFallback view={view} />;
  const request = obj(row.request);
  const { digitableLine: line, barcode } = boleto;
  const parsed = barcode ? parseBoletoBarcode(barcode) : line ? parseBoletoBarcode(line) : null;
  const dueDate = str(request.dueDate) ?? boleto.dueDate?.slice(0, 10) ?? parsed?.dueDate ?? null;
  const barcodeDigits = barcode ? onlyDigits(barcode) : null;
  return (
    <Card data-testid="boleto-result" data-source={boleto.source}>
      <CardHeader>
        <CardTitle>{t("charges.result.boletoTitle")}</CardTitle>
        <FromLookup source={boleto.source} t={t} />
        {dueDate && (
          <CardDescription data-testid="boleto-due-date">
            {t("charges.result.dueDate")}: <span className="text-foreground font-medium">{format.date(`${dueDate}T12:00:00Z`)}</span>
          </CardDescription>
        )}
      </CardHeader>
      <CardContent className="space-y-6">
        {line && (
          <CopyField
            label={t("charges.result.digitableLine")}
            value={onlyDigits(line)}
            display={formatDigitableLine(line)}
            copyLabel={t("charges.result.copyLine")}
            testId="digitable-line"
          />
        )}
        {barcodeDigits && barcodeDigits.length % 2 === 0 && (
          <div className="space-y-1.5">
            <div className="text-muted-foreground text-xs font-medium tracking-wide uppercase">{t("charges.result.barcode")}</div>
            <div className="rounded-lg border bg-white p-3">
              <ItfBarcode digits={barcodeDigits} title={t("charges.result.barcode")} />
            </div>
          </div>
        )}
        <div className="flex flex-wrap gap-2">
          {boleto.pdfUrl && (
            <Button asChild>
              <a href={boleto.pdfUrl} target="_blank" rel="noopener noreferrer" data-testid="boleto-pdf">
                <FileText /> {t("charges.result.pdf")}
              </a>
            </Button>
          )}
          <OrderLinks orderUrl={boleto.orderUrl} t={t} />
        </div>
      </CardContent>
    </Card>
  );
}
