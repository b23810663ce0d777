import type { SubscriptionView } from "./queries";

/**
 * The subscriptions list as CSV, with the conventions of the transactions export
 * (lib/ledger/export.ts): UTF-8 with a BOM, `;` separators, CRLF, text always quoted (a leading
 * = + - @ tab or CR gets an apostrophe), amounts as `1234,56` and in centavos, times in UTC ISO
 * 8601. The state and periodicity come in the reader's words; the gateway's status as it came.
 */

export const SUBSCRIPTIONS_CSV_HEADER = [
  "id",
  "id_gateway",
  "identificador",
  "cliente_nome",
  "cliente_email",
  "cliente_documento",
  "produto",
  "metodo",
  "valor",
  "valor_centavos",
  "periodicidade",
  "estado",
  "status_gateway",
  "inicio_utc",
  "proxima_cobranca_utc",
  "proxima_cobranca_calculada",
  "ultimo_pagamento_utc",
  "cobrancas_pagas",
  "total_pago",
  "total_pago_centavos",
] as const;

const text = (value: string | null | undefined): string => {
  if (value === null || value === undefined) return "";
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${guarded.replace(/"/g, '""')}"`;
};
const amount = (cents: number | null): string => {
  if (cents === null) return "";
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, "0")}`;
};
const iso = (value: Date | null | undefined) => (value ? value.toISOString() : "");

export type RowWords = { state: (view: SubscriptionView) => string; periodicity: (view: SubscriptionView) => string };

export function subscriptionsCsv(views: readonly SubscriptionView[], words: RowWords): string {
  const lines = views.map((view) => {
    const s = view.subscription;
    return [
      text(s.id),
      text(s.gatewaySubscriptionId),
      text(s.identifier),
      text(s.clientName),
      text(s.clientEmail),
      text(s.clientDocument),
      text(s.productName),
      text(s.paymentMethod),
      amount(s.amountCents),
      s.amountCents === null ? "" : String(s.amountCents),
      text(words.periodicity(view)),
      text(words.state(view)),
      text(s.gatewayStatus),
      iso(view.startedAt),
      iso(view.nextCharge?.at),
      view.nextCharge ? (view.nextCharge.calculated ? "sim" : "nao") : "",
      iso(view.lastPaidAt),
      String(view.paid.count),
      amount(view.paid.totalCents),
      String(view.paid.totalCents),
    ].join(";");
  });
  return `\uFEFF${[SUBSCRIPTIONS_CSV_HEADER.join(";"), ...lines].join("\r\n")}\r\n`;
}
