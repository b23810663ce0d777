"use client";

import { useEffect, useState } from "react";
import { useRouter } from "next/navigation";
import { useWatch, type Control } from "react-hook-form";
import { AlertTriangle } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Form } from "@/components/ui/form";
import { useActionForm } from "@/components/forms/use-action-form";
import { KindSections } from "./kind-sections";
import { BasicsSection, NoAnswerAlert, PendingAlert, type Pending } from "./charge-form-parts";
import { useI18n } from "@/lib/i18n/client";
import { parseMoneyInput, toCents } from "@/lib/br";
import { expectedTotalCents, localIsoDate, type ChargeFormKind, type ChargeFormValues } from "@/lib/charges/form-values";
import { CHARGE_FORMS } from "@/lib/charges/kinds/forms";
import { checkOperationAction, createChargeAction, operationStateAction } from "../../actions";
import { accountPath } from "@/lib/accounts/paths";

function generateIdentifier(kind: ChargeFormKind): string {
  const random = crypto.randomUUID().replace(/-/g, "").slice(0, 10);
  return `${CHARGE_FORMS[kind].identifierPrefix}-${localIsoDate(new Date()).replace(/-/g, "")}-${random}`;
}

const storageKey = (accountId: string, kind: ChargeFormKind) => `charges:identifier:${accountId}:${kind}`;

function emptyValues(kind: ChargeFormKind, defaults: { clientIp: string }): ChargeFormValues {
  return {
    identifier: "",
    amount: "",
    client: { name: "", email: "", phone: "", document: "" },
    address: { country: "BR", zipCode: "", state: "", city: "", street: "", neighborhood: "", number: "", complement: "" },
    card: { number: "", owner: "", expiresAt: "", cvv: "", statementDescriptor: "" },
    installments: kind === "card" ? "1" : "",
    clientIp: defaults.clientIp,
    products: [],
    shippingFee: "",
    extraFee: "",
    discount: "",
    splits: [],
    metadata: [],
    origin: "",
    dueDate: "",
    currency: "BRL",
    cryptoCurrency: "USDT",
    network: "POLYGON",
    product: { id: "", name: "", price: "" },
    subscription: { periodicityType: "MONTHS", periodicity: "1", firstChargeIn: "0" },
  };
}

/** A form opened from an old charge: its values, and its identifier (which the new charge must not reuse). */
export type ChargeFormPrefill = { values: Partial<ChargeFormValues>; sourceIdentifier: string; buyerIp?: string | null };

