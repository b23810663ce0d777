"use client";

import { useState, type ReactElement, type ReactNode } from "react";
import type { FieldValues, SubmitHandler, UseFormReturn } from "react-hook-form";
import { toast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";
import { DeferredDialog } from "@/components/ui/deferred-dialog";
import { DialogFooter } from "@/components/ui/dialog-layout";
import { Form } from "@/components/ui/form";
import { useT } from "@/lib/i18n/client";
import { cn } from "@/lib/utils";
import { useActionForm } from "./use-action-form";

/**
 * A dialog holding one form: trigger, title, description, the fields, and a submit button that
 * shows progress. The caller keeps the form and decides what a success does (toast, close…).
 * The dialog's own code loads when its trigger is first hovered, focused or clicked.
 */
export function FormDialog<T extends FieldValues>({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  form,
  onSubmit,
  submitLabel,
  className,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger: ReactElement;
  title: ReactNode;
  description?: ReactNode;
  form: UseFormReturn<T>;
  onSubmit: SubmitHandler<T>;
  /** "Salvar" unless the dialog says what it does. */
  submitLabel?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const t = useT();
  return (
    <DeferredDialog
      open={open}
      onOpenChange={onOpenChange}
      trigger={trigger}
      title={title}
      description={description}
      className={cn("sm:max-w-lg", className)}
    >
      <Form {...form}>
        <form onSubmit={form.handleSubmit(onSubmit)} className="space-y-4" noValidate>
          {children}
          <DialogFooter>
            <Button type="submit" loading={form.formState.isSubmitting}>
              {submitLabel ?? t("common.save")}
            </Button>
          </DialogFooter>
        </form>
      </Form>
    </DeferredDialog>
  );
}

/**
 * A dialog's form bound to its action: on success the form empties, the dialog closes and a toast
 * says what happened; then `onSuccess` (a refresh, a redirect). Spread `dialog` on FormDialog.
 */
export function useFormDialog<Input extends FieldValues, R>({
  successMessage,
  onSuccess,
  ...options
}: Omit<Parameters<typeof useActionForm<Input, R>>[0], "resetOnSuccess"> & {
  successMessage?: (data: R, values: NoInfer<Input>) => string;
}) {
  const [open, setOpen] = useState(false);
  const { form, submit, prepare } = useActionForm<Input, R>({
    ...options,
    resetOnSuccess: true,
    onSuccess: async (data, values) => {
      setOpen(false);
      if (successMessage) toast.success(successMessage(data, values));
      await onSuccess?.(data, values);
    },
  });
  // Opening the dialog is the form's first use: its schema starts loading.
  const onOpenChange = (next: boolean) => {
    if (next) prepare().catch(() => {});
    setOpen(next);
  };
  return { form, dialog: { open, onOpenChange, form, onSubmit: submit } };
}
