"use client";

import { useState } from "react";
import { useForm, type DefaultValues, type FieldValues } from "react-hook-form";
import type { z } from "zod";
import type { ActionResult } from "@/lib/actions/safe-action";
import { answerOf, isNoAnswer } from "@/lib/actions/answer";
import { toast } from "@/components/ui/toast";
import { useT } from "@/lib/i18n/client";
import { applyActionResult } from "./action-result";
import { useDeferredResolver, type SchemaLoader } from "./deferred-resolver";

type Failure = Extract<ActionResult<unknown>, { ok: false }>;

/**
 * A form bound to one server action: validated in the browser with the schema the action
 * re-checks (loaded when the form is first used: spread `events` on the <form>), submitted once
 * at a time, failures mapped back onto the fields (or a toast) once, here. What a success does
 * stays with the caller.
 *
 * No answer at all (the server died mid-request, the network dropped) is not a failure: the action
 * may have done its work. `noAnswer` turns true, a toast says so (or the form does: `onNoAnswer`
 * returns "shown"), and everything typed stays, so a second click sends the very same values.
 */
export function useActionForm<Input extends FieldValues, R>(options: {
  /** `Input`, the values as typed, is read from the schema (what the action receives and parses again). */
  schema: SchemaLoader<z.ZodType<unknown, Input>>;
  defaultValues: DefaultValues<NoInfer<Input>>;
  mode?: "onSubmit" | "onTouched";
  action: (values: NoInfer<Input>) => Promise<ActionResult<R>>;
  onSuccess?: (data: R, values: NoInfer<Input>) => void | Promise<void>;
  /** Dialogs that close on success start empty the next time they open. */
  resetOnSuccess?: boolean;
  /**
   * For forms that show a refusal themselves (a banner): return "shown" and no toast repeats it.
   * Field errors land on their fields either way.
   */
  onFailure?: (failure: Failure) => "shown" | void;
  /** For forms that explain an unknown outcome themselves: return "shown" and no toast repeats it. */
  onNoAnswer?: () => "shown" | void;
}) {
  const t = useT();
  // The action receives what the user typed and validates it again with the same schema.
  const { resolver, prepare, events } = useDeferredResolver(options.schema, { raw: true });
  const form = useForm<Input>({ resolver, defaultValues: options.defaultValues, mode: options.mode });
  const [noAnswer, setNoAnswer] = useState(false);

  async function submit(values: Input) {
    setNoAnswer(false);
    const result = await answerOf(() => options.action(values));
    if (isNoAnswer(result)) {
      setNoAnswer(true);
      if (options.onNoAnswer?.() !== "shown") toast.warning(t("errors.noAnswer.title"), { description: t("errors.noAnswer.body") });
      return;
    }
    if (result.ok) {
      if (options.resetOnSuccess) form.reset();
      await options.onSuccess?.(result.data, values);
      return;
    }
    const shown = options.onFailure?.(result) === "shown";
    applyActionResult(form, result, t, { toast: !shown });
  }

  return { form, submit, onSubmit: form.handleSubmit(submit), pending: form.formState.isSubmitting, noAnswer, events, prepare };
}
