import Link from "next/link";
import { ShieldCheck } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/payments/status-badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { can } from "@/lib/auth/session";
import { requireAccountPage } from "@/lib/auth/account-page";
import { fromCents } from "@/lib/br/money";
import { isKnownWebhookEvent } from "@/lib/gateway/schemas/webhooks";
import { getI18n } from "@/lib/i18n/server";
import { countUnconfirmedNotifications, listUnconfirmedNotifications, type UnconfirmedState } from "@/lib/ledger/unconfirmed";
import { cn } from "@/lib/utils";
import { EventBadge } from "@/app/(dashboard)/activity/event-badge";
import { accountPath } from "@/lib/accounts/paths";

const LIMIT = 100;
const STATES: readonly UnconfirmedState[] = ["waiting", "absent", "different", "needs_person"];
const TONE: Record<UnconfirmedState, "warning" | "destructive" | "secondary"> = {
  waiting: "warning",
  absent: "destructive",
  different: "destructive",
  needs_person: "secondary",
};

/**
 * Payment notifications kept out of the ledger: about transactions this console did not create,
 * waiting for the gateway's lookup or contradicted by it. Each links to its inbox entry.
 */
export default async function UnconfirmedNotificationsPage({
  params,
  searchParams,
}: {
  params: Promise<{ account: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const ctx = await requireAccountPage("transactions.view", (await params).account);
  const { t, format } = await getI18n();
  const account = ctx.account;
  const raw = (await searchParams).state;
  const state = STATES.find((s) => s === (Array.isArray(raw) ? raw[0] : raw));
  const [counts, rows] = await Promise.all([
    countUnconfirmedNotifications(account.id),
    listUnconfirmedNotifications(account.id, { limit: LIMIT, state }),
  ]);
  const inbox = can(ctx, "webhooks.view", account.id);
  const tabs: { key: UnconfirmedState | null; count: number }[] = [
    { key: null, count: counts.total },
    ...STATES.map((key) => ({ key, count: counts[key] })),
  ];

  return (
    <div className="space-y-5">
      <PageHeader
        back={{ href: accountPath(account.id, "/transactions"), label: t("transactions.unconfirmed.back") }}
        title={t("transactions.unconfirmed.title")}
        description={t("transactions.unconfirmed.description")}
      />
      <nav aria-label={t("transactions.unconfirmed.columns.state")} className="flex flex-wrap gap-2" data-testid="unconfirmed-states">
        {tabs.map(({ key, count }) => {
          const active = (key ?? null) === (state ?? null);
          return (
            <Link
              key={key ?? "all"}
              href={accountPath(account.id, key ? `/transactions/unconfirmed?state=${key}` : "/transactions/unconfirmed")}
              aria-current={active ? "page" : undefined}
              className={cn(
                "inline-flex items-center gap-2 rounded-full border px-3 py-1 text-sm",
                active ? "border-foreground bg-foreground text-background" : "hover:bg-muted",
              )}
            >
              {key ? t(`transactions.unconfirmed.states.${key}`) : t("transactions.unconfirmed.all")}
              <span className="tabular-nums opacity-80">{count}</span>
            </Link>
          );
        })}
      </nav>
      {rows.length === 0 ? (
        <EmptyState
          icon={<ShieldCheck />}
          title={t("transactions.unconfirmed.empty")}
          description={t("transactions.unconfirmed.emptyHint")}
        />
      ) : (
        <Card className="gap-0 overflow-x-auto py-0">
          <Table data-testid="unconfirmed-table">
            <TableHeader>
              <TableRow>
                <TableHead>{t("transactions.unconfirmed.columns.received")}</TableHead>
                <TableHead>{t("transactions.unconfirmed.columns.event")}</TableHead>
                <TableHead>{t("transactions.unconfirmed.columns.transaction")}</TableHead>
                <TableHead className="text-right">{t("transactions.unconfirmed.columns.amount")}</TableHead>
                <TableHead>{t("transactions.unconfirmed.columns.status")}</TableHead>
                <TableHead>{t("transactions.unconfirmed.columns.state")}</TableHead>
                <TableHead className="text-right">{t("transactions.unconfirmed.columns.deliveries")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((row) => {
                const seconds = row.nextCheckInSeconds;
                return (
                  <TableRow key={row.id} data-testid="unconfirmed-row" data-state={row.state}>
                    <TableCell className="whitespace-nowrap text-muted-foreground tabular-nums">
                      {inbox ? (
                        <Link href={`/activity/${row.id}`} className="hover:underline" title={t("transactions.unconfirmed.openInbox")}>
                          {format.dateTime(row.firstReceivedAt)}
                        </Link>
                      ) : (
                        format.dateTime(row.firstReceivedAt)
                      )}
                    </TableCell>
                    <TableCell>
                      <EventBadge
                        event={{ event: row.event, known: row.event !== null && isKnownWebhookEvent(row.event), kind: "payment" }}
                      />
                    </TableCell>
                    <TableCell className="max-w-56">
                      <div className="truncate font-mono text-xs">{row.gatewayTransactionId ?? "—"}</div>
                      {row.identifier && <div className="truncate font-mono text-xs text-muted-foreground">{row.identifier}</div>}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {row.amountCents === null ? "—" : format.money(fromCents(row.amountCents))}
                    </TableCell>
                    <TableCell>
                      <StatusBadge status={row.status} neutral />
                    </TableCell>
                    <TableCell>
                      <Badge variant={TONE[row.state]} data-testid="unconfirmed-state">
                        {t(`transactions.unconfirmed.states.${row.state}`)}
                      </Badge>
                      {row.state === "waiting" && seconds !== null && (
                        <div className="mt-1 text-xs text-muted-foreground">
                          {seconds > 0 ? t("transactions.unconfirmed.nextCheck", { seconds }) : t("transactions.unconfirmed.nextCheckNow")}
                        </div>
                      )}
                    </TableCell>
                    <TableCell className="text-right tabular-nums text-muted-foreground">
                      {t("transactions.unconfirmed.deliveries", { count: row.deliveries })}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Card>
      )}
      {rows.length === LIMIT && <p className="text-sm text-muted-foreground">{t("transactions.unconfirmed.showing", { count: LIMIT })}</p>}
    </div>
  );
}
