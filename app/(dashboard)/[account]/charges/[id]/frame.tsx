import Link from "next/link";
import { AlertTriangle, ArrowLeft, CheckCircle2, ExternalLink, Plus, Receipt, XCircle } from "lucide-react";
import { StatusBadge } from "@/components/payments/status-badge";
import { LiveRefresh } from "@/components/payments/live-refresh";
import { SettlingRefresh } from "@/components/payments/settling-refresh";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { accountPath } from "@/lib/accounts/paths";
import type { AccessibleAccount } from "@/lib/auth/session";
import type { InstructionsSource } from "@/lib/charges/payment-instructions";
import type { ChargeFormKind } from "@/lib/charges/form-values";
import type { FirstCharge } from "@/lib/charges/subscription-charge";
import type { Formatters } from "@/lib/i18n/format";
import type { Translate } from "@/lib/i18n/translate";
import { isPayable, machineKindForOperation, stateOf, transactionMachine, type MachineKind } from "@/lib/status/machine";
import type { GatewayCheck } from "@/lib/submissions/checks";
import type { LedgerRow } from "@/lib/ledger/queries";
import { CheckNowButton } from "./check-now-button";
import { PrintReceiptButton } from "./print-receipt-button";

export type Json = Record<string, unknown>;
export const obj = (value: unknown): Json => (value && typeof value === "object" ? (value as Json) : {});
export const str = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/** Everything the page loaded about one charge, handed to the frame and to its kind's outcome. */
export type ChargeView = {
  row: LedgerRow;
  account: AccessibleAccount;
  t: Translate;
  format: Formatters;
  statusLabel: (kind: MachineKind, status: string) => string;
  amountOf: (row: LedgerRow) => string;
  amountLabel: string;
  canCreate: boolean;
  formKind: ChargeFormKind | null;
  check: GatewayCheck | null;
  /** A subscription's payment arrives as its first charge, a transaction of its own: the page follows it. */
  firstCharge: FirstCharge | null;
  firstChargeRow: LedgerRow | null;
  /** The receipt's end-to-end id: the gateway's record when it has one, else what its notification said. */
  paidRow: LedgerRow | null;
  paidEndToEndId: string | null;
  since: number;
  /** Seconds until the reconciler's next check, counted when the page was rendered. */
  checkDueInSeconds: number;
};

/** What one kind shows once the gateway has accepted it. */
export type KindOutcome = (props: { view: ChargeView }) => React.ReactNode | Promise<React.ReactNode>;

export function secondsUntil(at: Date): number {
  return Math.max(0, Math.ceil((at.getTime() - Date.now()) / 1000));
}

export const recordedEndToEndId = (candidate: LedgerRow) => str(obj(obj(candidate.gatewayRecord).pixInformation).endToEndId);

