import Link from "next/link";
import { StatusBadge } from "@/components/payments/status-badge";
import { notFound } from "next/navigation";
import { AlertTriangle, ArrowLeft } from "lucide-react";
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
import { getI18n, hasMessage } from "@/lib/i18n/server";
import { fromCents } from "@/lib/br/money";
import { getLedgerRow } from "@/lib/ledger/queries";
import { currentFeedSeq } from "@/lib/notifications/queries";
import { listNotificationsForTransaction } from "@/lib/notifications/queries";
import { listRefundsForTransaction } from "@/lib/refunds/queries";
import { lookupsForTransaction } from "@/lib/audit/queries";
import {
  joinCodes,
  paymentView,
  showsNotifications,
  statusNotices,
  transactionActions,
  transactionTimeline,
  transactionWording,
} from "@/lib/transactions/view";
import type { Permission } from "@/lib/auth/permissions";
import { RefreshButton } from "./refresh-button";
import { LiveRefresh } from "@/components/payments/live-refresh";
import { PaymentData } from "./payment-data";
import { ClientCard, SummaryCard } from "./summary";
import { RawCard, RefundsCard, TimelineCard } from "./history";
import { accountPath } from "@/lib/accounts/paths";

export default async function TransactionPage({ params }: { params: Promise<{ account: string; id: string }> }) {
  const id = routeId((await params).id) ?? notFound();
  const ctx = await requireAccountPage("transactions.view", (await params).account);
  const account = ctx.account;
  const tx = await getLedgerRow(account.id, id);
  if (!tx) notFound();
  const { t, format, locale } = await getI18n();
  const words = { t, has: (key: string) => hasMessage(locale, key) };
  const txStatus = transactionWording(words, tx.kind).status;
  const allowed = (permission: Permission) => can(ctx, permission, account.id);
  const [events, lookups, refunds] = await Promise.all([
    showsNotifications(allowed) ? listNotificationsForTransaction(account.id, tx.id) : Promise.resolve([]),
    lookupsForTransaction(account.id, tx.id),
    tx.gatewayTransactionId ? listRefundsForTransaction(account.id, tx.gatewayTransactionId) : Promise.resolve([]),
  ]);
  const { openRefund, canRefund, canRefresh } = transactionActions(tx, refunds, allowed);
  const payment = paymentView(tx);
  const money = (cents: number | null) => (cents === null ? "—" : format.money(fromCents(cents)));
  const timeline = transactionTimeline(tx, events, lookups, words);
  const { gap, lookupWithoutWebhook } = statusNotices(tx, events.length);

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
            {canRefresh && <RefreshButton accountId={account.id} id={tx.id} operationKind={tx.kind} />}
          </>
        }
      />

      {gap && (
        <Alert variant="warning" data-testid="status-gap">
          <AlertTriangle aria-hidden />
          <AlertTitle>{t("transactions.detail.gapTitle")}</AlertTitle>
          <AlertDescription title={joinCodes(tx.lastLookupStatus, tx.lastWebhookStatus)}>
            {t("transactions.detail.gap", { lookup: txStatus(tx.lastLookupStatus), webhook: txStatus(tx.lastWebhookStatus) })}
          </AlertDescription>
        </Alert>
      )}
      {lookupWithoutWebhook && (
        <Alert data-testid="status-no-webhook">
          <AlertDescription title={joinCodes(tx.lastLookupStatus)}>
            {t("transactions.detail.noWebhookYet", { lookup: txStatus(tx.lastLookupStatus) })}
          </AlertDescription>
        </Alert>
      )}

      <div className="grid gap-6 lg:grid-cols-3">
        <SummaryCard tx={tx} t={t} format={format} money={money} />
        <ClientCard tx={tx} t={t} />
      </div>

      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>{t("transactions.detail.payment")}</CardTitle>
          </CardHeader>
          <CardContent>
            <PaymentData response={tx.response} record={tx.gatewayRecord} payable={payment.payable} paid={payment.paid} />
          </CardContent>
        </Card>
        <TimelineCard timeline={timeline} t={t} format={format} />
      </div>

      <RefundsCard refunds={refunds} t={t} format={format} money={money} />
      <RawCard request={tx.request} response={payment.response} record={payment.record} t={t} />
    </div>
  );
}
