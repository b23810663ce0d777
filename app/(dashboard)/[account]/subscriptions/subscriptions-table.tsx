import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { accountPath } from "@/lib/accounts/paths";
import type { Translate } from "@/lib/i18n/translate";
import type { SubscriptionView } from "@/lib/subscriptions/queries";
import { stateVariant, type SubscriptionWords } from "./words";

/** The list: the console's state in words with the gateway's status beside it as it came. */
export function SubscriptionsTable({
  t,
  words,
  views,
  accountId,
}: {
  t: Translate;
  words: SubscriptionWords;
  views: SubscriptionView[];
  accountId: string;
}) {
  return (
    <Card className="py-0">
      <Table>
        <TableCaption className="sr-only">{t("subscriptions.tableCaption")}</TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead>{t("subscriptions.columns.customer")}</TableHead>
            <TableHead>{t("subscriptions.columns.product")}</TableHead>
            <TableHead className="text-right">{t("subscriptions.columns.amount")}</TableHead>
            <TableHead>{t("subscriptions.columns.state")}</TableHead>
            <TableHead>{t("subscriptions.columns.gatewayStatus")}</TableHead>
            <TableHead className="hidden md:table-cell">{t("subscriptions.columns.nextCharge")}</TableHead>
            <TableHead className="hidden md:table-cell">{t("subscriptions.columns.lastPayment")}</TableHead>
            <TableHead className="text-right">{t("subscriptions.columns.paid")}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {views.map((view) => {
            const s = view.subscription;
            return (
              <TableRow key={s.id} data-testid={`subscription-row-${s.identifier ?? s.gatewaySubscriptionId ?? s.id}`}>
                <TableCell className="max-w-48 whitespace-normal">
                  <Link href={accountPath(accountId, `/subscriptions/${s.id}`)} className="hover:underline">
                    {s.clientName ?? s.clientEmail ?? words.unknown}
                  </Link>
                  {s.clientName && s.clientEmail && <span className="block truncate text-xs text-muted-foreground">{s.clientEmail}</span>}
                </TableCell>
                <TableCell className="max-w-48 whitespace-normal">{s.productName ?? words.unknown}</TableCell>
                <TableCell className="text-right tabular-nums">
                  {words.money(s.amountCents)}
                  <span className="block text-xs text-muted-foreground">
                    {words.method(s.paymentMethod)} · {words.periodicity(view)}
                  </span>
                </TableCell>
                <TableCell data-testid="subscription-state" data-state={view.state.state}>
                  <Badge variant={stateVariant(view)}>{words.state(view)}</Badge>
                  {view.confirming > 0 && (
                    <span className="block text-xs text-muted-foreground">{t("subscriptions.confirming", { count: view.confirming })}</span>
                  )}
                </TableCell>
                <TableCell data-testid="subscription-gateway-status">
                  {s.gatewayStatus ? (
                    <code className="font-mono text-xs">{s.gatewayStatus}</code>
                  ) : (
                    <span className="text-xs text-muted-foreground">{t("subscriptions.noGatewayStatus")}</span>
                  )}
                </TableCell>
                <TableCell className="hidden md:table-cell">
                  {words.date(view.nextCharge?.at)}
                  {view.nextCharge?.calculated && (
                    <span className="block text-xs text-muted-foreground">{t("subscriptions.calculatedNext")}</span>
                  )}
                </TableCell>
                <TableCell className="hidden md:table-cell">{view.lastPaidAt ? words.date(view.lastPaidAt) : "—"}</TableCell>
                <TableCell className="text-right tabular-nums" data-testid="subscription-paid">
                  {t("subscriptions.paidCount", { count: view.paid.count })}
                  <span className="block text-xs text-muted-foreground">{words.money(view.paid.totalCents)}</span>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Card>
  );
}
