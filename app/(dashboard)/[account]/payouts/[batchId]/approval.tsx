"use client";

import { useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Ban, ShieldCheck, Undo2 } from "lucide-react";
import { FormDialog, useFormDialog } from "@/components/forms/form-dialog";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/toast";
import { answerOf, isNoAnswer } from "@/lib/actions/answer";
import { useT } from "@/lib/i18n/client";
import { approvePayoutBatchAction, rejectPayoutBatchAction, withdrawPayoutBatchAction } from "../actions";
import type { RejectValues } from "../schemas";
import { useRun } from "../use-run";

/** The maker takes the batch back to change it; the checker no longer sees it. */
export function WithdrawButton({ accountId, batchId }: { accountId: string; batchId: string }) {
  const t = useT();
  const { busy, run } = useRun();
  return (
    <Button
      variant="outline"
      loading={busy === "withdraw"}
      data-testid="withdraw-batch"
      onClick={() => void run("withdraw", () => withdrawPayoutBatchAction({ accountId, batchId }), t("payouts.approval.withdrawn"))}
    >
      <Undo2 /> {t("payouts.approval.withdraw")}
    </Button>
  );
}

/** The checker's password and authenticator code, then Approve; or Reject with a reason. */
export function ApprovalForm({
  accountId,
  batchId,
  total,
  rowCount,
  secondFactor,
  ipKnown,
  selfApproval,
}: {
  accountId: string;
  batchId: string;
  total: string;
  rowCount: number;
  secondFactor: boolean;
  ipKnown: boolean;
  selfApproval: boolean;
}) {
  const t = useT();
  const router = useRouter();
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<{ title: string; detail?: string } | null>(null);
  const [sending, setSending] = useState(false);

  async function approve() {
    setSending(true);
    setPasswordError(null);
    setCodeError(null);
    setRefusal(null);
    const result = await answerOf(() => approvePayoutBatchAction({ accountId, batchId, password, code: secondFactor ? code : undefined }));
    setSending(false);
    if (isNoAnswer(result)) {
      setRefusal({ title: t("errors.noAnswer.title"), detail: t("errors.noAnswer.body") });
      router.refresh();
      return;
    }
    if (result.ok) {
      // The action revalidated this page: it turns into the batch's progress by itself.
      toast.success(t("payouts.approval.approved"));
      return;
    }
    const fields = result.fieldErrors ?? {};
    if (fields.password?.[0]) {
      setPasswordError(t(fields.password[0]));
      return;
    }
    if (fields.code?.[0]) {
      setCode("");
      setCodeError(t(fields.code[0]));
      return;
    }
    setRefusal({ title: t(result.error), detail: result.message });
    if (result.error === "payouts.refusals.wrongState") router.refresh();
  }

  const ready = ipKnown && secondFactor;
  return (
    <div className="space-y-4 rounded-lg border bg-muted/20 p-4" data-testid="approval-form">
      <ApprovalNotices selfApproval={selfApproval} secondFactor={secondFactor} ipKnown={ipKnown} refusal={refusal} />
      <form
        id="approval-form"
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          void approve();
        }}
      >
        <p className="text-sm">{t("payouts.approval.confirmText", { count: rowCount, total })}</p>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="space-y-2">
            <Label htmlFor="approval-password">{t("payouts.approval.password")}</Label>
            <Input
              id="approval-password"
              type="password"
              autoComplete="current-password"
              value={password}
              disabled={!ready}
              onChange={(event) => setPassword(event.target.value)}
              aria-invalid={passwordError ? true : undefined}
              aria-describedby={passwordError ? "approval-password-error" : undefined}
            />
            {passwordError && (
              <p id="approval-password-error" role="alert" className="text-[13px] font-medium text-destructive">
                {passwordError}
              </p>
            )}
          </div>
          <div className="space-y-2">
            <Label htmlFor="approval-code">{t("payouts.approval.code")}</Label>
            <Input
              id="approval-code"
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={32}
              className="font-mono tracking-widest"
              value={code}
              disabled={!ready}
              onChange={(event) => setCode(event.target.value)}
              aria-invalid={codeError ? true : undefined}
              aria-describedby={codeError ? "approval-code-error" : undefined}
            />
            {codeError && (
              <p id="approval-code-error" role="alert" className="text-[13px] font-medium text-destructive">
                {codeError}
              </p>
            )}
          </div>
        </div>
      </form>
      {/* Outside the form: the reject dialog's own form must not submit the approval (React events cross portals). */}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <RejectDialog accountId={accountId} batchId={batchId} />
        <Button
          type="submit"
          form="approval-form"
          loading={sending}
          disabled={!ready || !password || !code.trim()}
          data-testid="approve-batch"
        >
          <ShieldCheck /> {t("payouts.approval.approve", { total })}
        </Button>
      </div>
    </div>
  );
}

/** Why the approval may not go through yet (second factor, client address), and a refusal the server gave. */
function ApprovalNotices({
  selfApproval,
  secondFactor,
  ipKnown,
  refusal,
}: {
  selfApproval: boolean;
  secondFactor: boolean;
  ipKnown: boolean;
  refusal: { title: string; detail?: string } | null;
}) {
  const t = useT();
  return (
    <>
      {selfApproval && (
        <Alert variant="warning" data-testid="self-approval-note">
          <AlertDescription>{t("payouts.approval.selfApprovalNote")}</AlertDescription>
        </Alert>
      )}
      {!secondFactor && (
        <Alert variant="warning" data-testid="second-factor-required">
          <AlertDescription>
            {t("payouts.approval.secondFactorNeeded")}{" "}
            <Link href="/profile/security" className="font-medium underline">
              {t("payouts.approval.secondFactorLink")}
            </Link>
          </AlertDescription>
        </Alert>
      )}
      {!ipKnown && (
        <Alert variant="destructive">
          <AlertTitle className="line-clamp-none">{t("transfers.ipMissingTitle")}</AlertTitle>
          <AlertDescription>{t("transfers.ipMissing")}</AlertDescription>
        </Alert>
      )}
      {refusal && (
        <Alert variant="destructive" data-testid="approval-refusal">
          <AlertTitle className="line-clamp-none">{refusal.title}</AlertTitle>
          {refusal.detail && <AlertDescription>{refusal.detail}</AlertDescription>}
        </Alert>
      )}
    </>
  );
}

function RejectDialog({ accountId, batchId }: { accountId: string; batchId: string }) {
  const t = useT();
  const { form, dialog } = useFormDialog<RejectValues, void>({
    schema: () => import("../schemas").then((m) => m.rejectSchema),
    defaultValues: { batchId, reason: "" },
    action: (values) => rejectPayoutBatchAction({ ...values, accountId }),
    successMessage: () => t("payouts.reject.done"),
  });
  return (
    <FormDialog
      {...dialog}
      trigger={
        <Button type="button" variant="outline" data-testid="reject-batch">
          <Ban /> {t("payouts.reject.button")}
        </Button>
      }
      title={t("payouts.reject.title")}
      description={t("payouts.reject.description")}
      submitLabel={t("payouts.reject.confirm")}
      className="sm:max-w-md"
    >
      <FormField
        control={form.control}
        name="reason"
        render={({ field }) => (
          <FormItem>
            <FormLabel>{t("payouts.reject.reason")}</FormLabel>
            <FormControl>
              <Textarea {...field} rows={3} maxLength={500} />
            </FormControl>
            <FormMessage />
          </FormItem>
        )}
      />
    </FormDialog>
  );
}
