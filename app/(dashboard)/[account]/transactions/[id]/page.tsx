import Link from "next/link";
import { CodeWord } from "@/components/ui/code-word";
import { StatusBadge } from "@/components/payments/status-badge";
import { notFound } from "next/navigation";
import { AlertTriangle, ArrowLeft, CircleDot, FileSearch, PlusCircle, Webhook } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { RefundRequestDialog } from "../../refunds/refund-request-dialog";
import { ViewRefundRequestLink } from "../../refunds/view-request-link";
import { hasSecondFactor } from "@/lib/auth/second-factor";
import { can } from "@/lib/auth/session";
import { requireAccountPage } from "@/lib/auth/account-page";
import { routeId } from "@/lib/http/search-params";
import { getI18n, getStatusLabel, hasMessage } from "@/lib/i18n/server";
import { machineKindForOperation } from "@/lib/status/machine";
import { formatDocument } from "@/lib/br/document";
import { fromCents } from "@/lib/br/money";
import { getLedgerRow } from "@/lib/ledger/queries";
import { currentFeedSeq } from "@/lib/webhooks/queries";
import { isPayable, stateOf, transactionMachine } from "@/lib/status/machine";
import { withoutPaymentCodes } from "@/lib/charges/payment-instructions";
import { listEventsForTransaction } from "@/lib/webhooks/queries";
import { listRefundsForTransaction } from "@/lib/refunds/queries";
import { refundRequestOpen } from "@/lib/refunds/outcome";
import { lookupsForTransaction } from "@/lib/audit/queries";
import { RefreshButton } from "./refresh-button";
import { LiveRefresh } from "@/components/payments/live-refresh";
import { PaymentData } from "./payment-data";
import { accountPath } from "@/lib/accounts/paths";

/** `codes`: the gateway's own spellings behind the words, for the tooltip. */
type TimelineItem = { at: Date; icon: "created" | "webhook" | "lookup" | "added"; text: string; detail?: string; codes?: string };

function safeDocument(value: string): string {
  try {
    return formatDocument(value);
  } catch {
    return value;
  }
}

