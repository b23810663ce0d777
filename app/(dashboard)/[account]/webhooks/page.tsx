import Link from "next/link";
import { TriangleAlert } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { getAccount } from "@/lib/accounts/queries";
import { can } from "@/lib/auth/session";
import { requireAccountPage } from "@/lib/auth/account-page";
import { webhookUrlFor } from "@/lib/gateway/connection";
import { getI18n } from "@/lib/i18n/server";
import { inboxSummary, listFeedNotifications, listRejections, recentGatewayTransactions } from "@/lib/notifications/queries";
import { detectSandbox } from "@/lib/notifications/sandbox";
import { StatusBadge } from "@/components/payments/status-badge";
import { EventBadge } from "@/app/(dashboard)/activity/event-badge";
import { SandboxTools } from "./sandbox-tools";
import { SANDBOX_EVENTS } from "@/lib/notifications/schemas";

type I18n = Awaited<ReturnType<typeof getI18n>>;

function AcceptedTable({
  accepted,
  t,
  format,
}: Pick<I18n, "t" | "format"> & { accepted: Awaited<ReturnType<typeof listFeedNotifications>> }) {
  return accepted.length === 0 ? (
    <EmptyState size="compact" title={t("activity.inbox.noAccepted")} />
  ) : (
    <Card className="py-0">
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>{t("activity.feed.time")}</TableHead>
            <TableHead>{t("activity.feed.event")}</TableHead>
            <TableHead>{t("activity.feed.transaction")}</TableHead>
            <TableHead>{t("activity.feed.status")}</TableHead>
            <TableHead className="text-right">{t("activity.feed.received")}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {accepted.map((event) => (
            <TableRow key={event.id} data-testid="accepted-row">
              <TableCell className="whitespace-nowrap text-muted-foreground tabular-nums">
                <Link href={`/activity/${event.id}`} className="hover:underline">
                  {format.dateTimeZoned(event.lastReceivedAt)}
                </Link>
              </TableCell>
              <TableCell>
                <EventBadge event={event} />
                {event.sanitized && (
                  <Badge
                    variant="warning"
                    className="ml-1.5"
                    data-testid="sanitized"
                    data-sanitized={event.sanitized}
                    title={t(`activity.inbox.sanitized.${event.sanitized === "characters,depth" ? "both" : event.sanitized}`)}
                  >
                    {t("activity.inbox.sanitizedBadge")}
                  </Badge>
                )}
              </TableCell>
              <TableCell className="max-w-[16rem] truncate font-mono text-xs">
                {event.gatewayTransactionId ?? event.identifier ?? "—"}
              </TableCell>
              <TableCell>
                <StatusBadge kind={event.kind === "transfer" ? "transfer" : "transaction"} status={event.status} neutral />
              </TableCell>
              <TableCell className="text-right tabular-nums">{t("activity.feed.receivedTimes", { count: event.deliveries })}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}

function RejectedTable({ rejected, t, format }: Pick<I18n, "t" | "format"> & { rejected: Awaited<ReturnType<typeof listRejections>> }) {
  return rejected.length === 0 ? (
    <EmptyState size="compact" title={t("activity.inbox.noRejected")} />
  ) : (
    <Card className="py-0">
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>{t("activity.feed.time")}</TableHead>
            <TableHead>{t("activity.inbox.source")}</TableHead>
            <TableHead>{t("activity.inbox.reason")}</TableHead>
            <TableHead className="text-right">{t("activity.inbox.httpStatus")}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rejected.map((r) => (
            <TableRow key={r.id} data-testid="rejected-row" data-reason={r.reason}>
              <TableCell className="whitespace-nowrap text-muted-foreground tabular-nums">{format.dateTimeZoned(r.receivedAt)}</TableCell>
              <TableCell className="font-mono text-xs">{r.sourceIp ?? "—"}</TableCell>
              <TableCell>{t(`activity.inbox.reasons.${r.reason}`)}</TableCell>
              <TableCell className="text-right font-mono text-xs">{r.status}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}

export default async function WebhooksInboxPage({ params }: { params: Promise<{ account: string }> }) {
  const ctx = await requireAccountPage("webhooks.view", (await params).account);
  const { t, format } = await getI18n();
  const accountId = ctx.account.id;
  const [account, summary, accepted, rejected, sandbox] = await Promise.all([
    getAccount(accountId),
    inboxSummary(accountId),
    listFeedNotifications({ accountIds: [accountId], limit: 50 }),
    listRejections(accountId, 50),
    detectSandbox(accountId),
  ]);
  const url = webhookUrlFor(accountId);
  const canSimulate = sandbox.isSandbox && can(ctx, "charges.create", accountId);
  const recent = canSimulate ? await recentGatewayTransactions(accountId, 15) : [];
  const lastDelivery =
    [summary.lastAcceptedAt, summary.lastRejectedAt]
      .filter((v): v is string => !!v)
      .sort()
      .at(-1) ?? null;

  return (
    <div className="space-y-6">
      <PageHeader
        title={t("activity.inbox.title")}
        description={t("activity.inbox.description", { account: ctx.account.name })}
        actions={
          <Button asChild variant="outline">
            <Link href={`/activity?account=${accountId}`}>{t("activity.inbox.seeAll")}</Link>
          </Button>
        }
      />

      {!account?.webhookTokenLast4 && (
        <Alert variant="warning" data-testid="no-token-warning">
          <TriangleAlert />
          <AlertTitle>{t("activity.inbox.noToken")}</AlertTitle>
          <AlertDescription>
            <Link href={`/accounts/${accountId}`} className="font-medium underline underline-offset-4">
              {t("activity.inbox.noTokenAction")}
            </Link>
          </AlertDescription>
        </Alert>
      )}

      <div className="grid gap-4 md:grid-cols-3">
        <Card className="md:col-span-2">
          <CardHeader>
            <CardTitle>{t("activity.inbox.url")}</CardTitle>
            <CardDescription>{t("activity.inbox.urlHint")}</CardDescription>
          </CardHeader>
          <CardContent>
            <div className="flex items-center gap-2 rounded-lg border bg-muted/50 py-1 pr-1 pl-3">
              <code className="min-w-0 flex-1 truncate font-mono text-xs" data-testid="webhook-url">
                {url}
              </code>
              <CopyButton value={url} />
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t("activity.inbox.lastDelivery")}</CardTitle>
            <CardDescription data-testid="last-delivery">
              {lastDelivery ? format.dateTimeZoned(lastDelivery) : t("activity.inbox.never")}
            </CardDescription>
          </CardHeader>
          <CardContent className="space-y-1 text-sm text-muted-foreground">
            <p>{t("activity.inbox.acceptedCount", { count: summary.accepted, deliveries: summary.deliveries })}</p>
            <p>{t("activity.inbox.rejectedCount", { count: summary.rejected })}</p>
          </CardContent>
        </Card>
      </div>

      {canSimulate && (
        <SandboxTools
          accountId={accountId}
          events={SANDBOX_EVENTS}
          recent={recent}
          defaultWebhookUrl={sandbox.webhookUrl}
          consoleWebhookUrl={url}
        />
      )}

      <Tabs defaultValue="accepted">
        <TabsList>
          <TabsTrigger value="accepted">
            {t("activity.inbox.accepted")} <Badge variant="secondary">{summary.accepted}</Badge>
          </TabsTrigger>
          <TabsTrigger value="rejected" data-testid="rejected-tab">
            {t("activity.inbox.rejected")} <Badge variant={summary.rejected ? "destructive" : "secondary"}>{summary.rejected}</Badge>
          </TabsTrigger>
        </TabsList>
        <TabsContent value="accepted">
          <AcceptedTable accepted={accepted} t={t} format={format} />
        </TabsContent>
        <TabsContent value="rejected">
          <RejectedTable rejected={rejected} t={t} format={format} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
