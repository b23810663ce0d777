import Link from "next/link";
import { StatusBadge } from "@/components/payments/status-badge";
import { Card } from "@/components/ui/card";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { accountPath } from "@/lib/accounts/paths";
import type { Translate } from "@/lib/i18n/translate";
import type { SubscriptionCharge } from "@/lib/subscriptions/queries";
import type { SubscriptionWords } from "../words";

/** A subscription's charges in order: renewal number, due date, date paid, status in words (the gateway's code in its tooltip). */
export function ChargesTable({
  t,
  words,
  charges,
  accountId,
}: {
  t: Translate;
  words: SubscriptionWords;
  charges: SubscriptionCharge[];
  accountId: string;
}) {
  return (
    <Card className="py-0">
      <Table>
        <TableCaption className="sr-only">{t("subscriptions.detail.chargesCaption")}</TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead>{t("subscriptions.detail.number")}</TableHead>
            <TableHead>{t("subscriptions.detail.dueAt")}</TableHead>
            <TableHead>{t("subscriptions.detail.paidAt")}</TableHead>
            <TableHead>{t("subscriptions.detail.status")}</TableHead>
            <TableHead className="text-right">{t("subscriptions.columns.amount")}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {charges.map((charge) => (
            <TableRow key={charge.gatewayTransactionId} data-testid="subscription-charge" data-paid={charge.paidAt ? "yes" : "no"}>
              <TableCell className="tabular-nums">{charge.chargeNumber ?? "—"}</TableCell>
              <TableCell>
                {charge.ledgerId ? (
                  <Link href={accountPath(accountId, `/transactions/${charge.ledgerId}`)} className="hover:underline">
                    {words.dateTime(charge.dueAt)}
                  </Link>
                ) : (
                  words.unknown
                )}
              </TableCell>
              <TableCell>{charge.paidAt ? words.dateTime(charge.paidAt) : "—"}</TableCell>
              <TableCell>
                {charge.ledgerId ? (
                  <StatusBadge status={charge.status} />
                ) : (
                  <span className="text-xs text-muted-foreground">{t("subscriptions.detail.notConfirmed")}</span>
                )}
              </TableCell>
              <TableCell className="text-right tabular-nums">{words.money(charge.amountCents)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}