export default async function TransactionPage({ params }: { params: Promise<{ account: string; id: string }> }) {
  const id = routeId((await params).id) ?? notFound();
  const ctx = await requireAccountPage("transactions.view", (await params).account);
  const account = ctx.account;
  const tx = await getLedgerRow(account.id, id);
  if (!tx) notFound();
  const { t, format, locale } = await getI18n();
  const statusWord = await getStatusLabel();
  // Words for what the gateway reported; its codes stay in the tooltip.
  const txStatus = (status: string | null | undefined) => (status ? statusWord(machineKindForOperation(tx.kind), status) : "—");
  const eventWords = (event: string | null) =>
    event && hasMessage(locale, `transactions.detail.events.${event}`)
      ? t(`transactions.detail.events.${event}`)
      : t("transactions.detail.eventUnknown", { event: event ?? "?" });
  const errorWords = (kind: string, area: "charges.errors.gateway" | "transactions.gatewayErrors") =>
    // The lookup's "server" message wants the HTTP status, which the audit entry does not keep.
    hasMessage(locale, `${area}.${kind}`) && !(area === "transactions.gatewayErrors" && kind === "server")
      ? t(`${area}.${kind}`)
      : t("transactions.detail.errorOther");
  const codes = (...parts: (string | null | undefined)[]) => parts.filter(Boolean).join(" · ") || undefined;
  const [events, lookups, refunds] = await Promise.all([
    can(ctx, "webhooks.view", ctx.account.id) ? listEventsForTransaction(account.id, tx.id) : Promise.resolve([]),
    lookupsForTransaction(account.id, tx.id),
    tx.gatewayTransactionId ? listRefundsForTransaction(account.id, tx.gatewayTransactionId) : Promise.resolve([]),
  ]);
  // A request waiting for its outcome is shown, not asked for again (the interface allows one per transaction).
  const openRefund = refunds.find(refundRequestOpen);
  // Only a charge the gateway confirmed as paid can be refunded: elsewhere the request could only be refused.
  const canRefund =
    !openRefund &&
    can(ctx, "refunds.request", ctx.account.id) &&
    Boolean(tx.gatewayTransactionId) &&
    stateOf(transactionMachine, tx.status) === "paid";
  const payable = isPayable(tx.status, tx.kind);
  const shown = <T,>(answer: T): T => (payable ? answer : withoutPaymentCodes(answer));
  const money = (cents: number | null) => (cents === null ? "—" : format.money(fromCents(cents)));
  const who = (email: string | null) => email ?? t("transactions.detail.unknownUser");

  const addedByLookup = lookups.some((entry) => entry.action === "transactions.add_from_lookup");
  const timeline: TimelineItem[] = [
    ...(addedByLookup
      ? []
      : [
          {
            at: tx.createdAt,
            icon: "created" as const,
            text:
              tx.origin === "console"
                ? t("transactions.detail.timelineCreated", { who: who(tx.createdByEmail) })
                : t("transactions.detail.timelineCreatedExternal", { origin: t(`transactions.detail.origins.${tx.origin}`) }),
            detail: tx.error
              ? t("transactions.detail.timelineError", { reason: errorWords(tx.error.kind, "charges.errors.gateway") })
              : tx.submission
                ? t("transactions.detail.timelineSubmission", { state: t(`vocab.submission.${tx.submission}`) })
                : undefined,
            codes: codes(tx.error?.kind, tx.submission),
          },
        ]),
    ...events.map((event) => ({
      at: new Date(event.firstReceivedAt),
      icon: "webhook" as const,
      text: t("transactions.detail.timelineWebhook", { event: eventWords(event.event), status: txStatus(event.status) }),
      codes: codes(event.event, event.status),
      detail:
        [
          event.confirmation ? t(`activity.confirmation.${event.confirmation}`) : null,
          event.deliveries > 1 ? t("transactions.detail.timelineWebhookRepeated", { count: event.deliveries }) : null,
        ]
          .filter(Boolean)
          .join(" · ") || undefined,
    })),
    ...lookups.map((entry) => {
      const details = (entry.details ?? {}) as { status?: string; error?: string };
      if (entry.action === "transactions.add_from_lookup") {
        return { at: entry.at, icon: "added" as const, text: t("transactions.detail.timelineAdded", { who: who(entry.userEmail) }) };
      }
      return {
        at: entry.at,
        icon: "lookup" as const,
        text: details.error
          ? t("transactions.detail.timelineLookupFailed", {
              who: who(entry.userEmail),
              reason: errorWords(details.error, "transactions.gatewayErrors"),
            })
          : t("transactions.detail.timelineLookup", { who: who(entry.userEmail), status: txStatus(details.status) }),
        codes: codes(details.error, details.status),
      };
    }),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());

  const gap = tx.lastLookupStatus && tx.lastWebhookStatus && tx.lastLookupStatus !== tx.lastWebhookStatus;
  const lookupWithoutWebhook = tx.lastLookupStatus && !tx.lastWebhookStatus && events.length === 0;

  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow={
          <Link href={accountPath(account.id, "/transactions")} className="inline-flex items-center gap-1 hover:text-foreground">
            <ArrowLeft className="size-3.5" aria-hidden />
            {t("transactions.detail.back")}
          </Link>
        }
        title={
          <span className="flex flex-wrap items-center gap-3">
            <span className="wrap-anywhere">{t("transactions.detail.title", { identifier: tx.identifier })}</span>
            <StatusBadge operationKind={tx.kind} status={tx.status} empty={t("transactions.noStatus")} />
            {tx.pendingStatus && (
              <Badge variant="warning" data-testid="pending-confirmation">
                {t("charges.result.confirming", { status: txStatus(tx.pendingStatus) })}
              </Badge>
            )}
          </span>
        }
        description={<LiveRefresh accountId={account.id} ledgerId={tx.id} since={await currentFeedSeq()} />}
        actions={
          <>
            {openRefund && (
              <ViewRefundRequestLink
                href={`${accountPath(account.id, "/refunds")}#refund-${openRefund.id}`}
                label={t("refunds.viewRequest")}
              />
            )}
            {canRefund && (
              <RefundRequestDialog
                accountId={account.id}
                transactionId={tx.gatewayTransactionId!}
                ledgerId={tx.id}
                subject={t("refunds.dialogSubject", {
                  amount: money(tx.amountCents),
                  customer: tx.clientName ?? tx.clientEmail ?? t("refunds.unknownCustomer"),
                })}
                secondFactor={await hasSecondFactor(ctx.user.id)}
              />
            )}
            {can(ctx, "ledger.refresh", account.id) && <RefreshButton accountId={account.id} id={tx.id} operationKind={tx.kind} />}
          </>
        }
      />

      {gap && (
        <Alert variant="warning" data-testid="status-gap">
          <AlertTriangle aria-hidden />
          <AlertTitle>{t("transactions.detail.gapTitle")}</AlertTitle>
          <AlertDescription title={codes(tx.lastLookupStatus, tx.lastWebhookStatus)}>
            {t("transactions.detail.gap", { lookup: txStatus(tx.lastLookupStatus), webhook: txStatus(tx.lastWebhookStatus) })}
          </AlertDescription>
        </Alert>
      )}
      {lookupWithoutWebhook && (
        <Alert data-testid="status-no-webhook">
          <AlertDescription title={codes(tx.lastLookupStatus)}>
            {t("transactions.detail.noWebhookYet", { lookup: txStatus(tx.lastLookupStatus) })}
          </AlertDescription>
        </Alert>
      )}

      <div className="grid gap-6 lg:grid-cols-3">
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
              <Field
                label={t("transactions.detail.identifier")}
                value={<span className="font-mono text-xs break-all">{tx.identifier}</span>}
              />
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
                value={
                  tx.lastWebhookAt ? (
                    <span className="inline-flex flex-wrap items-center gap-1.5">
                      <StatusBadge operationKind={tx.kind} status={tx.lastWebhookStatus} /> {format.dateTime(tx.lastWebhookAt)}
                    </span>
                  ) : (
                    t("transactions.detail.never")
                  )
                }
                testId="last-webhook"
              />
              <Field
                label={t("transactions.detail.lastLookup")}
                value={
                  tx.lastLookupAt ? (
                    <span className="inline-flex flex-wrap items-center gap-1.5">
                      <StatusBadge operationKind={tx.kind} status={tx.lastLookupStatus} /> {format.dateTime(tx.lastLookupAt)}
                    </span>
                  ) : (
                    t("transactions.detail.never")
                  )
                }
                testId="last-lookup"
              />
            </dl>
          </CardContent>
        </Card>
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
      </div>

      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>{t("transactions.detail.payment")}</CardTitle>
          </CardHeader>
          <CardContent>
            <PaymentData
              response={tx.response}
              record={tx.gatewayRecord}
              payable={payable}
              paid={stateOf(transactionMachine, tx.status) === "paid"}
            />
          </CardContent>
        </Card>
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
      </div>

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

      <Card>
        <CardHeader>
          <CardTitle>{t("transactions.detail.raw")}</CardTitle>
        </CardHeader>
        <CardContent className="space-y-2">
          <RawJson label={t("transactions.detail.rawRequest")} value={tx.request} empty={t("transactions.detail.rawEmpty")} />
          <RawJson label={t("transactions.detail.rawResponse")} value={shown(tx.response)} empty={t("transactions.detail.rawEmpty")} />
          <RawJson label={t("transactions.detail.rawRecord")} value={shown(tx.gatewayRecord)} empty={t("transactions.detail.rawEmpty")} />
        </CardContent>
      </Card>
    </div>
  );
}

function Field({ label, value, testId }: { label: string; value: React.ReactNode; testId?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-0.5" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function TimelineIcon({ icon }: { icon: TimelineItem["icon"] }) {
  const className = "size-3.5";
  if (icon === "webhook") return <Webhook className={className} aria-hidden />;
  if (icon === "lookup") return <FileSearch className={className} aria-hidden />;
  if (icon === "added") return <PlusCircle className={className} aria-hidden />;
  return <CircleDot className={className} aria-hidden />;
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