/** The header, the outcome of the submission, and the details beside it: the same for every kind. */
export function ChargeFrame({ view, outcome }: { view: ChargeView; outcome: React.ReactNode }) {
  const { row, t, formKind, canCreate, firstCharge, firstChargeRow, check, statusLabel } = view;
  const unsettled = row.submission === "UNKNOWN" || row.submission === "SUBMITTING";
  return (
    <div className="space-y-6" data-testid="charge-result" data-submission={row.submission} data-kind={row.kind}>
      <PageHeader
        eyebrow={
          <Link
            href={accountPath(row.accountId, formKind ? `/charges/new/${formKind}` : "/charges/new")}
            className="hover:text-foreground inline-flex items-center gap-1"
          >
            <ArrowLeft className="size-3.5" /> {formKind ? t(`charges.kinds.${formKind}`) : t("charges.title")}
          </Link>
        }
        title={
          <span className="flex flex-wrap items-baseline gap-x-3">
            <span className="tabular-nums">{view.amountLabel}</span>
            {row.clientName && <span className="text-muted-foreground text-lg font-normal">{row.clientName}</span>}
          </span>
        }
        actions={
          canCreate ? (
            <Button asChild variant="outline">
              <Link href={accountPath(row.accountId, "/charges/new")}>
                <Plus /> {t("charges.result.newCharge")}
              </Link>
            </Button>
          ) : null
        }
      >
        <div className="mt-1 flex flex-wrap items-center gap-2">
          <SubmissionBadge row={row} label={t(`vocab.submission.${row.submission ?? "SUBMITTING"}`)} />
          {row.status && (
            <span data-testid="gateway-status" data-status={row.status}>
              <StatusBadge operationKind={row.kind} status={row.status} />
            </span>
          )}
          {row.pendingStatus && (
            <Badge variant="warning" data-testid="pending-confirmation">
              {t("charges.result.confirming", { status: statusLabel(machineKindForOperation(row.kind), row.pendingStatus) })}
            </Badge>
          )}
          {firstChargeRow?.pendingStatus && (
            <Badge variant="warning" data-testid="first-charge-confirming">
              {t("charges.result.firstChargeConfirming", { status: statusLabel("transaction", firstChargeRow.pendingStatus) })}
            </Badge>
          )}
          <LiveRefresh
            accountId={row.accountId}
            ledgerId={row.id}
            gatewayTransactionIds={firstCharge?.transactionId ? [firstCharge.transactionId] : []}
            since={view.since}
          />
        </div>
      </PageHeader>
      {(unsettled || row.pendingStatus || firstChargeRow?.pendingStatus) && check?.state !== "needs_person" && <SettlingRefresh />}

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_320px]">
        <div className="min-w-0 space-y-6">
          <SubmissionOutcome view={view}>{outcome}</SubmissionOutcome>
        </div>
        <Details view={view} />
      </div>
    </div>
  );
}

function Details({ view }: { view: ChargeView }) {
  const { row, account, t, format, canCreate } = view;
  const items: [string, React.ReactNode][] = [
    [
      t("charges.result.account"),
      <span key="a" data-testid="result-account" data-account-id={account.id}>
        {account.name} · {t(account.mode === "live" ? "shell.mode.liveLong" : "shell.mode.testLong")}
      </span>,
    ],
    [
      t("charges.result.identifier"),
      <span key="i" className="font-mono break-all" data-testid="result-identifier">
        {row.identifier}
      </span>,
    ],
    [
      t("charges.result.transactionId"),
      row.gatewayTransactionId ? (
        <span key="x" className="font-mono break-all" data-testid="result-transaction-id">
          {row.gatewayTransactionId}
        </span>
      ) : (
        "—"
      ),
    ],
    [t("charges.result.amount"), view.amountLabel],
    [t("charges.result.fee"), row.feeCents !== null ? format.money(row.feeCents / 100) : "—"],
    [t("charges.result.createdBy"), row.createdByEmail ?? "—"],
    [t("charges.result.createdAt"), format.dateTimeZoned(row.createdAt)],
  ];
  return (
    <Card className="lg:sticky lg:top-20">
      <CardContent className="space-y-4">
        <DetailList items={items} className="space-y-3" />
        {canCreate && row.submission === "SUBMITTED" && !row.kind.endsWith("_subscription") && (
          <CheckNowButton accountId={row.accountId} id={row.id} label={t("charges.result.refreshStatus")} variant="outline" />
        )}
      </CardContent>
    </Card>
  );
}

