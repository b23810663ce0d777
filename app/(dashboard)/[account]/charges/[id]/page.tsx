import Link from "next/link";
import { StatusBadge } from "@/components/payments/status-badge";
import { notFound } from "next/navigation";
import { AlertTriangle, ArrowLeft, CheckCircle2, ExternalLink, FileText, Plus, Receipt, XCircle } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { CopyField } from "@/components/payments/copy-field";
import { Countdown } from "@/components/payments/countdown";
import { ItfBarcode } from "@/components/payments/itf-barcode";
import { MaskedCard } from "@/components/payments/masked-card";
import { QrCode, ShareLinks } from "@/components/payments/qr-card";
import { can, requirePage } from "@/lib/auth/session";
import { routeId } from "@/lib/http/search-params";
import { formatDigitableLine, parseBoletoBarcode } from "@/lib/br/boleto";
import { onlyDigits } from "@/lib/br/digits";
import { formKindOf } from "@/lib/charges/view";
import { paymentInstructions, type BoletoInstructions, type CryptoInstructions, type InstructionsSource, type PixInstructions } from "@/lib/charges/payment-instructions";
import { getI18n, getStatusLabel } from "@/lib/i18n/server";
import { machineKindForOperation } from "@/lib/status/machine";
import { getOperation, type LedgerRow } from "@/lib/operations/ledger";
import { firstChargeOf, getFirstChargeRow, type FirstCharge } from "@/lib/charges/subscription-charge";
import { findInAccounts } from "@/lib/auth/account-page";
import { currentFeedSeq, reportedEndToEndId } from "@/lib/webhooks/queries";
import { accountPath } from "@/lib/accounts/paths";
import { latestCheck, type GatewayCheck } from "@/lib/reconcile/checks";
import { LiveRefresh } from "@/components/payments/live-refresh";
import { SettlingRefresh } from "@/components/payments/settling-refresh";
import { CheckNowButton } from "./check-now-button";
import { PrintReceiptButton } from "./print-receipt-button";
import { stateOf, transactionMachine } from "@/lib/status/machine";

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === "object" ? (value as Json) : {});
const str = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

