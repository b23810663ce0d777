import { StatusBadge } from "@/components/payments/status-badge";
import Link from "next/link";
import { accountPath } from "@/lib/accounts/paths";
import { notFound } from "next/navigation";
import { ArrowLeft } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { CopyButton } from "@/components/ui/copy-button";
import { can, requirePage } from "@/lib/auth/session";
import { routeId } from "@/lib/http/search-params";
import { getCodeText, getI18n } from "@/lib/i18n/server";
import { getNotification } from "@/lib/notifications/queries";
import { ConfirmationBadge, EventBadge } from "../event-badge";

export default async function ActivityNotificationPage({ params }: { params: Promise<{ notificationId: string }> }) {
  const notificationId = routeId((await params).notificationId) ?? notFound();
  const ctx = await requirePage("webhooks.view");
  const notification = await getNotification(notificationId);
  // Someone else's notification is answered like a missing one: its existence is not revealed.
  if (!notification || !can(ctx, "webhooks.view", notification.accountId)) notFound();
  const { t, format } = await getI18n();
  const codeText = await getCodeText();
  const account = ctx.accounts.find((a) => a.id === notification.accountId);
  const pretty = JSON.stringify(notification.payload, null, 2);
  const ledgerText =
    {
      created: t("activity.event.ledgerCreated"),
      updated: t("activity.event.ledgerUpdated"),
      stale: t("activity.event.ledgerStale"),
      refused: t("activity.event.ledgerRefused"),
      confirming: t("activity.event.ledgerConfirming"),
      none: t("activity.event.ledgerNone"),
    }[notification.ledgerOutcome ?? "none"] ?? t("activity.event.ledgerNone");
  const kindText = {
    payment: t("activity.event.kindPayment"),
    transfer: t("activity.event.kindTransfer"),
    unknown: t("activity.event.kindUnknown"),
  }[notification.kind];

  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow={
          <Link href="/activity" className="inline-flex items-center gap-1 hover:underline">
            <ArrowLeft className="size-3.5" /> {t("activity.event.back")}
          </Link>
        }
        title={
          <span className="break-words" title={notification.event ?? undefined}>
            {notification.event
              ? t("activity.event.title", { event: codeText("gatewayEvent", notification.event) })
              : t("activity.event.untitled")}
          </span>
        }
        description={account?.name}
        actions={<EventBadge event={notification} />}
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-1">
          <CardHeader>
            <CardTitle>{t("activity.event.deliveries")}</CardTitle>
            <CardDescription data-testid="delivery-count">
              {t("activity.event.deliveredTimes", { count: notification.deliveries })}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-3 text-sm">
              <Item label={t("activity.event.first")} value={format.dateTimeZoned(notification.firstReceivedAt)} />
              <Item label={t("activity.event.last")} value={format.dateTimeZoned(notification.lastReceivedAt)} />
              <Item label={t("activity.event.source")} value={notification.sourceIp ?? "—"} mono />
              <Item label={t("activity.event.kind")} value={kindText} />
              <Item label={t("activity.feed.transaction")} value={notification.gatewayTransactionId ?? "—"} mono />
              <Item
                label={t("activity.feed.status")}
                value={
                  <StatusBadge kind={notification.kind === "transfer" ? "transfer" : "transaction"} status={notification.status} neutral />
                }
              />
              <Item
                label={t("activity.feed.amount")}
                value={notification.amountCents === null ? "—" : format.money(notification.amountCents / 100)}
              />
              <Item label={t("activity.event.ledger")} value={ledgerText} />
              {notification.confirmation && (
                <Item label={t("activity.event.confirmation")} value={<ConfirmationBadge event={notification} />} />
              )}
              {notification.sanitized && (
                <Item
                  label={t("activity.inbox.sanitizedBadge")}
                  value={
                    <span data-testid="sanitized">
                      {t(`activity.inbox.sanitized.${notification.sanitized === "characters,depth" ? "both" : notification.sanitized}`)}
                    </span>
                  }
                />
              )}
            </dl>
            {notification.ledgerId && (
              <Button asChild variant="outline" className="mt-4 w-full">
                <Link href={accountPath(notification.accountId, `/transactions/${notification.ledgerId}`)}>
                  {t("activity.event.openTransaction")}
                </Link>
              </Button>
            )}
          </CardContent>
        </Card>
        <Card className="min-w-0 lg:col-span-2">
          <CardHeader>
            <CardTitle>{t("activity.event.payload")}</CardTitle>
            <CardDescription>{t("activity.event.payloadHint")}</CardDescription>
          </CardHeader>
          <CardContent className="relative">
            <CopyButton value={pretty} className="absolute top-2 right-8" size="icon" variant="ghost" />
            <pre
              data-testid="event-payload"
              className="max-h-[36rem] overflow-auto rounded-lg bg-muted p-4 font-mono text-xs leading-relaxed"
            >
              {pretty}
            </pre>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

function Item({ label, value, mono }: { label: string; value: React.ReactNode; mono?: boolean }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className={mono ? "font-mono text-xs break-all" : undefined}>{value}</dd>
    </div>
  );
}
