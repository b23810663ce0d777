import { CircleDot, FileSearch, PlusCircle, Webhook } from "lucide-react";
import { StatusBadge } from "@/components/payments/status-badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { Formatters } from "@/lib/i18n/format";
import type { Translate } from "@/lib/i18n/translate";
import type { RefundRequestDto } from "@/lib/refunds/queries";
import type { TimelineItem } from "@/lib/transactions/view";

function TimelineIcon({ icon }: { icon: TimelineItem["icon"] }) {
  const className = "size-3.5";
  if (icon === "webhook") return <Webhook className={className} aria-hidden />;
  if (icon === "lookup") return <FileSearch className={className} aria-hidden />;
  if (icon === "added") return <PlusCircle className={className} aria-hidden />;
  return <CircleDot className={className} aria-hidden />;
}

export function TimelineCard({ timeline, t, format }: { timeline: TimelineItem[]; t: Translate; format: Formatters }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("transactions.detail.timeline")}</CardTitle>
      </CardHeader>
      <CardContent>
        <ol className="relative space-y-4 border-l pl-5" data-testid="timeline">
          {timeline.map((item, index) => (
            <li
              key={index}
              className="relative"
              title={item.codes ? t("status.gatewayCode", { code: item.codes }) : undefined}
              data-codes={item.codes}
            >
              <span className="absolute top-0.5 -left-[29px] flex size-6 items-center justify-center rounded-full border bg-background text-muted-foreground">
                <TimelineIcon icon={item.icon} />
              </span>
              <p className="text-sm">{item.text}</p>
              <p className="text-xs text-muted-foreground tabular-nums">
                {format.dateTime(item.at)}
                {item.detail ? ` · ${item.detail}` : ""}
              </p>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}

export function RefundsCard({
  refunds,
  t,
  format,
  money,
}: {
  refunds: RefundRequestDto[];
  t: Translate;
  format: Formatters;
  money: (cents: number | null) => string;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("transactions.detail.refunds")}</CardTitle>
      </CardHeader>
      <CardContent>
        {refunds.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("transactions.detail.noRefunds")}</p>
        ) : (
          <ul className="divide-y text-sm" data-testid="refunds">
            {refunds.map((refund) => (
              <li
                key={refund.id}
                className="flex flex-wrap items-center justify-between gap-2 py-2"
                data-testid="refund-request"
                data-status={refund.status ?? undefined}
              >
                <span className="flex flex-wrap items-center gap-2">
                  <StatusBadge kind="refund" status={refund.status} />
                  <span>{refund.reason}</span>
                  {refund.statusFromTransaction && (
                    <span className="text-xs text-muted-foreground">{t("refunds.outcomeFromTransaction")}</span>
                  )}
                </span>
                <span className="text-muted-foreground tabular-nums">
                  {money(refund.amountCents)} · {format.dateTime(refund.createdAt)} · {refund.requestedByEmail ?? "—"}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function RawJson({ label, value, empty }: { label: string; value: unknown; empty: string }) {
  return (
    <details className="group rounded-lg border">
      <summary className="cursor-pointer px-3 py-2 text-sm font-medium select-none hover:bg-muted/50">{label}</summary>
      {value ? (
        <pre className="max-h-96 overflow-auto border-t bg-muted/30 p-3 font-mono text-xs leading-5">{JSON.stringify(value, null, 2)}</pre>
      ) : (
        <p className="border-t px-3 py-2 text-sm text-muted-foreground">{empty}</p>
      )}
    </details>
  );
}

/** The gateway's answers as they came, without the codes to pay once the charge cannot be paid. */
export function RawCard({ request, response, record, t }: { request: unknown; response: unknown; record: unknown; t: Translate }) {
  const empty = t("transactions.detail.rawEmpty");
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("transactions.detail.raw")}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-2">
        <RawJson label={t("transactions.detail.rawRequest")} value={request} empty={empty} />
        <RawJson label={t("transactions.detail.rawResponse")} value={response} empty={empty} />
        <RawJson label={t("transactions.detail.rawRecord")} value={record} empty={empty} />
      </CardContent>
    </Card>
  );
}
