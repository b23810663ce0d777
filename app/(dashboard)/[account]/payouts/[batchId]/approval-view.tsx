import { BalanceEstimate } from "@/components/payments/balance-estimate";
import { ModeBadge } from "@/components/shell/mode-badge";
import { accountPath } from "@/lib/accounts/paths";
import { availableEstimate } from "@/lib/balance/queries";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { hasSecondFactor } from "@/lib/auth/second-factor";
import { can } from "@/lib/auth/session";
import { fromCents } from "@/lib/br";
import { getPayoutSettings } from "@/lib/payout-batches/queries";
import { ownerIpOf } from "@/lib/transfers/owner-ip";
import { ApprovalForm, WithdrawButton } from "./approval";
import { type BatchViewProps, Fact } from "./parts";
import { SendableRows } from "./sendable-rows";

/** The account, its mode, the row count and the total: what the checker approves, named in full. */
export async function ApprovalView({ ctx, batch, rows, page, base, i18n }: Omit<BatchViewProps, "show">) {
  const { t, format } = i18n;
  const accountId = ctx.account.id;
  const settings = await getPayoutSettings(accountId);
  const isMaker = batch.createdBy === ctx.user.id || batch.submittedBy === ctx.user.id;
  const mayApprove = can(ctx, "payouts.approve", accountId);
  const mayPrepare = can(ctx, "payouts.prepare", accountId);
  const blockedAsMaker = isMaker && !settings.allowSelfApproval;
  const approvers = PERMISSIONS["payouts.approve"].map((role) => t(`shell.role.${role}`)).join(t("payouts.list.or"));
  const total = format.money(fromCents(batch.totalCents));
  const secondFactor = mayApprove && !blockedAsMaker ? await hasSecondFactor(ctx.user.id) : false;
  const ownerIp = ownerIpOf(ctx.ip);
  const balance = can(ctx, "balance.view", accountId) ? await availableEstimate(accountId) : null;

  return (
    <>
      {blockedAsMaker ? (
        <Alert variant="warning" data-testid="waiting-for-checker">
          <AlertTitle className="line-clamp-none">{t("payouts.approval.waitingTitle")}</AlertTitle>
          <AlertDescription>
            <p data-testid="self-approval-blocked">
              {mayApprove ? t("payouts.approval.makerCannotApprove") : t("payouts.approval.waiting", { roles: approvers })}
            </p>
            {mayPrepare && (
              <>
                <p>{t("payouts.approval.withdrawHint")}</p>
                <WithdrawButton accountId={accountId} batchId={batch.id} />
              </>
            )}
          </AlertDescription>
        </Alert>
      ) : !mayApprove ? (
        <Alert variant="warning" data-testid="waiting-for-checker">
          <AlertTitle className="line-clamp-none">{t("payouts.approval.waitingTitle")}</AlertTitle>
          <AlertDescription>
            <p>{t("payouts.approval.waiting", { roles: approvers })}</p>
          </AlertDescription>
        </Alert>
      ) : null}

      <Card data-testid="approval-screen">
        <CardHeader>
          <CardTitle>{t("payouts.approval.title")}</CardTitle>
          <CardDescription>{t("payouts.approval.description")}</CardDescription>
          {isMaker && mayPrepare && !blockedAsMaker && (
            <CardAction>
              <WithdrawButton accountId={accountId} batchId={batch.id} />
            </CardAction>
          )}
        </CardHeader>
        <CardContent className="space-y-5">
          <dl className="divide-y">
            <Fact label={t("payouts.approval.account")} testId="approval-account">
              <span className="flex flex-wrap items-center gap-2">
                {ctx.account.name} <ModeBadge mode={ctx.account.mode} />
              </span>
              <span className="block font-normal text-muted-foreground">
                {t(ctx.account.mode === "live" ? "transfers.liveMoney" : "transfers.testMoney")}
              </span>
            </Fact>
            <Fact label={t("payouts.approval.rows")} testId="approval-rows">
              <span className="text-lg tabular-nums">{format.number(batch.rowCount)}</span>
            </Fact>
            <Fact label={t("payouts.approval.total")} testId="approval-total">
              <span className="text-lg tabular-nums">{total}</span>
              {balance && (
                <BalanceEstimate estimate={balance} amountCents={batch.totalCents} balanceHref={accountPath(accountId, "/balance")} />
              )}
            </Fact>
            <Fact label={t("transfers.feeChoice")}>
              {batch.discountFeeOfReceiver ? t("transfers.feeFromReceiver") : t("transfers.feeNotFromReceiver")}
            </Fact>
            <Fact label={t("payouts.approval.preparedBy")}>
              {batch.createdByEmail}
              <span className="block font-normal text-muted-foreground">
                {t("payouts.approval.submittedAt", {
                  email: batch.submittedByEmail ?? batch.createdByEmail,
                  at: batch.submittedAt ? format.dateTimeZoned(batch.submittedAt) : "—",
                })}
              </span>
            </Fact>
          </dl>
          {mayApprove && !blockedAsMaker && (
            <ApprovalForm
              accountId={accountId}
              batchId={batch.id}
              total={total}
              rowCount={batch.rowCount}
              secondFactor={secondFactor}
              ipKnown={ownerIp !== null}
              selfApproval={isMaker}
            />
          )}
        </CardContent>
      </Card>
      <SendableRows rows={rows} page={page} base={base} i18n={i18n} title={t("payouts.approval.rowsTitle")} />
    </>
  );
}