export function ChargeForm({
  accountId,
  kind,
  requestIp,
  prefill,
}: {
  accountId: string;
  kind: ChargeFormKind;
  requestIp: string | null;
  prefill?: ChargeFormPrefill;
}) {
  const { t, format } = useI18n();
  const router = useRouter();
  const definition = CHARGE_FORMS[kind];
  const {
    form,
    onSubmit,
    pending: submitting,
    noAnswer,
    events,
  } = useActionForm({
    schema: definition.schema,
    defaultValues: { ...emptyValues(kind, { clientIp: requestIp ?? "" }), ...prefill?.values },
    mode: "onTouched",
    action: (values) => {
      setRejected(null);
      return createChargeAction({ accountId, kind, values: definition.pick(values) });
    },
    onSuccess: ({ id, submission }) => {
      if (submission === "SUBMITTED") return done(id);
      setPending({ id, note: submission === "SUBMITTING" ? "inFlight" : undefined });
    },
    onFailure: (failure) => {
      if (!failure.error.startsWith("charges.errors.gateway.")) return;
      setRejected({ title: t(failure.error), message: failure.message });
      return "shown";
    },
    onNoAnswer: () => "shown",
  });
  const sourceIdentifier = prefill?.sourceIdentifier;
  const [rejected, setRejected] = useState<{ title: string; message?: string } | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [checking, setChecking] = useState(false);
  const [autoCheck, setAutoCheck] = useState<{ seconds: number | null; needsPerson: boolean } | null>(null);

  // One identifier per form instance, kept across retries and page reloads until the operation exists.
  useEffect(() => {
    const stored = window.sessionStorage.getItem(storageKey(accountId, kind));
    // A form left with the old charge's identifier (its outcome never came back here) must not lend it to the new one.
    const identifier = stored && stored !== sourceIdentifier ? stored : generateIdentifier(kind);
    window.sessionStorage.setItem(storageKey(accountId, kind), identifier);
    form.setValue("identifier", identifier);
  }, [form, accountId, kind, sourceIdentifier]);

  const blocked = !!pending && pending.note !== "absent";
  // The identifier a submission with no answer went under stays until an answer comes: a second
  // click sends the same one, and the ledger recognises it instead of charging again.
  const identifierLocked = blocked || noAnswer;

  function done(id: string) {
    window.sessionStorage.removeItem(storageKey(accountId, kind));
    router.push(accountPath(accountId, `/charges/${encodeURIComponent(id)}`));
  }

  // An unknown outcome settles on the server by itself (the reconciler); the form follows it without a click.
  const pendingId = pending && pending.note !== "absent" ? pending.id : null;
  useEffect(() => {
    if (!pendingId) return;
    const timer = setInterval(async () => {
      // No answer this time (the server restarting): the next tick asks again.
      const result = await operationStateAction({ accountId, id: pendingId }).catch(() => null);
      if (!result?.ok) return;
      const { submission, nextCheckInSeconds, needsPerson } = result.data;
      if (submission === "SUBMITTED") return done(pendingId);
      if (submission === "ABSENT") setPending({ id: pendingId, note: "absent" });
      else setAutoCheck({ seconds: nextCheckInSeconds, needsPerson });
    }, 2_000);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- re-arm only when the watched operation changes
  }, [pendingId]);

  async function checkNow() {
    if (!pending) return;
    setChecking(true);
    try {
      const result = await checkOperationAction({ accountId, id: pending.id }).catch(() => null);
      if (!result?.ok) {
        setPending({ ...pending, note: "lookupFailed" });
        return;
      }
      const { submission, outcome } = result.data;
      if (submission === "SUBMITTED") return done(pending.id);
      if (submission === "ABSENT") setPending({ ...pending, note: "absent" });
      else if (outcome === "lookup_failed") setPending({ ...pending, note: "lookupFailed" });
      else if (submission === "SUBMITTING") setPending({ ...pending, note: "inFlight" });
      else setPending({ ...pending, note: "inconclusive" });
    } finally {
      setChecking(false);
    }
  }

  return (
    <Form {...form}>
      <form
        {...events}
        onSubmit={(event) => (blocked ? event.preventDefault() : onSubmit(event))}
        noValidate
        className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_340px]"
        data-testid="charge-form"
      >
        <div className="min-w-0 space-y-6">
          <BasicsSection
            control={form.control}
            kind={kind}
            identifierLocked={identifierLocked}
            onNewIdentifier={() => {
              const identifier = generateIdentifier(kind);
              window.sessionStorage.setItem(storageKey(accountId, kind), identifier);
              form.setValue("identifier", identifier, { shouldValidate: true });
              setPending(null);
            }}
          />

          <KindSections kind={kind} control={form.control} requestIp={requestIp} buyerIp={prefill?.buyerIp ?? null} />
        </div>

        <aside className="space-y-4 lg:sticky lg:top-20">
          <SummaryCard control={form.control} kind={kind} format={format} />
          {rejected && (
            <Alert variant="destructive" data-testid="charge-rejected">
              <AlertTriangle />
              <AlertTitle>{t("charges.errors.rejectedTitle")}</AlertTitle>
              <AlertDescription>
                <p>{rejected.title}</p>
                {rejected.message && <p className="mt-1 font-mono text-xs">{rejected.message}</p>}
              </AlertDescription>
            </Alert>
          )}
          {noAnswer && <NoAnswerAlert accountId={accountId} identifier={form.getValues("identifier")} />}
          {pending && <PendingAlert pending={pending} autoCheck={autoCheck} checking={checking} checkNow={checkNow} />}
          <Button type="submit" size="lg" className="w-full" loading={submitting} disabled={blocked}>
            {t(definition.submitLabel)}
          </Button>
        </aside>
      </form>
    </Form>
  );
}

function SummaryCard({
  control,
  kind,
  format,
}: {
  control: Control<ChargeFormValues>;
  kind: ChargeFormKind;
  format: ReturnType<typeof useI18n>["format"];
}) {
  const { t } = useI18n();
  const [amount, products, shippingFee, extraFee, discount, installments] = useWatch({
    control,
    name: ["amount", "products", "shippingFee", "extraFee", "discount", "installments"],
  });
  const amountValue = parseMoneyInput(amount ?? "");
  const expected = expectedTotalCents({ products: products ?? [], shippingFee, extraFee, discount });
  const mismatch = expected !== null && amountValue !== null && expected !== toCents(amountValue);
  return (
    <Card>
      <CardHeader>
        <CardDescription>{t(`charges.kinds.${kind}`)}</CardDescription>
        <CardTitle className="text-3xl tabular-nums" data-testid="summary-amount">
          {format.money(amountValue ?? 0)}
        </CardTitle>
        {kind === "card" && Number(installments) > 1 && amountValue && (
          <CardDescription className="tabular-nums">
            {installments}x {format.money(Math.round((amountValue * 100) / Number(installments)) / 100)}
          </CardDescription>
        )}
      </CardHeader>
      {expected !== null && (
        <CardContent>
          {mismatch ? (
            <div
              className="border-warning/35 bg-warning/8 flex gap-2 rounded-md border p-2 text-xs"
              role="status"
              data-testid="total-mismatch"
            >
              <AlertTriangle className="text-warning mt-0.5 size-3.5 shrink-0" />
              <span>{t("charges.totalMismatch", { expected: format.money(expected / 100), amount: format.money(amountValue ?? 0) })}</span>
            </div>
          ) : (
            <p className="text-muted-foreground text-xs">{t("charges.totalMatches", { expected: format.money(expected / 100) })}</p>
          )}
        </CardContent>
      )}
    </Card>
  );
}
