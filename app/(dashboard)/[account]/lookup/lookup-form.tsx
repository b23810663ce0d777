"use client";

import { useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { toast } from "@/components/ui/toast";
import { BookPlus, ExternalLink, Search } from "lucide-react";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { StatusBadge } from "@/components/payments/status-badge";
import { CodeWord } from "@/components/ui/code-word";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Form, FormControl, FormField, FormItem, FormLabel } from "@/components/ui/form";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { TextField } from "@/components/forms/fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { useI18n } from "@/lib/i18n/client";
import type { LookupInput } from "@/lib/ledger/lookup-schema";
import type { TransactionRecord } from "@/lib/gateway/schemas/transactions";
import { gatewayErrorMessage } from "../transactions/gateway-error-message";
import { addToLedgerAction, lookupTransactionAction } from "./actions";
import { accountPath } from "@/lib/accounts/paths";

type Found = { query: LookupInput; record: TransactionRecord; ledgerId: string | null };

const MONEY_FIELDS = new Set(["amount", "chargeAmount"]);
const TIME_FIELDS = new Set(["createdAt", "payedAt", "refundedAt", "availableAt"]);
const FIELDS = [
  "id",
  "clientIdentifier",
  "status",
  "statusDescription",
  "paymentMethod",
  "amount",
  "chargeAmount",
  "currency",
  "purchaseType",
  "createdAt",
  "payedAt",
  "refundedAt",
  "availableAt",
  "errorDescription",
] as const;

export function LookupForm({ accountId, canAdd }: { accountId: string; canAdd: boolean }) {
  const { t } = useI18n();
  const router = useRouter();
  const [found, setFound] = useState<Found | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const { form, onSubmit, pending, events } = useActionForm({
    schema: () => import("@/lib/ledger/lookup-schema").then((m) => m.lookupSchema),
    defaultValues: { by: "id", value: "" },
    action: (query) => {
      setProblem(null);
      setFound(null);
      return lookupTransactionAction({ ...query, accountId });
    },
    onSuccess: (outcome, query) => {
      if (outcome.ok) setFound({ query, record: outcome.record, ledgerId: outcome.ledgerId });
      else if (outcome.reason === "not_found") setProblem(t("transactions.lookup.notFound"));
      else setProblem(gatewayErrorMessage(t, outcome));
    },
  });

  async function add() {
    if (!found) return;
    setAdding(true);
    try {
      const result = await addToLedgerAction({ ...found.query, accountId });
      if (!result.ok) {
        toast.error(t(result.error));
        return;
      }
      const outcome = result.data;
      if (outcome.ok) {
        toast.success(t(outcome.created ? "transactions.lookup.added" : "transactions.lookup.alreadyAdded"));
        setFound({ ...found, ledgerId: outcome.ledgerId });
        router.push(accountPath(accountId, `/transactions/${outcome.ledgerId}`));
      } else if (outcome.reason === "not_found") setProblem(t("transactions.lookup.notFound"));
      else setProblem(gatewayErrorMessage(t, outcome));
    } finally {
      setAdding(false);
    }
  }

  return (
    <div className="space-y-6">
      <Card className="max-w-2xl">
        <CardContent>
          <Form {...form}>
            <form {...events} onSubmit={onSubmit} className="space-y-4" noValidate>
              <FormField
                control={form.control}
                name="by"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>{t("transactions.lookup.by")}</FormLabel>
                    <FormControl>
                      <RadioGroup value={field.value} onValueChange={field.onChange} className="flex flex-wrap gap-5">
                        <Label className="font-normal">
                          <RadioGroupItem value="id" />
                          {t("transactions.lookup.byId")}
                        </Label>
                        <Label className="font-normal">
                          <RadioGroupItem value="identifier" />
                          {t("transactions.lookup.byIdentifier")}
                        </Label>
                      </RadioGroup>
                    </FormControl>
                  </FormItem>
                )}
              />
              <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
                <TextField
                  control={form.control}
                  name="value"
                  label={t("transactions.lookup.value")}
                  className="flex-1"
                  autoComplete="off"
                  spellCheck={false}
                />
                <Button type="submit" className="sm:mt-[22px]" loading={pending}>
                  <Search aria-hidden />
                  {t("transactions.lookup.search")}
                </Button>
              </div>
            </form>
          </Form>
        </CardContent>
      </Card>

      {problem && (
        <Alert variant="destructive" className="max-w-2xl" data-testid="lookup-problem">
          <AlertDescription>{problem}</AlertDescription>
        </Alert>
      )}

      {found && (
        <Card data-testid="lookup-result">
          <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
            <CardTitle className="flex items-center gap-2">
              {t("transactions.lookup.record")}
              <StatusBadge status={found.record.status} />
            </CardTitle>
            {found.ledgerId ? (
              <div className="flex items-center gap-3 text-sm">
                <span className="text-muted-foreground">{t("transactions.lookup.inLedger")}</span>
                <Button asChild variant="outline" size="sm">
                  <Link href={accountPath(accountId, `/transactions/${found.ledgerId}`)}>
                    <ExternalLink aria-hidden />
                    {t("transactions.lookup.open")}
                  </Link>
                </Button>
              </div>
            ) : (
              canAdd && (
                <Button onClick={add} loading={adding} size="sm">
                  <BookPlus aria-hidden />
                  {t("transactions.lookup.add")}
                </Button>
              )
            )}
          </CardHeader>
          <CardContent className="space-y-4">
            <RecordFields record={found.record} />
          </CardContent>
        </Card>
      )}
    </div>
  );
}

