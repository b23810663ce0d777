import { StatusBadge } from "@/components/payments/status-badge";
import { CodeWord } from "@/components/ui/code-word";
import { notFound } from "next/navigation";
import { CheckCircle2, ExternalLink, Loader2, XCircle } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { routeId } from "@/lib/http/search-params";
import { fromCents } from "@/lib/br";
import { getCodeText, getI18n } from "@/lib/i18n/server";
import { requireAccountPage } from "@/lib/auth/account-page";
import { accountPath } from "@/lib/accounts/paths";
import { getTransfer, listTransferNotifications } from "@/lib/transfers/queries";
import { currentWithdraw } from "@/lib/transfers/withdraw-view";
import { SettlingRefresh } from "@/components/payments/settling-refresh";
import { isFinal, stateOf, transferMachine } from "@/lib/status/machine";
import { latestCheck } from "@/lib/submissions/checks";

const KNOWN_FIELDS = ["id", "amount", "feeAmount", "currency", "status", "pix", "pixType", "createdAt", "updatedAt", "deletedAt"];

function Row({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[11rem_1fr] sm:gap-4" data-testid={testId}>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm break-words">{children}</dd>
    </div>
  );
}

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
  const fieldLabel = (key: string) => (KNOWN_FIELDS.includes(key) ? t(`transfers.fields.${key}`) : key);
  const renderValue = (key: string, value: unknown, of: "withdraw" | "payoutAccount") => {
    if (value === null || value === undefined || value === "") return "—";
    if ((key === "amount" || key === "feeAmount") && typeof value === "number") return format.money(value);
    if (key === "status" && typeof value === "string")
      return of === "withdraw" ? <StatusBadge kind="transfer" status={value} /> : <CodeWord group="payoutAccount" code={value} />;
    if (key === "pixType" && typeof value === "string") return <CodeWord group="pixKeyType" code={value} />;
    if (key.endsWith("At") && typeof value === "string" && !Number.isNaN(Date.parse(value))) {
      return <span title={value}>{format.dateTimeZoned(value)}</span>;
    }
    if (typeof value === "object") return <code className="text-xs">{JSON.stringify(value)}</code>;
    return <span className={key === "id" || key === "pix" ? "font-mono text-xs" : undefined}>{String(value)}</span>;
  };
  const objectRows = (object: Record<string, unknown> | null, of: "withdraw" | "payoutAccount") =>
    object ? (
      <dl className="divide-y">
        {Object.entries(object).map(([key, value]) => (
          <Row key={key} label={fieldLabel(key)}>
            {renderValue(key, value, of)}
          </Row>
        ))}
      </dl>
    ) : (
      <p className="text-sm text-muted-foreground">—</p>
    );

  function transferOutcome(state: string | null, at: Date | string | null) {
    if (state === "completed") {
      return (
        <Alert data-testid="transfer-completed" className="border-success/40">
          <CheckCircle2 className="text-success" />
          <AlertTitle className="line-clamp-none">{t("transfers.completedTitle")}</AlertTitle>
          <AlertDescription>{at ? format.dateTimeZoned(at) : null}</AlertDescription>
        </Alert>
      );
    }
    if (state && isFinal(transferMachine, transfer!.withdrawStatus)) {
      return (
        <Alert variant="destructive" data-testid="transfer-closed" data-state={state}>
          <XCircle />
          <AlertTitle className="line-clamp-none">{t(`transfers.closed.${state}`)}</AlertTitle>
          <AlertDescription>{at ? format.dateTimeZoned(at) : null}</AlertDescription>
        </Alert>
      );
    }
    // Waiting for the gateway's notification: the page follows it by itself.
    return (
      <Alert data-testid="transfer-waiting">
        <Loader2 className="animate-spin" />
        <AlertTitle className="line-clamp-none">{t("transfers.waitingTitle")}</AlertTitle>
        <AlertDescription>{t("transfers.waitingDescription")}</AlertDescription>
        <SettlingRefresh everyMs={1_000} />
      </Alert>
    );
  }

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
      {transfer.submission === "SUBMITTED" && transferOutcome(stateOf(transferMachine, transfer.withdrawStatus), transfer.withdrawStatusAt)}
      {transfer.submission === "REJECTED" && (
        <Alert variant="destructive">
          <AlertTitle className="line-clamp-none">{t("transfers.rejectedTitle")}</AlertTitle>
          {transfer.error?.message && <AlertDescription>{transfer.error.message}</AlertDescription>}
        </Alert>
      )}

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>{t("transfers.status")}</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="divide-y">
              <Row label={t("transfers.statusAsReported")} testId="transfer-status">
                <span className="flex flex-wrap items-center gap-2">
                  {transfer.withdrawStatus ? <StatusBadge kind="transfer" status={transfer.withdrawStatus} /> : t("transfers.noStatus")}
                  {transfer.withdrawStatusAt && (
                    <span className="text-xs text-muted-foreground">{format.dateTimeZoned(transfer.withdrawStatusAt)}</span>
                  )}
                </span>
                <p className="mt-1 text-xs text-muted-foreground">{t("transfers.confirmedBy")}</p>
              </Row>
              <Row label={t("transfers.identifier")}>
                <span className="font-mono text-xs">{transfer.identifier}</span>{" "}
                <Badge variant="outline" className="ml-1">
                  {t(`vocab.submission.${transfer.submission}`)}
                </Badge>
              </Row>
              <Row label={t("transfers.amount")}>{format.money(fromCents(transfer.amountCents))}</Row>
              <Row label={t("transfers.fee")}>{transfer.feeCents === null ? "—" : format.money(fromCents(transfer.feeCents))}</Row>
              <Row label={t("transfers.feeChoice")}>
                {transfer.discountFeeOfReceiver ? t("transfers.feeFromReceiver") : t("transfers.feeNotFromReceiver")}
              </Row>
              <Row label={t("transfers.receipt")}>
                {transfer.receiptUrl ? (
                  <a href={transfer.receiptUrl} target="_blank" rel="noreferrer noopener" className="text-primary hover:underline">
                    {t("transfers.openReceipt")}
                  </a>
                ) : (
                  "—"
                )}
              </Row>
              <Row label={t("transfers.lastNotification")}>
                {transfer.lastNotificationAt ? (
                  <>
                    {transfer.lastNotificationEvent && (
                      <>
                        <CodeWord group="gatewayEvent" code={transfer.lastNotificationEvent} />
                        {" · "}
                      </>
                    )}
                    {format.dateTimeZoned(transfer.lastNotificationAt)}
                  </>
                ) : (
                  "—"
                )}
              </Row>
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t("transfers.receiver")}</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="divide-y">
              <Row label={t("transfers.ownerName")}>{transfer.ownerName}</Row>
              <Row label={t("transfers.ownerDocumentType")}>
                <CodeWord group="documentType" code={transfer.ownerDocumentType} /> {transfer.ownerDocumentNumber}
              </Row>
              <Row label={t("transfers.pixKey")}>
                <span className="font-mono text-xs break-all">{transfer.pixKey}</span> (
                <CodeWord group="pixKeyType" code={transfer.pixKeyType} />)
              </Row>
              <Row label={t("transfers.ownerIp")}>{transfer.ownerIp}</Row>
              <Row label={t("transfers.createdBy")}>{transfer.createdByEmail ?? "—"}</Row>
              <Row label={t("transfers.createdAt")}>{format.dateTimeZoned(transfer.createdAt)}</Row>
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t("transfers.withdraw")}</CardTitle>
          </CardHeader>
          <CardContent data-testid="transfer-withdraw">{objectRows(currentWithdraw(transfer.withdraw, transfer), "withdraw")}</CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t("transfers.payoutAccount")}</CardTitle>
          </CardHeader>
          <CardContent>{objectRows(transfer.payoutAccount, "payoutAccount")}</CardContent>
        </Card>
      </div>

      <Card className={notifications.length ? "pb-0" : undefined}>
        <CardHeader>
          <CardTitle>{t("transfers.notifications")}</CardTitle>
        </CardHeader>
        {notifications.length === 0 ? (
          <CardContent>
            <p className="text-sm text-muted-foreground">{t("transfers.noNotifications")}</p>
          </CardContent>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t("transfers.receivedAt")}</TableHead>
                <TableHead>{t("transfers.event")}</TableHead>
                <TableHead>{t("transfers.status")}</TableHead>
                <TableHead className="text-right">{t("transfers.deliveries")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {notifications.map((note) => (
                <TableRow key={note.id}>
                  <TableCell className="whitespace-nowrap text-muted-foreground">{format.dateTimeZoned(note.receivedAt)}</TableCell>
                  <TableCell>
                    <CodeWord group="gatewayEvent" code={note.event} />
                  </TableCell>
                  <TableCell>
                    <StatusBadge kind="transfer" status={note.withdrawStatus} />
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{note.deliveries}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Card>
    </div>
  );
}
