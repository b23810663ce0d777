"use client";

import { useState } from "react";
import type { Path } from "react-hook-form";
import { Pencil, RotateCcw, Trash2 } from "lucide-react";
import { FormDialog } from "@/components/forms/form-dialog";
import { TextField } from "@/components/forms/fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import type { PayoutRowCells, PayoutRowProblem } from "@/lib/db/tables/payout-batches";
import { useT } from "@/lib/i18n/client";
import { cn } from "@/lib/utils";
import { fixPayoutRowAction, setPayoutRowRemovedAction } from "../actions";
import type { FixRowValues } from "../schemas";
import { useRun } from "../use-run";

type Row = { id: string; line: number; cells: PayoutRowCells; problems: PayoutRowProblem[]; removed: boolean };

const FIELDS: Array<{ name: keyof FixRowValues; wide?: boolean; mono?: boolean }> = [
  { name: "pixKey", wide: true, mono: true },
  { name: "pixKeyType" },
  { name: "amount" },
  { name: "name", wide: true },
  { name: "document" },
  { name: "reference" },
  { name: "description", wide: true },
];

const isField = (field: string | null): field is keyof FixRowValues => FIELDS.some((f) => f.name === field);

/** A draft row's own buttons: fix its cells in a dialog (validated again on save), remove it or put it back. */
export function RowActions({ accountId, batchId, row }: { accountId: string; batchId: string; row: Row }) {
  const t = useT();
  const { busy, run } = useRun();
  const [open, setOpen] = useState(false);
  // What the server still finds wrong after a save that did not fix everything: shown above the fields.
  const [remaining, setRemaining] = useState<string[]>([]);

  const { form, submit, prepare } = useActionForm<FixRowValues, { problems: PayoutRowProblem[] }>({
    schema: () => import("../schemas").then((m) => m.fixRowSchema),
    defaultValues: { ...row.cells },
    action: (cells) => fixPayoutRowAction({ accountId, batchId, rowId: row.id, cells }),
    onSuccess: ({ problems }) => {
      const errors = problems.filter((problem) => problem.severity === "error");
      if (errors.length === 0) {
        setOpen(false);
        setRemaining([]);
        toast.success(t("payouts.fix.saved", { line: row.line }));
        return;
      }
      const general: string[] = [];
      let focused = false;
      for (const problem of errors) {
        const message = t(`payouts.problems.${problem.code}`);
        if (isField(problem.field)) {
          form.setError(problem.field as Path<FixRowValues>, { type: "server", message }, { shouldFocus: !focused });
          focused = true;
        } else general.push(message);
      }
      setRemaining(general);
    },
  });

  // The problems the row has now, under the fields they are about, until the person edits them.
  const initialProblems = (field: keyof FixRowValues) =>
    row.problems
      .filter((problem) => problem.field === field)
      .map((problem) => t(`payouts.problems.${problem.code}`))
      .join(" · ");
  const rowWide = row.problems.filter((problem) => !isField(problem.field)).map((problem) => t(`payouts.problems.${problem.code}`));

  return (
    <div className="flex flex-col items-end gap-1 sm:flex-row sm:justify-end">
      {!row.removed && (
        <FormDialog
          open={open}
          onOpenChange={(next) => {
            if (next) {
              prepare().catch(() => {});
              form.reset({ ...row.cells });
              setRemaining([]);
            }
            setOpen(next);
          }}
          trigger={
            <Button variant="ghost" size="sm" aria-label={t("payouts.fix.open", { line: row.line })} data-testid="fix-row">
              <Pencil /> <span className="hidden sm:inline">{t("payouts.fix.button")}</span>
            </Button>
          }
          title={t("payouts.fix.title", { line: row.line })}
          description={t("payouts.fix.description")}
          form={form}
          onSubmit={submit}
          submitLabel={t("payouts.fix.save")}
          className="sm:max-w-2xl"
        >
          {[...rowWide, ...remaining].length > 0 && (
            <Alert variant="destructive">
              <AlertDescription>
                <ul className="list-disc pl-4">
                  {[...new Set([...rowWide, ...remaining])].map((message) => (
                    <li key={message}>{message}</li>
                  ))}
                </ul>
              </AlertDescription>
            </Alert>
          )}
          <div className="grid gap-4 text-left sm:grid-cols-2">
            {FIELDS.map(({ name, wide, mono }) => {
              const now = initialProblems(name);
              return (
                <TextField
                  key={name}
                  control={form.control}
                  name={name}
                  label={t(`payouts.fix.fields.${name}`)}
                  autoComplete="off"
                  className={cn(wide && "sm:col-span-2", mono && "[&_input]:font-mono")}
                  inputMode={name === "amount" ? "decimal" : undefined}
                  aria-invalid={now && !form.formState.dirtyFields[name] ? true : undefined}
                  description={
                    now && !form.formState.dirtyFields[name] ? (
                      <span className="text-destructive">{now}</span>
                    ) : name === "pixKeyType" ? (
                      t("payouts.fix.keyTypeHint")
                    ) : name === "amount" ? (
                      t("payouts.fix.amountHint")
                    ) : undefined
                  }
                />
              );
            })}
          </div>
        </FormDialog>
      )}
      <Button
        variant="ghost"
        size="sm"
        loading={busy === "remove"}
        data-testid={row.removed ? "restore-row" : "remove-row"}
        aria-label={row.removed ? t("payouts.rows.restoreLine", { line: row.line }) : t("payouts.rows.removeLine", { line: row.line })}
        onClick={() =>
          void run(
            "remove",
            () => setPayoutRowRemovedAction({ accountId, batchId, rowId: row.id, removed: !row.removed }),
            row.removed ? t("payouts.rows.restored", { line: row.line }) : t("payouts.rows.removed", { line: row.line }),
          )
        }
      >
        {row.removed ? <RotateCcw /> : <Trash2 />}
        <span className="hidden sm:inline">{row.removed ? t("payouts.rows.restore") : t("payouts.rows.remove")}</span>
      </Button>
    </div>
  );
}