export default async function ChargeResultPage({ params }: { params: Promise<{ id: string }> }) {
  const id = routeId((await params).id) ?? notFound();
  const ctx = await requirePage("transactions.view");
  // The charge's own account, among those the user can reach: not whichever account another tab switched to.
  const found = await findInAccounts(ctx, "transactions.view", (accountId) => getOperation(accountId, id));
  if (!found || found.found.origin !== "console") notFound();
  const { found: row, account } = found;
  const { t, format } = await getI18n();
  const statusLabel = await getStatusLabel();
  const formKind = formKindOf(row.kind);
  const canCreate = can(ctx, "charges.create", row.accountId);
  const amountOf = (of: LedgerRow) => {
    const amount = of.amountCents !== null ? of.amountCents / 100 : null;
    return amount !== null ? (of.currency === "BRL" ? format.money(amount) : `${of.currency} ${amount.toFixed(2)}`) : "";
  };
  const amountLabel = amountOf(row);
  const unsettled = row.submission === "UNKNOWN" || row.submission === "SUBMITTING";
  const check = unsettled || row.pendingStatus ? await latestCheck("ledger", row.id) : null;
  // A subscription's payment arrives as its first charge, a transaction of its own: the page follows it.
  const firstCharge = row.kind.endsWith("_subscription") ? firstChargeOf(row.response) : null;
  const firstChargeRow = firstCharge ? await getFirstChargeRow(row.accountId, firstCharge.transactionId) : null;
  // The receipt's end-to-end id: the gateway's record when it has one, else what its notification said.
  const paidRow = [row, firstChargeRow].find((candidate) => candidate && stateOf(transactionMachine, candidate.status) === "paid") ?? null;
  const recordedEndToEndId = (candidate: LedgerRow) => str(obj(obj(candidate.gatewayRecord).pixInformation).endToEndId);
  const paidEndToEndId = paidRow ? (recordedEndToEndId(paidRow) ?? (await reportedEndToEndId(paidRow.accountId, paidRow.id))) : null;

  return (
    <div className="space-y-6" data-testid="charge-result" data-submission={row.submission} data-kind={row.kind}>
      <PageHeader
        eyebrow={
          <Link href={accountPath(row.accountId, formKind ? `/charges/new/${formKind}` : "/charges/new")} className="hover:text-foreground inline-flex items-center gap-1">
            <ArrowLeft className="size-3.5" /> {formKind ? t(`charges.kinds.${formKind}`) : t("charges.title")}
          </Link>
        }
        title={
          <span className="flex flex-wrap items-baseline gap-x-3">
            <span className="tabular-nums">{amountLabel}</span>
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
          <SubmissionBadge row={row} label={t(`charges.result.submissionStates.${row.submission ?? "SUBMITTING"}`)} />
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
            since={await currentFeedSeq()}
          />
        </div>
      </PageHeader>
      {(unsettled || row.pendingStatus || firstChargeRow?.pendingStatus) && check?.state !== "needs_person" && <SettlingRefresh />}

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_320px]">
        <div className="min-w-0 space-y-6">
          <Outcome row={row} canCreate={canCreate} formKind={formKind} amountLabel={amountLabel} check={check} />
        </div>
        <Details row={row} canCheck={canCreate} />
      </div>
    </div>
  );

  async function Details({ row, canCheck }: { row: LedgerRow; canCheck: boolean }) {
    const items: [string, React.ReactNode][] = [
      [t("charges.result.account"), <span key="a" data-testid="result-account" data-account-id={account.id}>{account.name} · {t(account.mode === "live" ? "shell.mode.liveLong" : "shell.mode.testLong")}</span>],
      [t("charges.result.identifier"), <span key="i" className="font-mono break-all" data-testid="result-identifier">{row.identifier}</span>],
      [t("charges.result.transactionId"), row.gatewayTransactionId ? <span key="x" className="font-mono break-all" data-testid="result-transaction-id">{row.gatewayTransactionId}</span> : "—"],
      [t("charges.result.amount"), amountLabel],
      [t("charges.result.fee"), row.feeCents !== null ? format.money(row.feeCents / 100) : "—"],
      [t("charges.result.createdBy"), row.createdByEmail ?? "—"],
      [t("charges.result.createdAt"), format.dateTimeZoned(row.createdAt)],
    ];
    return (
      <Card className="lg:sticky lg:top-20">
        <CardContent className="space-y-4">
          <DetailList items={items} className="space-y-3" />
          {canCheck && row.submission === "SUBMITTED" && !row.kind.endsWith("_subscription") && (
            <CheckNowButton accountId={row.accountId} id={row.id} label={t("charges.result.refreshStatus")} variant="outline" />
          )}
        </CardContent>
      </Card>
    );
  }

  function ReconcileLine({ check }: { check: GatewayCheck | null }) {
    if (!check) return null;
    if (check.state === "needs_person") {
      return <p className="font-medium" data-testid="reconcile-needs-person">{t("charges.unknown.needsPerson")}</p>;
    }
    if (check.state !== "pending") return null;
    const seconds = Math.max(0, Math.ceil((check.nextAt.getTime() - Date.now()) / 1000));
    return (
      <p className="text-sm" data-testid="reconcile-status">
        {seconds <= 1 ? t("charges.unknown.checkingNow") : t("charges.unknown.autoCheck", { seconds })}
        {check.attempts > 0 && <span className="text-muted-foreground"> · {t("charges.unknown.attempts", { count: check.attempts })}</span>}
      </p>
    );
  }

  function Outcome({
    row,
    canCreate,
    formKind,
    amountLabel,
    check,
  }: {
    row: LedgerRow;
    canCreate: boolean;
    formKind: string | null;
    amountLabel: string;
    check: GatewayCheck | null;
  }) {
    if (row.submission === "UNKNOWN" || row.submission === "SUBMITTING") {
      return (
        <Alert variant="warning" data-testid="result-unknown">
          <AlertTriangle />
          <AlertTitle>{t("charges.unknown.title")}</AlertTitle>
          <AlertDescription className="space-y-3">
            <p>{t("charges.unknown.body")}</p>
            <ReconcileLine check={check} />
            {canCreate && <CheckNowButton accountId={row.accountId} id={row.id} label={t("charges.unknown.check")} variant="outline" />}
          </AlertDescription>
        </Alert>
      );
    }
    if (row.submission === "ABSENT") {
      return (
        <Alert data-testid="result-absent">
          <CheckCircle2 />
          <AlertTitle>{t("charges.result.submissionStates.ABSENT")}</AlertTitle>
          <AlertDescription className="space-y-3">
            <p>{t("charges.unknown.absent")}</p>
            {canCreate && formKind && (
              <Button asChild size="sm">
                <Link href={accountPath(row.accountId, `/charges/new/${formKind}`)}>{t("charges.result.absentRetry")}</Link>
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
    const response = obj(row.response);
    const request = obj(row.request);
    // What the customer needs to pay: from the creation answer, else (that answer was lost and a
    // lookup settled the charge) from the latest lookup record.
    const instructions = paymentInstructions(row.kind, row.response, row.gatewayRecord);
    // Nothing to pay with: whatever the gateway did answer, shown as it is.
    const raw = <RawAnswer response={Object.keys(response).length > 0 ? response : obj(row.gatewayRecord)} />;
    // Once the gateway confirms the end of a one-off charge, the page stops asking to be paid.
    if (row.kind === "pix_charge" || row.kind === "pix_deposit" || row.kind === "boleto_charge" || row.kind === "crypto_charge") {
      const state = stateOf(transactionMachine, row.status);
      if (state === "paid") return <PaidOutcome row={row} amountLabel={amountLabel} />;
      if (state && state !== "awaiting" && state !== "unknown") return <ClosedOutcome row={row} state={state} amountLabel={amountLabel} />;
    }
    switch (row.kind) {
      case "pix_charge":
      case "pix_deposit":
        return instructions?.method === "pix" ? <PixOutcome row={row} pix={instructions} amountLabel={amountLabel} /> : raw;
      case "boleto_charge":
        return instructions?.method === "boleto" ? <BoletoOutcome boleto={instructions} request={request} /> : raw;
      case "crypto_charge":
        return instructions?.method === "crypto" ? <CryptoOutcome crypto={instructions} /> : raw;
      case "card_charge":
        return <CardOutcome row={row} response={response} request={request} amountLabel={amountLabel} />;
      default:
        return <SubscriptionOutcome row={row} response={response} request={request} first={firstCharge ?? firstChargeOf(row.response)} charge={firstChargeRow} />;
    }
  }

  function PaidOutcome({ row, amountLabel, title, hint }: { row: LedgerRow; amountLabel: string; title?: string; hint?: string }) {
    const record = obj(row.gatewayRecord);
    const payer = obj(record.pixMetadata);
    const endToEndId = (row.id === paidRow?.id ? paidEndToEndId : recordedEndToEndId(row)) ?? undefined;
    const items: [string, React.ReactNode][] = [
      [t("charges.result.paidAt"), row.paidAt ? format.dateTimeZoned(row.paidAt) : "—"],
      [t("charges.result.payer"), str(payer.payerName) ?? row.clientName ?? "—"],
      ...(str(payer.payerBankName) ? ([[t("charges.result.payerBank"), str(payer.payerBankName)]] as [string, React.ReactNode][]) : []),
      ...(endToEndId ? ([[t("charges.result.endToEndId"), <span key="e" className="font-mono break-all">{endToEndId}</span>]] as [string, React.ReactNode][]) : []),
      [t("charges.result.transactionId"), <span key="x" className="font-mono break-all">{row.gatewayTransactionId ?? "—"}</span>],
      [t("charges.result.identifier"), <span key="i" className="font-mono break-all">{row.identifier}</span>],
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
          <div className="text-3xl font-semibold tabular-nums" data-testid="paid-amount">{amountLabel}</div>
          <DetailList items={items} className="grid gap-3 sm:grid-cols-2" />
          <PrintReceiptButton label={t("charges.result.printReceipt")} />
        </CardContent>
      </Card>
    );
  }

  function ClosedOutcome({ row, state, amountLabel }: { row: LedgerRow; state: string; amountLabel: string }) {
    return (
      <Alert variant={state === "refunded" || state === "charged_back" ? "default" : "destructive"} data-testid="closed-result" data-state={state}>
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

  function FromLookup({ source }: { source: InstructionsSource }) {
    if (source !== "lookup") return null;
    return (
      <p className="text-muted-foreground text-xs" data-testid="instructions-from-lookup">
        {t("charges.result.fromLookup")}
      </p>
    );
  }

  function PixOutcome({ row, pix, amountLabel }: { row: LedgerRow; pix: PixInstructions; amountLabel: string }) {
    const { code, expiresAt } = pix;
    return (
      <Card data-testid="pix-result" data-source={pix.source}>
        <CardHeader>
          <CardTitle>{row.kind === "pix_deposit" ? t("charges.result.depositTitle") : t("charges.result.pixTitle")}</CardTitle>
          <CardDescription>{t("charges.result.pixHint")}</CardDescription>
          <FromLookup source={pix.source} />
        </CardHeader>
        <CardContent className="grid gap-6 md:grid-cols-[auto_minmax(0,1fr)]">
          <div className="flex flex-col items-center gap-3">
            <QrCode value={code} fileName={`pix-${row.identifier}.png`} downloadLabel={t("charges.result.downloadPng")} />
            {expiresAt && <Countdown expiresAt={expiresAt} label={t("charges.result.expiresIn")} expiredLabel={t("charges.result.expired")} />}
          </div>
          <div className="min-w-0 space-y-5">
            <div>
              <div className="text-muted-foreground text-xs">{t("charges.result.amount")}</div>
              <div className="text-3xl font-semibold tabular-nums">{amountLabel}</div>
            </div>
            <CopyField label={t("charges.result.copyPaste")} value={code} copyLabel={t("charges.result.copyCode")} copiedMessage={t("charges.result.codeCopied")} testId="pix-code" />
            <ShareLinks
              text={t("charges.result.shareText", { amount: amountLabel, code })}
              subject={t("charges.result.shareSubject", { amount: amountLabel })}
              whatsappLabel={t("charges.result.shareWhatsapp")}
              emailLabel={t("charges.result.shareEmail")}
              email={row.clientEmail}
            />
            <OrderLinks receiptUrl={pix.receiptUrl} orderUrl={pix.orderUrl} />
          </div>
        </CardContent>
      </Card>
    );
  }

  function BoletoOutcome({ boleto, request }: { boleto: BoletoInstructions; request: Json }) {
    const { digitableLine: line, barcode } = boleto;
    const parsed = barcode ? parseBoletoBarcode(barcode) : line ? parseBoletoBarcode(line) : null;
    const dueDate = str(request.dueDate) ?? boleto.dueDate?.slice(0, 10) ?? parsed?.dueDate ?? null;
    const barcodeDigits = barcode ? onlyDigits(barcode) : null;
    return (
      <Card data-testid="boleto-result" data-source={boleto.source}>
        <CardHeader>
          <CardTitle>{t("charges.result.boletoTitle")}</CardTitle>
          <FromLookup source={boleto.source} />
          {dueDate && (
            <CardDescription data-testid="boleto-due-date">
              {t("charges.result.dueDate")}: <span className="text-foreground font-medium">{format.date(`${dueDate}T12:00:00Z`)}</span>
            </CardDescription>
          )}
        </CardHeader>
        <CardContent className="space-y-6">
          {line && <CopyField label={t("charges.result.digitableLine")} value={onlyDigits(line)} display={formatDigitableLine(line)} copyLabel={t("charges.result.copyLine")} testId="digitable-line" />}
          {barcodeDigits && barcodeDigits.length % 2 === 0 && (
            <div className="space-y-1.5">
              <div className="text-muted-foreground text-xs font-medium tracking-wide uppercase">{t("charges.result.barcode")}</div>
              <div className="rounded-lg border bg-white p-3">
                <ItfBarcode digits={barcodeDigits} title={t("charges.result.barcode")} />
              </div>
            </div>
          )}
          <div className="flex flex-wrap gap-2">
            {boleto.pdfUrl && (
              <Button asChild>
                <a href={boleto.pdfUrl} target="_blank" rel="noopener noreferrer" data-testid="boleto-pdf">
                  <FileText /> {t("charges.result.pdf")}
                </a>
              </Button>
            )}
            <OrderLinks orderUrl={boleto.orderUrl} />
          </div>
        </CardContent>
      </Card>
    );
  }

  function CryptoOutcome({ crypto }: { crypto: CryptoInstructions }) {
    const { address } = crypto;
    const cryptoAmount = crypto.amount ?? null;
    return (
      <Card data-testid="crypto-result" data-source={crypto.source}>
        <CardHeader>
          <CardTitle>{t("charges.result.cryptoTitle")}</CardTitle>
          <FromLookup source={crypto.source} />
        </CardHeader>
        <CardContent className="grid gap-6 md:grid-cols-[auto_minmax(0,1fr)]">
          <div className="flex flex-col items-center gap-3">
            <QrCode value={address} size={200} />
            {crypto.expiresAt && <Countdown expiresAt={crypto.expiresAt} label={t("charges.result.expiresIn")} expiredLabel={t("charges.result.expired")} />}
          </div>
          <div className="min-w-0 space-y-5">
            <div className="grid grid-cols-2 gap-4">
              <div>
                <div className="text-muted-foreground text-xs">{t("charges.result.cryptoAmount")}</div>
                <div className="text-2xl font-semibold tabular-nums" data-testid="crypto-amount">
                  {cryptoAmount ?? "—"} <span className="text-muted-foreground text-base font-medium">{crypto.currency}</span>
                </div>
              </div>
              <div>
                <div className="text-muted-foreground text-xs">{t("charges.result.network")}</div>
                <div className="text-lg font-medium" data-testid="crypto-network">{crypto.network ?? "—"}</div>
              </div>
            </div>
            <CopyField label={t("charges.result.cryptoAddress")} value={address} copyLabel={t("charges.result.copyAddress")} testId="crypto-address" />
            <OrderLinks orderUrl={crypto.orderUrl} />
          </div>
        </CardContent>
      </Card>
    );
  }

  function CardOutcome({ row, response, request, amountLabel }: { row: LedgerRow; response: Json; request: Json; amountLabel: string }) {
    const card = obj(request.card);
    const reason = str(response.errorDescription) ?? str(obj(row.gatewayRecord).errorDescription);
    const declined = row.status === "FAILED" || !!reason;
    const approved = !declined && (row.status === "OK" || row.status === "COMPLETED");
    const installments = typeof request.installments === "number" ? request.installments : 1;
    const Icon = declined ? XCircle : approved ? CheckCircle2 : AlertTriangle;
    return (
      <Card data-testid="card-result" data-outcome={declined ? "declined" : approved ? "approved" : "pending"}>
        <CardContent className="grid gap-6 md:grid-cols-[minmax(0,1fr)_auto]">
          <div className="space-y-4">
            <div className={declined ? "text-destructive" : approved ? "text-success" : "text-warning"}>
              <Icon className="size-10" aria-hidden />
              <div className="mt-2 text-2xl font-semibold" data-testid="card-outcome">
                {declined ? t("charges.result.cardDeclined") : approved ? t("charges.result.cardApproved") : t("charges.result.cardPending")}
              </div>
            </div>
            <div className="text-3xl font-semibold tabular-nums">
              {amountLabel}
              {installments > 1 && <span className="text-muted-foreground ml-2 text-base font-normal">{t("charges.result.installments", { n: installments })}</span>}
            </div>
            {reason && (
              <p className="text-sm" data-testid="decline-reason">
                <span className="text-muted-foreground">{t("charges.result.declineReason")}: </span>
                {reason}
              </p>
            )}
            <OrderLinks orderUrl={str(obj(response.order).url)} />
          </div>
          <MaskedCard brand={str(card.brand)} bin={str(card.bin)} last4={str(card.last4)} owner={str(card.owner)} expiresAt={str(card.expiresAt)} />
        </CardContent>
      </Card>
    );
  }

  function recurrenceText(recurrence: Json): string {
    const type = str(recurrence.periodicityType);
    const n = recurrence.periodicity;
    // "Todo mês", "A cada 2 semanas": a period the console knows, with its plural; anything else as the gateway spelled it.
    const every =
      type && ["DAYS", "WEEKS", "MONTHS", "YEARS"].includes(type) && typeof n === "number"
        ? t(`charges.result.every.${type}`, { n })
        : t("charges.result.every.other", { n: String(n ?? ""), unit: type ?? "" });
    const first = typeof recurrence.firstChargeIn === "number" && recurrence.firstChargeIn > 0 ? t("charges.result.firstAfter", { n: recurrence.firstChargeIn }) : t("charges.result.firstNow");
    return `${every} · ${first}`;
  }

  /**
   * A subscription: its first charge's payment instructions from the creation answer (when it
   * carries them) until that charge is paid, then the receipt of that payment, or why it closed.
   */
  function SubscriptionOutcome({ row, response, request, first, charge }: { row: LedgerRow; response: Json; request: Json; first: FirstCharge; charge: LedgerRow | null }) {
    const product = obj(request.product);
    const recurrence = obj(request.subscription);
    const card = obj(request.card);
    const state = charge ? stateOf(transactionMachine, charge.status) : null;
    const closed = state !== null && state !== "paid" && state !== "awaiting" && state !== "unknown";
    const chargeAmount = (charge && amountOf(charge)) || amountLabel;
    // The first charge's instructions: from the subscription's answer, else from that charge's own lookup record.
    const firstPix = paymentInstructions("pix_charge", first.answer, charge?.gatewayRecord);
    const firstCrypto = firstPix ? null : paymentInstructions("crypto_charge", first.answer, charge?.gatewayRecord);
    const recorded: [string, React.ReactNode][] = [
      [t("charges.result.identifier"), row.identifier],
      [t("charges.fields.subscriptionProductName"), `${str(product.name) ?? ""} (${str(product.id) ?? ""})`],
      [t("charges.sections.recurrence"), recurrenceText(recurrence)],
      [t("charges.result.status"), <StatusBadge key="s" operationKind={row.kind} status={row.status} />],
    ];
    if (str(card.last4)) recorded.push([t("charges.result.card"), `${str(card.brand) ?? ""} ${str(card.bin) ?? ""}•••${str(card.last4)}`]);
    if (first.transactionId) {
      recorded.push([
        t("charges.result.firstCharge"),
        charge ? (
          <Link key="f" href={`/transactions/${charge.id}`} className="text-primary font-mono hover:underline" data-testid="first-charge-id">
            {first.transactionId}
          </Link>
        ) : (
          <span key="f" className="font-mono" data-testid="first-charge-id">
            {first.transactionId}
          </span>
        ),
      ]);
    }
    return (
      <div className="space-y-6" data-testid="subscription-result" data-first-charge={state ?? "none"}>
        {state === "paid" ? (
          <PaidOutcome row={charge!} amountLabel={chargeAmount} title={t("charges.result.subscriptionPaidTitle")} hint={t("charges.result.subscriptionPaidHint")} />
        ) : closed ? (
          <ClosedOutcome row={charge!} state={state!} amountLabel={chargeAmount} />
        ) : firstPix?.method === "pix" ? (
          <PixOutcome row={row} pix={firstPix} amountLabel={chargeAmount} />
        ) : firstCrypto?.method === "crypto" ? (
          <CryptoOutcome crypto={firstCrypto} />
        ) : null}
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Receipt className="text-primary size-5" /> {t("charges.result.subscriptionTitle")}
            </CardTitle>
            <CardDescription>{t("charges.result.recorded")}</CardDescription>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-3 text-sm sm:grid-cols-2">
              {recorded.map(([label, value]) => (
                <div key={label}>
                  <dt className="text-muted-foreground text-xs">{label}</dt>
                  <dd className="font-medium break-all">{value}</dd>
                </div>
              ))}
            </dl>
          </CardContent>
        </Card>
        {/* The answer carries the payment instructions: once the charge is settled it is not shown. */}
        {state !== "paid" && !closed && <RawAnswer response={response} />}
      </div>
    );
  }

  function RawAnswer({ response }: { response: Json }) {
    return (
      <Card>
        <CardHeader>
          <CardTitle className="text-base">{t("charges.result.gatewayAnswer")}</CardTitle>
          <CardDescription>{t("charges.result.gatewayAnswerHint")}</CardDescription>
        </CardHeader>
        <CardContent>
          <pre className="bg-muted/50 max-h-[480px] overflow-auto rounded-lg border p-3 font-mono text-xs leading-5" data-testid="gateway-answer">
            {JSON.stringify(response, null, 2)}
          </pre>
        </CardContent>
      </Card>
    );
  }

  function OrderLinks({ receiptUrl, orderUrl }: { receiptUrl?: string; orderUrl?: string }) {
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
}

function SubmissionBadge({ row, label }: { row: LedgerRow; label: string }) {
  const variant = row.submission === "SUBMITTED" ? "success" : row.submission === "REJECTED" ? "destructive" : row.submission === "ABSENT" ? "secondary" : "warning";
  return (
    <Badge variant={variant} data-testid="submission-badge">
      {label}
    </Badge>
  );
}

function DetailList({ items, className }: { items: Array<[string, React.ReactNode]>; className: string }) {
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
