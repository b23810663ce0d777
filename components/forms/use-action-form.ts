"use client";

import { useForm, type DefaultValues, type FieldValues } from "react-hook-form";
import type { z } from "zod";
import type { ActionResult } from "@/lib/actions/safe-action";
import { useT } from "@/lib/i18n/client";
import { applyActionResult } from "./action-result";
import { useDeferredResolver, type SchemaLoader } from "./deferred-resolver";

type Failure = Extract<ActionResult<unknown>, { ok: false }>;
type FormSchema = z.ZodType<unknown, FieldValues>;

/**
 * A form bound to one server action: validated in the browser with the schema the action
 * re-checks (loaded when the form is first used: spread `events` on the <form>), submitted once
 * at a time, failures mapped back onto the fields (or a toast) once, here. What a success does
 * stays with the caller.
 */
export function useActionForm<S extends FormSchema, R>(options: {
  schema: SchemaLoader<S>;
  defaultValues: DefaultValues<z.input<S>>;
  mode?: "onSubmit" | "onTouched";
  action: (values: z.input<S>) => Promise<ActionResult<R>>;
  onSuccess?: (data: R, values: z.input<S>) => void | Promise<void>;
  /** Dialogs that close on success start empty the next time they open. */
  resetOnSuccess?: boolean;
  /**
   * For forms that show a refusal themselves (a banner): return "shown" and no toast repeats it.
   * Field errors land on their fields either way.
   */
  onFailure?: (failure: Failure) => "shown" | void;
}) {
  const t = useT();
  // The action receives what the user typed and validates it again with the same schema.
  const { resolver, prepare, events } = useDeferredResolver<z.input<S>>(options.schema as unknown as SchemaLoader<z.ZodType<unknown, z.input<S>>>, { raw: true });
  const form = useForm<z.input<S>>({ resolver, defaultValues: options.defaultValues, mode: options.mode });

  async function submit(values: z.input<S>) {
    const result = await options.action(values);
    if (result.ok) {
      if (options.resetOnSuccess) form.reset();
      await options.onSuccess?.(result.data, values);
      return;
    }
    const shown = options.onFailure?.(result) === "shown";
    applyActionResult(form, result, t, { toast: !shown });
  }

  return { form, submit, onSubmit: form.handleSubmit(submit), pending: form.formState.isSubmitting, events, prepare };
}
