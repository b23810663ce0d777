import { CheckCircle2, Loader2, XCircle } from "lucide-react";
import { StatusBadge } from "@/components/payments/status-badge";
import { SettlingRefresh } from "@/components/payments/settling-refresh";
import { CodeWord } from "@/components/ui/code-word";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { fromCents } from "@/lib/br";
import type { Formatters } from "@/lib/i18n/format";
import type { Translate } from "@/lib/i18n/translate";
import { isFinal, transferMachine } from "@/lib/status/machine";
import type { TransferDto, TransferNotificationDto } from "@/lib/transfers/queries";

type Words = { t: Translate; format: Formatters };

const KNOWN_FIELDS = ["id", "amount", "feeAmount", "currency", "status", "pix", "pixType", "createdAt", "updatedAt", "deletedAt"];

function Row({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[11rem_1fr] sm:gap-4" data-testid={testId}>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm break-words">{children}</dd>
    </div>
  );
}

/** A gateway record's fields as rows, in words where the console knows the field. */
export function ObjectRows({
  object,
  of,
  t,
  format,
}: Words & { object: Record<string, unknown> | null; of: "withdraw" | "payoutAccount" }) {
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
  return object ? (
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
}

/** What became of a transfer the gateway accepted: completed, closed otherwise, or still waiting. */
export function TransferOutcome({
  state,
  at,
  withdrawStatus,
  t,
  format,
}: Words & { state: string | null; at: Date | string | null; withdrawStatus: string | null }) {
  if (state === "completed") {
    return (
      <Alert data-testid="transfer-completed" className="border-success/40">
        <CheckCircle2 className="text-success" />
        <AlertTitle className="line-clamp-none">{t("transfers.completedTitle")}</AlertTitle>
        <AlertDescription>{at ? format.dateTimeZoned(at) : null}</AlertDescription>
      </Alert>
    );
  }
  if (state && isFinal(transferMachine, withdrawStatus)) {
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

export function StatusCard({ transfer, t, format }: Words & { transfer: TransferDto }) {
  return (
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
  );
}

export function ReceiverCard({ transfer, t, format }: Words & { transfer: TransferDto }) {
  return (
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
  );
}

export function NotificationsCard({ notifications, t, format }: Words & { notifications: TransferNotificationDto[] }) {
  return (
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
  );
}
