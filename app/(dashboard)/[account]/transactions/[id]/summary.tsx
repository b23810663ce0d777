import { CodeWord } from "@/components/ui/code-word";
import { StatusBadge } from "@/components/payments/status-badge";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { formatDocument } from "@/lib/br/document";
import type { Translate } from "@/lib/i18n/translate";
import type { Formatters } from "@/lib/i18n/format";
import type { LedgerRow } from "@/lib/ledger/queries";

type Props = { tx: LedgerRow; t: Translate; format: Formatters; money: (cents: number | null) => string };

function safeDocument(value: string): string {
  try {
    return formatDocument(value);
  } catch {
    return value;
  }
}

export function Field({ label, value, testId }: { label: string; value: React.ReactNode; testId?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-0.5" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function LastReport({
  tx,
  at,
  status,
  format,
  never,
}: {
  tx: LedgerRow;
  at: Date | null;
  status: string | null;
  format: Formatters;
  never: string;
}) {
  return at ? (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <StatusBadge operationKind={tx.kind} status={status} /> {format.dateTime(at)}
    </span>
  ) : (
    never
  );
}

/** The amounts, codes and dates of the transaction. */
export function SummaryCard({ tx, t, format, money }: Props) {
  const never = t("transactions.detail.never");
  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>{t("transactions.detail.summary")}</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
          <Field
            label={t("transactions.detail.amount")}
            value={<span className="text-lg font-semibold tabular-nums">{money(tx.amountCents)}</span>}
          />
          <Field label={t("transactions.detail.fee")} value={<span className="tabular-nums">{money(tx.feeCents)}</span>} />
          {tx.amountCents !== null && tx.feeCents !== null && (
            <Field
              label={t("transactions.detail.net")}
              value={<span className="tabular-nums">{money(tx.amountCents - tx.feeCents)}</span>}
            />
          )}
          <Field label={t("transactions.columns.method")} value={<CodeWord group="method" code={tx.paymentMethod} />} />
          <Field
            label={t("transactions.detail.gatewayId")}
            value={<span className="font-mono text-xs break-all">{tx.gatewayTransactionId ?? "—"}</span>}
          />
          <Field label={t("transactions.detail.identifier")} value={<span className="font-mono text-xs break-all">{tx.identifier}</span>} />
          <Field label={t("transactions.detail.kind")} value={<CodeWord group="operation" code={tx.kind} />} />
          <Field
            label={t("transactions.detail.origin")}
            value={
              <span className="flex flex-wrap gap-1.5">
                <Badge variant="secondary" title={tx.origin}>
                  {t(`transactions.detail.origins.${tx.origin}`)}
                </Badge>
                {tx.submission && (
                  <Badge variant="outline" title={tx.submission}>
                    {t(`vocab.submission.${tx.submission}`)}
                  </Badge>
                )}
              </span>
            }
          />
          <Field label={t("transactions.detail.createdAt")} value={format.dateTimeZoned(tx.createdAt)} />
          <Field label={t("transactions.detail.paidAt")} value={tx.paidAt ? format.dateTimeZoned(tx.paidAt) : "—"} />
          <Field
            label={t("transactions.detail.lastWebhook")}
            value={<LastReport tx={tx} at={tx.lastWebhookAt} status={tx.lastWebhookStatus} format={format} never={never} />}
            testId="last-webhook"
          />
          <Field
            label={t("transactions.detail.lastLookup")}
            value={<LastReport tx={tx} at={tx.lastLookupAt} status={tx.lastLookupStatus} format={format} never={never} />}
            testId="last-lookup"
          />
        </dl>
      </CardContent>
    </Card>
  );
}

export function ClientCard({ tx, t }: Pick<Props, "tx" | "t">) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("transactions.detail.client")}</CardTitle>
      </CardHeader>
      <CardContent>
        {tx.clientName || tx.clientEmail || tx.clientDocument ? (
          <dl className="grid gap-3 text-sm">
            <Field label={t("transactions.detail.clientName")} value={tx.clientName ?? "—"} />
            <Field label={t("transactions.detail.clientEmail")} value={<span className="break-all">{tx.clientEmail ?? "—"}</span>} />
            <Field label={t("transactions.detail.clientDocument")} value={tx.clientDocument ? safeDocument(tx.clientDocument) : "—"} />
          </dl>
        ) : (
          <p className="text-sm text-muted-foreground">{t("transactions.detail.noClient")}</p>
        )}
      </CardContent>
    </Card>
  );
}
