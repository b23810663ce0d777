"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { ArrowLeft } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { applyActionResult } from "@/components/forms/action-result";
import { useDeferredResolver } from "@/components/forms/deferred-resolver";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import type { BalanceEstimateValue } from "@/components/payments/balance-estimate";
import { useI18n } from "@/lib/i18n/client";
import type { TransferFormValues, TransferInput } from "@/lib/transfers/schemas";
import { sendFailureView } from "@/lib/transfers/send-failure";
import { submitTransferAction } from "../actions";
import { accountPath } from "@/lib/accounts/paths";
import { RefusalAlert, ReviewCard, type Refusal } from "./review-summary";
import { SendDialog } from "./send-dialog";
import { AmountFields, ReceiverFields } from "./transfer-fields";

export function TransferForm({
  account,
  identifier,
  clientIp,
  secondFactor,
  balance,
}: {
  account: { id: string; name: string; mode: "test" | "live" };
  /** The console's estimate of the available balance (null: the user may not see the balance). */
  balance: BalanceEstimateValue | null;
  identifier: string;
  clientIp: string | null;
  /** The user confirms money out with a code from the authenticator app as well. */
  secondFactor: boolean;
}) {
  const { t, format } = useI18n();
  const router = useRouter();
  const [review, setReview] = useState<TransferInput | null>(null);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  // `gatewaySaid`: the gateway's own text when the console explains the refusal in its words (tooltip only).
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  const { resolver, events } = useDeferredResolver<TransferFormValues, TransferInput>(() =>
    import("@/lib/transfers/schemas").then((m) => m.transferFormSchema),
  );
  const form = useForm<TransferFormValues, unknown, TransferInput>({
    resolver,
    defaultValues: {
      identifier,
      amount: "",
      discountFeeOfReceiver: true,
      pixKeyType: "email",
      pixKeyTypeOther: "",
      pixKey: "",
      ownerName: "",
      ownerDocumentType: "cpf",
      ownerDocumentTypeOther: "",
      ownerDocumentNumber: "",
    },
  });

  function onReview(values: TransferInput) {
    setRefusal(null);
    setReview(values);
  }

  async function onSend() {
    if (!review) return;
    setSending(true);
    setPasswordError(null);
    setCodeError(null);
    const result = await submitTransferAction({
      accountId: account.id,
      transfer: form.getValues(),
      password,
      code: secondFactor ? code : undefined,
    });
    setSending(false);
    if (result.ok) {
      setPasswordOpen(false);
      toast.success(result.data.replayed ? t("transfers.replayed") : t("transfers.sent"));
      router.push(accountPath(account.id, `/transfers/${result.data.transferId}`));
      return;
    }
    const failure = sendFailureView(result);
    if (failure.show === "password") {
      setPasswordError(t(failure.key));
      return;
    }
    if (failure.show === "code") {
      setCode("");
      setCodeError(t(failure.key));
      return;
    }
    setPasswordOpen(false);
    setPassword("");
    setCode("");
    if (failure.show === "fields") {
      setReview(null);
      applyActionResult(form, { ...result, fieldErrors: failure.fieldErrors }, t);
      return;
    }
    setRefusal({
      title: t(failure.title),
      detail: failure.detailKey ? t(failure.detailKey) : failure.detail,
      gatewaySaid: failure.gatewaySaid,
    });
  }

  if (review) {
    const amount = format.money(review.amount);
    return (
      <div className="space-y-4">
        {refusal && <RefusalAlert refusal={refusal} />}
        <ReviewCard account={account} review={review} balance={balance} clientIp={clientIp}>
          <Button variant="outline" onClick={() => setReview(null)}>
            <ArrowLeft /> {t("transfers.edit")}
          </Button>
          <SendDialog
            state={{ open: passwordOpen, password, passwordError, code, codeError, sending }}
            onOpenChange={(open) => {
              setPasswordOpen(open);
              if (!open) {
                setPassword("");
                setPasswordError(null);
                setCode("");
                setCodeError(null);
              }
            }}
            setPassword={setPassword}
            setCode={setCode}
            onSend={onSend}
            amount={amount}
            clientIp={clientIp}
            secondFactor={secondFactor}
          />
        </ReviewCard>
      </div>
    );
  }

  return (
    <Form {...form}>
      <form {...events} onSubmit={form.handleSubmit((values) => onReview(values))} className="space-y-6" noValidate>
        {!clientIp && (
          <Alert variant="destructive">
            <AlertTitle className="line-clamp-none">{t("transfers.ipMissingTitle")}</AlertTitle>
            <AlertDescription>{t("transfers.ipMissing")}</AlertDescription>
          </Alert>
        )}
        <AmountFields form={form} account={account} identifier={identifier} balance={balance} />
        <ReceiverFields form={form} />
        <div className="flex justify-end">
          <Button type="submit" disabled={!clientIp}>
            {t("transfers.review")}
          </Button>
        </div>
      </form>
    </Form>
  );
}
