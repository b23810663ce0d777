"use client";

import { useRef, useState, type Ref } from "react";
import { useRouter } from "next/navigation";
import { useWatch } from "react-hook-form";
import { FileSpreadsheet, Upload } from "lucide-react";
import { useActionForm } from "@/components/forms/use-action-form";
import { TextField } from "@/components/forms/fields";
import { Button, buttonVariants } from "@/components/ui/button";
import { Card, CardContent, CardFooter } from "@/components/ui/card";
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage, useFormField } from "@/components/ui/form";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/toast";
import { accountPath } from "@/lib/accounts/paths";
import { useI18n, useT } from "@/lib/i18n/client";
import { cn } from "@/lib/utils";
import { createPayoutBatchAction, replacePayoutRowsAction } from "./actions";
import type { UploadFormValues } from "./schemas";

const ACCEPT = ".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** The file's name without its extension: what a batch made from it is called unless the person says otherwise. */
function baseName(fileName: string): string {
  return fileName
    .replace(/\.[^.]+$/, "")
    .trim()
    .slice(0, 120);
}

/**
 * The file input in the console's words (the browser's own button speaks the browser's language):
 * a box that opens the file chooser when clicked and takes a file dropped on it.
 */
function FilePicker({
  name,
  inputRef,
  onBlur,
  file,
  onFile,
}: {
  name: string;
  inputRef: Ref<HTMLInputElement>;
  onBlur: () => void;
  file: File | null;
  onFile: (file: File | null) => void;
}) {
  const t = useT();
  const { formItemId, error } = useFormField();
  const [dragging, setDragging] = useState(false);
  return (
    <label
      htmlFor={formItemId}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        event.preventDefault();
        setDragging(false);
        const dropped = event.dataTransfer.files?.[0];
        if (dropped) onFile(dropped);
      }}
      className={cn(
        "flex cursor-pointer flex-wrap items-center gap-3 rounded-lg border border-dashed px-4 py-3 transition-colors focus-within:border-ring focus-within:ring-[3px] focus-within:ring-ring/50 hover:bg-muted/40",
        dragging && "border-primary bg-primary/5",
        error && "border-destructive",
      )}
    >
      <FormControl>
        <input
          type="file"
          accept={ACCEPT}
          name={name}
          ref={inputRef}
          onBlur={onBlur}
          className="sr-only"
          onChange={(event) => onFile(event.target.files?.[0] ?? null)}
        />
      </FormControl>
      <span aria-hidden className={cn(buttonVariants({ variant: "outline", size: "sm" }), "pointer-events-none")}>
        <FileSpreadsheet /> {t("payouts.upload.choose")}
      </span>
      <span aria-hidden className="min-w-0 flex-1 text-sm wrap-anywhere text-muted-foreground" data-testid="chosen-file">
        {file ? file.name : t("payouts.upload.noFile")}
      </span>
    </label>
  );
}

/**
 * A CSV/XLSX file or rows pasted from a spreadsheet. Without `batchId` it creates a batch (and
 * opens it); with one it replaces that draft's rows (the file uploaded again).
 */
