"use client";

import { ExternalLink } from "lucide-react";
import { CopyField } from "@/components/payments/copy-field";
import { QrCode } from "@/components/payments/qr-card";
import { ItfBarcode } from "@/components/payments/itf-barcode";
import { useI18n } from "@/lib/i18n/client";

type Json = Record<string, unknown> | null;

const obj = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
const str = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

/**
 * Pix, boleto and crypto data as the gateway returned them at creation (or in the latest record),
 * while the charge can still be paid (`payable`, lib/status/machine.ts): after that, no code to pay.
 */
export function PaymentData({
  response,
  record,
  payable,
  paid,
}: {
  response: Json;
  record: Json;
  payable: boolean;
  /** Not payable because it was paid (rather than refunded, expired or otherwise closed). */
  paid: boolean;
}) {
  const { t, format } = useI18n();
  const pix = obj(response?.pix);
  const pixCode = payable ? (str(pix?.code) ?? str(obj(record?.pixInformation)?.qrCode)) : null;
  const boleto = payable ? obj(response?.boleto) : null;
  const crypto = payable ? obj(response?.crypto) : null;
  const order = obj(response?.order);
  const links = [
    { href: str(order?.url), label: t("transactions.detail.orderUrl") },
    { href: str(order?.receiptUrl), label: t("transactions.detail.receipt") },
    { href: str(boleto?.pdfUrl), label: t("transactions.detail.boletoPdf") },
  ].filter((link): link is { href: string; label: string } => Boolean(link.href && /^https?:\/\//.test(link.href)));

  const notPayable = !payable && (
    <p className="text-sm text-muted-foreground" data-testid="not-payable">
      {t("transactions.detail.notPayable", { paid: String(paid) })}
    </p>
  );
  if (!pixCode && !boleto && !crypto && links.length === 0) {
    return notPayable || <p className="text-sm text-muted-foreground">{t("transactions.detail.noPayment")}</p>;
  }
  const copy = t("ui.copy");
  return (
    <div className="space-y-5">
      {notPayable}
      {pixCode && (
        <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
          <QrCode value={pixCode} size={168} />
          <CopyField
            className="min-w-0 flex-1"
            label={t("transactions.detail.pixCode")}
            value={pixCode}
            copyLabel={copy}
            testId="pix-code"
          />
        </div>
      )}
      {boleto && (
        <div className="space-y-3">
          {str(boleto.digitableLine) && (
            <CopyField label={t("transactions.detail.boletoLine")} value={str(boleto.digitableLine)!} copyLabel={copy} />
          )}
          {str(boleto.barcode) && (
            <div className="space-y-1.5">
              <div className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
                {t("transactions.detail.boletoBarcode")}
              </div>
              <ItfBarcode digits={str(boleto.barcode)!} className="h-14 w-full max-w-lg" title={str(boleto.barcode)!} />
            </div>
          )}
        </div>
      )}
      {crypto && (
        <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
          {str(crypto.address) && <QrCode value={str(crypto.address)!} size={168} />}
          <div className="min-w-0 flex-1 space-y-3">
            {str(crypto.address) && (
              <CopyField label={t("transactions.detail.cryptoAddress")} value={str(crypto.address)!} copyLabel={copy} />
            )}
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <div>
                <dt className="text-xs text-muted-foreground">{t("transactions.detail.cryptoAmount")}</dt>
                <dd className="font-mono">
                  {String(crypto.amount ?? "—")} {str(crypto.currency) ?? ""}
                </dd>
              </div>
              <div>
                <dt className="text-xs text-muted-foreground">{t("transactions.detail.cryptoNetwork")}</dt>
                <dd className="font-mono">{str(crypto.network) ?? "—"}</dd>
              </div>
              {str(crypto.expiresAt) && (
                <div>
                  <dt className="text-xs text-muted-foreground">{t("transactions.detail.cryptoExpires")}</dt>
                  <dd>{format.dateTimeZoned(str(crypto.expiresAt)!)}</dd>
                </div>
              )}
            </dl>
          </div>
        </div>
      )}
      {links.length > 0 && (
        <ul className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
          {links.map((link) => (
            <li key={link.href}>
              <a
                href={link.href}
                target="_blank"
                rel="noreferrer noopener"
                className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline"
              >
                {link.label}
                <ExternalLink className="size-3.5" aria-hidden />
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
