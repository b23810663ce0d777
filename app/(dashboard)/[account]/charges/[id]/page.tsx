import { notFound } from "next/navigation";
import { requireAccountPage } from "@/lib/auth/account-page";
import { can } from "@/lib/auth/session";
import { formKindOf } from "@/lib/charges/view";
import { firstChargeOf, getFirstChargeRow } from "@/lib/charges/subscription-charge";
import { routeId } from "@/lib/http/search-params";
import { getI18n, getStatusLabel } from "@/lib/i18n/server";
import { stateOf, transactionMachine } from "@/lib/status/machine";
import { latestCheck } from "@/lib/submissions/checks";
import { getLedgerRow, type LedgerRow } from "@/lib/ledger/queries";
import { currentFeedSeq, reportedEndToEndId } from "@/lib/notifications/queries";
import { ChargeFrame, recordedEndToEndId, RawFallback, secondsUntil, type ChargeView } from "./frame";
import { OUTCOME_OF_KIND } from "./kinds";

/** The page after a submission: one frame for every kind, and the outcome of the charge's own kind inside it. */
export default async function ChargeResultPage({ params }: { params: Promise<{ account: string; id: string }> }) {
  const { account: accountParam, id: idParam } = await params;
  const id = routeId(idParam) ?? notFound();
  const ctx = await requireAccountPage("transactions.view", accountParam);
  const row = await getLedgerRow(ctx.account.id, id);
  if (!row || row.origin !== "console") notFound();
  const { t, format } = await getI18n();
  const amountOf = (of: LedgerRow) => {
    const amount = of.amountCents !== null ? of.amountCents / 100 : null;
    return amount !== null ? (of.currency === "BRL" ? format.money(amount) : `${of.currency} ${amount.toFixed(2)}`) : "";
  };
  const unsettled = row.submission === "UNKNOWN" || row.submission === "SUBMITTING";
  const firstCharge = row.kind.endsWith("_subscription") ? firstChargeOf(row.response) : null;
  const firstChargeRow = firstCharge ? await getFirstChargeRow(row.accountId, firstCharge.transactionId) : null;
  const paidRow = [row, firstChargeRow].find((candidate) => candidate && stateOf(transactionMachine, candidate.status) === "paid") ?? null;
  const check = unsettled || row.pendingStatus ? await latestCheck("ledger", row.id) : null;
  const view: ChargeView = {
    row,
    account: ctx.account,
    t,
    format,
    statusLabel: await getStatusLabel(),
    amountOf,
    amountLabel: amountOf(row),
    canCreate: can(ctx, "charges.create", row.accountId),
    formKind: formKindOf(row.kind),
    check,
    firstCharge,
    firstChargeRow,
    paidRow,
    paidEndToEndId: paidRow ? (recordedEndToEndId(paidRow) ?? (await reportedEndToEndId(paidRow.accountId, paidRow.id))) : null,
    since: await currentFeedSeq(),
    checkDueInSeconds: check ? secondsUntil(check.nextAt) : 0,
  };
  const Outcome = row.kind === "external" ? RawFallback : OUTCOME_OF_KIND[row.kind];
  return <ChargeFrame view={view} outcome={<Outcome view={view} />} />;
}