export function UploadForm({
  accountId,
  maxBytes,
  defaultName,
  pastePlaceholder,
  batchId,
  onDone,
}: {
  accountId: string;
  maxBytes: number;
  defaultName?: string;
  pastePlaceholder: string;
  batchId?: string;
  onDone?: () => void;
}) {
  const { t, format } = useI18n();
  const router = useRouter();
  const named = !batchId;
  // The name follows the chosen file until the person types one.
  const nameTyped = useRef(false);
  const { form, onSubmit, events } = useActionForm<UploadFormValues, { batchId?: string; rows?: number; ignoredColumns: string[] }>({
    schema: () => import("./schemas").then((m) => m.uploadFormSchema(maxBytes, { named })),
    defaultValues: { name: defaultName ?? "", mode: "file", file: null, pasted: "" },
    action: async (values) => {
      const paste = values.mode === "paste";
      const file = paste ? new Blob([values.pasted], { type: "text/plain;charset=utf-8" }) : values.file!;
      const fileName = paste ? undefined : values.file?.name;
      return batchId
        ? replacePayoutRowsAction({ accountId, batchId, mode: values.mode, file, fileName })
        : createPayoutBatchAction({ accountId, name: values.name ?? "", mode: values.mode, file, fileName });
    },
    onSuccess: (data) => {
      if (data.ignoredColumns.length > 0) {
        toast(t("payouts.upload.ignoredColumns", { count: data.ignoredColumns.length, columns: data.ignoredColumns.join(", ") }));
      }
      if (data.batchId) {
        router.push(accountPath(accountId, `/payouts/${data.batchId}`));
        return;
      }
      toast.success(t("payouts.upload.replaced", { count: data.rows ?? 0 }));
      onDone?.();
    },
  });
  const mode = useWatch({ control: form.control, name: "mode" });
  const pending = form.formState.isSubmitting;
  const limit = t("payouts.upload.limit", { mb: format.number(maxBytes / (1024 * 1024)) });

  const body = (
    <div className="space-y-5">
      {named && (
        <TextField
          control={form.control}
          name="name"
          label={t("payouts.upload.name")}
          autoComplete="off"
          onInput={() => (nameTyped.current = true)}
          description={t("payouts.upload.nameHint")}
        />
      )}
      <Tabs value={mode} onValueChange={(value) => form.setValue("mode", value as "file" | "paste", { shouldValidate: false })}>
        <TabsList aria-label={t("payouts.upload.source")}>
          <TabsTrigger value="file">
            <FileSpreadsheet /> {t("payouts.upload.fileTab")}
          </TabsTrigger>
          <TabsTrigger value="paste">{t("payouts.upload.pasteTab")}</TabsTrigger>
        </TabsList>
        <TabsContent value="file">
          <FormField
            control={form.control}
            name="file"
            render={({ field }) => (
              <FormItem>
                <FormLabel>{t("payouts.upload.file")}</FormLabel>
                <FilePicker
                  name={field.name}
                  inputRef={field.ref}
                  onBlur={field.onBlur}
                  file={field.value ?? null}
                  onFile={(file) => {
                    field.onChange(file);
                    form.clearErrors("file");
                    if (named && file && !nameTyped.current) form.setValue("name", baseName(file.name) || (defaultName ?? ""));
                  }}
                />
                <FormDescription>{t("payouts.upload.fileHint", { limit })}</FormDescription>
                <FormMessage />
              </FormItem>
            )}
          />
        </TabsContent>
        <TabsContent value="paste">
          <FormField
            control={form.control}
            name="pasted"
            render={({ field }) => (
              <FormItem>
                <FormLabel>{t("payouts.upload.paste")}</FormLabel>
                <FormControl>
                  <Textarea
                    {...field}
                    rows={8}
                    spellCheck={false}
                    placeholder={pastePlaceholder}
                    className="max-h-80 min-h-40 font-mono text-xs [field-sizing:fixed]"
                  />
                </FormControl>
                <FormDescription>{t("payouts.upload.pasteHint")}</FormDescription>
                <FormMessage />
              </FormItem>
            )}
          />
        </TabsContent>
      </Tabs>
    </div>
  );

  const submit = (
    <Button type="submit" loading={pending}>
      <Upload /> {batchId ? t("payouts.upload.replace") : t("payouts.upload.submit")}
    </Button>
  );

  return (
    <Form {...form}>
      <form {...events} onSubmit={onSubmit} noValidate data-testid="payout-upload-form">
        {batchId ? (
          <div className="space-y-5">
            {body}
            <div className="flex justify-end">{submit}</div>
          </div>
        ) : (
          <Card>
            <CardContent>{body}</CardContent>
            <CardFooter className="justify-end">{submit}</CardFooter>
          </Card>
        )}
      </form>
    </Form>
  );
}