/** The gateway's record in words: its fields, the payer's, and the record as it came. */
function RecordFields({ record }: { record: TransactionRecord }) {
  const { t, format } = useI18n();
  const display = (key: (typeof FIELDS)[number], value: unknown): React.ReactNode => {
    if (value === null || value === undefined || value === "") return "—";
    if (key === "status" && typeof value === "string") return <StatusBadge status={value} />;
    if (key === "paymentMethod" && typeof value === "string") return <CodeWord group="method" code={value} />;
    if (key === "purchaseType" && typeof value === "string") return <CodeWord group="purchaseType" code={value} />;
    if (key === "errorDescription" && typeof value === "string") return t("vocab.reasonFromGateway", { reason: value });
    if (MONEY_FIELDS.has(key) && typeof value === "number") return record.currency === "BRL" ? format.money(value) : String(value);
    if (TIME_FIELDS.has(key) && typeof value === "string" && !Number.isNaN(Date.parse(value))) return format.dateTimeZoned(value);
    return String(value);
  };

  const payer = record.pixMetadata;
  return (
    <>
      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
        {FIELDS.filter((key) => record[key] !== undefined && record[key] !== null).map((key) => (
          <div key={key} className="min-w-0">
            <dt className="text-xs text-muted-foreground">{t(`transactions.lookup.fields.${key}`)}</dt>
            <dd className="mt-0.5 break-words">{display(key, record[key])}</dd>
          </div>
        ))}
        {payer?.payerName && (
          <div>
            <dt className="text-xs text-muted-foreground">{t("transactions.lookup.fields.payerName")}</dt>
            <dd className="mt-0.5">{payer.payerName}</dd>
          </div>
        )}
        {payer?.payerDocument && (
          <div>
            <dt className="text-xs text-muted-foreground">{t("transactions.lookup.fields.payerDocument")}</dt>
            <dd className="mt-0.5">{payer.payerDocument}</dd>
          </div>
        )}
        {payer?.payerBankName && (
          <div>
            <dt className="text-xs text-muted-foreground">{t("transactions.lookup.fields.payerBankName")}</dt>
            <dd className="mt-0.5">{payer.payerBankName}</dd>
          </div>
        )}
      </dl>
      <details className="rounded-lg border">
        <summary className="cursor-pointer px-3 py-2 text-sm font-medium select-none hover:bg-muted/50">
          {t("transactions.lookup.raw")}
        </summary>
        <pre className="max-h-96 overflow-auto border-t bg-muted/30 p-3 font-mono text-xs leading-5">{JSON.stringify(record, null, 2)}</pre>
      </details>
    </>
  );
}
