import { notFound } from "next/navigation";
import { ExternalLink } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { routeId } from "@/lib/http/search-params";
import { fromCents } from "@/lib/br";
import { getCodeText, getI18n } from "@/lib/i18n/server";
import { requireAccountPage } from "@/lib/auth/account-page";
import { accountPath } from "@/lib/accounts/paths";
import { getTransfer, listTransferNotifications } from "@/lib/transfers/queries";
import { currentWithdraw } from "@/lib/transfers/withdraw-view";
import { SettlingRefresh } from "@/components/payments/settling-refresh";
import { stateOf, transferMachine } from "@/lib/status/machine";
import { latestCheck } from "@/lib/submissions/checks";
import { NotificationsCard, ObjectRows, ReceiverCard, StatusCard, TransferOutcome } from "./sections";

export default async function TransferPage({ params }: { params: Promise<{ account: string; id: string }> }) {
  const id = routeId((await params).id) ?? notFound();
  const ctx = await requireAccountPage("transfers.view", (await params).account);
  const transfer = await getTransfer(ctx.account.id, id);
  const check =
    transfer && (transfer.submission === "UNKNOWN" || transfer.submission === "SUBMITTING")
      ? await latestCheck("transfer", transfer.id)
      : null;
  if (!transfer) notFound();
  const notifications = await listTransferNotifications(transfer.id);
  const { t, format } = await getI18n();
  const codeText = await getCodeText();

  return (
    <div className="space-y-6" data-withdraw-id={transfer.withdrawId ?? undefined}>
      <PageHeader
        back={{ href: accountPath(ctx.account.id, "/transfers"), label: t("transfers.back") }}
        title={`${format.money(fromCents(transfer.amountCents))} → ${transfer.ownerName}`}
        description={`${codeText("pixKeyType", transfer.pixKeyType)} · ${transfer.pixKey}`}
        actions={
          transfer.receiptUrl ? (
            <Button variant="outline" asChild>
              <a href={transfer.receiptUrl} target="_blank" rel="noreferrer noopener">
                <ExternalLink /> {t("transfers.openReceipt")}
              </a>
            </Button>
          ) : null
        }
      />

      {(transfer.submission === "UNKNOWN" || transfer.submission === "SUBMITTING") && (
        <Alert variant="warning" data-testid="transfer-unknown">
          <AlertTitle className="line-clamp-none">{t("transfers.unknownTitle")}</AlertTitle>
          <AlertDescription className="space-y-2">
            <p>{t("transfers.unknownDescription")}</p>
            {check?.state === "needs_person" && <p className="font-medium">{t("transfers.needsPerson")}</p>}
          </AlertDescription>
          {check?.state !== "needs_person" && <SettlingRefresh everyMs={5_000} />}
        </Alert>
      )}
      {transfer.submission === "SUBMITTED" && (
        <TransferOutcome
          state={stateOf(transferMachine, transfer.withdrawStatus)}
          at={transfer.withdrawStatusAt}
          withdrawStatus={transfer.withdrawStatus}
          t={t}
          format={format}
        />
      )}
      {transfer.submission === "REJECTED" && (
        <Alert variant="destructive">
          <AlertTitle className="line-clamp-none">{t("transfers.rejectedTitle")}</AlertTitle>
          {transfer.error?.message && <AlertDescription>{transfer.error.message}</AlertDescription>}
        </Alert>
      )}

      <div className="grid gap-6 lg:grid-cols-2">
        <StatusCard transfer={transfer} t={t} format={format} />
        <ReceiverCard transfer={transfer} t={t} format={format} />
        <Card>
          <CardHeader>
            <CardTitle>{t("transfers.withdraw")}</CardTitle>
          </CardHeader>
          <CardContent data-testid="transfer-withdraw">
            <ObjectRows object={currentWithdraw(transfer.withdraw, transfer)} of="withdraw" t={t} format={format} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t("transfers.payoutAccount")}</CardTitle>
          </CardHeader>
          <CardContent>
            <ObjectRows object={transfer.payoutAccount} of="payoutAccount" t={t} format={format} />
          </CardContent>
        </Card>
      </div>

      <NotificationsCard notifications={notifications} t={t} format={format} />
    </div>
  );
}
