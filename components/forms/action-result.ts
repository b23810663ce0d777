"use client";

import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import { toast } from "@/components/ui/toast";
import type { ActionResult } from "@/lib/actions/safe-action";
import type { Translate } from "@/lib/i18n/translate";

/**
 * Maps a failed action back onto the form: field errors next to their fields, anything else
 * as a toast (unless the form shows it itself: `toast: false`). Returns true when the action
 * succeeded. Never clears what the user typed.
 */
export function applyActionResult<T extends FieldValues, R, O = T>(
  form: UseFormReturn<T, unknown, O>,
  result: ActionResult<R>,
  t: Translate,
  options: { toast?: boolean } = {},
): result is { ok: true; data: R } {
  if (result.ok) return true;
  const fieldErrors = result.fieldErrors ?? {};
  let mapped = false;
  for (const [name, messages] of Object.entries(fieldErrors)) {
    if (name === "_form" || !messages[0]) continue;
    form.setError(name as Path<T>, { type: "server", message: messages[0] }, { shouldFocus: !mapped });
    mapped = true;
  }
  if (options.toast !== false && (!mapped || result.error !== "errors.validation")) {
    toast.error(t(result.error), result.message ? { description: result.message } : undefined);
  }
  return false;
}