/** Unknown, absent or rejected submissions read the same for every kind; an accepted one shows its kind's outcome. */
function SubmissionOutcome({ view, children }: { view: ChargeView; children: React.ReactNode }) {
  const { row, t, canCreate, formKind } = view;
  if (row.submission === "UNKNOWN" || row.submission === "SUBMITTING") {
    return (
      <Alert variant="warning" data-testid="result-unknown">
        <AlertTriangle />
        <AlertTitle>{t("charges.unknown.title")}</AlertTitle>
        <AlertDescription className="space-y-3">
          <p>{t("charges.unknown.body")}</p>
          <ReconcileLine check={view.check} seconds={view.checkDueInSeconds} t={t} />
          {canCreate && <CheckNowButton accountId={row.accountId} id={row.id} label={t("charges.unknown.check")} variant="outline" />}
        </AlertDescription>
      </Alert>
    );
  }
  if (row.submission === "ABSENT") {
    return (
      <Alert data-testid="result-absent">
        <CheckCircle2 />
        <AlertTitle>{t("vocab.submission.ABSENT")}</AlertTitle>
        <AlertDescription className="space-y-3">
          <p>{t("charges.unknown.absent")}</p>
          {canCreate && formKind && (
            <Button asChild size="sm">
              <Link href={`${accountPath(row.accountId, `/charges/new/${formKind}`)}?from=${row.id}`}>
                {t("charges.result.absentRetry")}
              </Link>
            </Button>
          )}
        </AlertDescription>
      </Alert>
    );
  }
  if (row.submission === "REJECTED") {
    return (
      <Alert variant="destructive" data-testid="result-rejected">
        <XCircle />
        <AlertTitle>{t("charges.result.rejected")}</AlertTitle>
        <AlertDescription>
          <p>{t(`charges.errors.gateway.${row.error?.kind ?? "internal"}`)}</p>
          {row.error?.message && <p className="mt-1 font-mono text-xs">{row.error.message}</p>}
        </AlertDescription>
      </Alert>
    );
  }
  return children;
}

function ReconcileLine({ check, seconds, t }: { check: GatewayCheck | null; seconds: number; t: Translate }) {
  if (!check) return null;
  if (check.state === "needs_person") {
    return (
      <p className="font-medium" data-testid="reconcile-needs-person">
        {t("charges.unknown.needsPerson")}
      </p>
    );
  }
  if (check.state !== "pending") return null;
  return (
    <p className="text-sm" data-testid="reconcile-status">
      {seconds <= 1 ? t("charges.unknown.checkingNow") : t("charges.unknown.autoCheck", { seconds })}
      {check.attempts > 0 && <span className="text-muted-foreground"> · {t("charges.unknown.attempts", { count: check.attempts })}</span>}
    </p>
  );
}

/** Once the gateway confirms the end of a one-off charge, the page stops asking to be paid. */
export function settledOneOff(view: ChargeView): React.ReactNode | null {
  const { row, amountLabel } = view;
  if (isPayable(row.status)) return null;
  const state = stateOf(transactionMachine, row.status)!;
  if (state === "paid") return <PaidOutcome view={view} row={row} amountLabel={amountLabel} />;
  return <ClosedOutcome view={view} row={row} state={state} amountLabel={amountLabel} />;
}

/** Nothing to pay with: whatever the gateway did answer, shown as it is. */
export function RawFallback({ view }: { view: ChargeView }) {
  const response = obj(view.row.response);
  return <RawAnswer t={view.t} response={Object.keys(response).length > 0 ? response : obj(view.row.gatewayRecord)} />;
}

export function PaidOutcome({
  view,
  row,
  amountLabel,
  title,
  hint,
}: {
  view: ChargeView;
  row: LedgerRow;
  amountLabel: string;
  title?: string;
  hint?: string;
}) {
  const { t, format } = view;
  const record = obj(row.gatewayRecord);
  const payer = obj(record.pixMetadata);
  const endToEndId = (row.id === view.paidRow?.id ? view.paidEndToEndId : recordedEndToEndId(row)) ?? undefined;
  const items: [string, React.ReactNode][] = [
    [t("charges.result.paidAt"), row.paidAt ? format.dateTimeZoned(row.paidAt) : "—"],
    [t("charges.result.payer"), str(payer.payerName) ?? row.clientName ?? "—"],
    ...(str(payer.payerBankName) ? ([[t("charges.result.payerBank"), str(payer.payerBankName)]] as [string, React.ReactNode][]) : []),
    ...(endToEndId
      ? ([
          [
            t("charges.result.endToEndId"),
            <span key="e" className="font-mono break-all">
              {endToEndId}
            </span>,
          ],
        ] as [string, React.ReactNode][])
      : []),
    [
      t("charges.result.transactionId"),
      <span key="x" className="font-mono break-all">
        {row.gatewayTransactionId ?? "—"}
      </span>,
    ],
    [
      t("charges.result.identifier"),
      <span key="i" className="font-mono break-all">
        {row.identifier}
      </span>,
    ],
  ];
  return (
    <Card data-testid="paid-result" className="border-success/40">
      <CardHeader className="flex flex-row items-start gap-3">
        <CheckCircle2 className="text-success mt-0.5 size-8 shrink-0" aria-hidden />
        <div className="min-w-0 space-y-1">
          <CardTitle className="text-xl">{title ?? t("charges.result.paidTitle")}</CardTitle>
          <CardDescription>{hint ?? t("charges.result.paidHint")}</CardDescription>
        </div>
      </CardHeader>
      <CardContent className="space-y-5">
        <div className="text-3xl font-semibold tabular-nums" data-testid="paid-amount">
          {amountLabel}
        </div>
        <DetailList items={items} className="grid gap-3 sm:grid-cols-2" />
        <PrintReceiptButton label={t("charges.result.printReceipt")} />
      </CardContent>
    </Card>
  );
}

export function ClosedOutcome({ view, row, state, amountLabel }: { view: ChargeView; row: LedgerRow; state: string; amountLabel: string }) {
  const { t, format } = view;
  return (
    <Alert
      variant={state === "refunded" || state === "charged_back" ? "default" : "destructive"}
      data-testid="closed-result"
      data-state={state}
    >
      <XCircle />
      <AlertTitle>{t(`charges.result.closed.${state}`)}</AlertTitle>
      <AlertDescription className="space-y-1">
        <p className="tabular-nums">{amountLabel}</p>
        <p>{t("charges.result.closedHint")}</p>
        {row.statusAt && <p className="text-xs">{format.dateTimeZoned(row.statusAt)}</p>}
      </AlertDescription>
    </Alert>
  );
}

export function FromLookup({ source, t }: { source: InstructionsSource; t: Translate }) {
  if (source !== "lookup") return null;
  return (
    <p className="text-muted-foreground text-xs" data-testid="instructions-from-lookup">
      {t("charges.result.fromLookup")}
    </p>
  );
}

export function RawAnswer({ response, t }: { response: Json; t: Translate }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{t("charges.result.gatewayAnswer")}</CardTitle>
        <CardDescription>{t("charges.result.gatewayAnswerHint")}</CardDescription>
      </CardHeader>
      <CardContent>
        <pre
          className="bg-muted/50 max-h-[480px] overflow-auto rounded-lg border p-3 font-mono text-xs leading-5"
          data-testid="gateway-answer"
        >
          {JSON.stringify(response, null, 2)}
        </pre>
      </CardContent>
    </Card>
  );
}

export function OrderLinks({ receiptUrl, orderUrl, t }: { receiptUrl?: string; orderUrl?: string; t: Translate }) {
  if (!receiptUrl && !orderUrl) return null;
  return (
    <div className="flex flex-wrap gap-2">
      {receiptUrl && (
        <Button asChild variant="outline" size="sm">
          <a href={receiptUrl} target="_blank" rel="noopener noreferrer" data-testid="receipt-link">
            <Receipt /> {t("charges.result.receipt")}
          </a>
        </Button>
      )}
      {orderUrl && (
        <Button asChild variant="outline" size="sm">
          <a href={orderUrl} target="_blank" rel="noopener noreferrer" data-testid="order-link">
            <ExternalLink /> {t("charges.result.order")}
          </a>
        </Button>
      )}
    </div>
  );
}

function SubmissionBadge({ row, label }: { row: LedgerRow; label: string }) {
  const variant =
    row.submission === "SUBMITTED"
      ? "success"
      : row.submission === "REJECTED"
        ? "destructive"
        : row.submission === "ABSENT"
          ? "secondary"
          : "warning";
  return (
    <Badge variant={variant} data-testid="submission-badge">
      {label}
    </Badge>
  );
}

export function DetailList({ items, className }: { items: Array<[string, React.ReactNode]>; className: string }) {
  return (
    <dl className={`text-sm ${className}`}>
      {items.map(([label, value]) => (
        <div key={label} className="flex flex-col gap-0.5">
          <dt className="text-muted-foreground text-xs">{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
