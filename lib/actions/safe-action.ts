import "server-only";
import { z } from "zod";
import { AccessDeniedError, authorize, type AccessContext } from "@/lib/auth/session";
import type { Permission } from "@/lib/auth/permissions";
import { inputProblem } from "@/lib/http/input";

export type FieldErrors = Record<string, string[]>;
/** `error` is an i18n key; `message` carries a text from outside (the gateway) shown as is. */
export type ActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; error: string; message?: string; fieldErrors?: FieldErrors };

export class ActionError extends Error {
  constructor(
    readonly error: string,
    readonly extra: { message?: string; fieldErrors?: FieldErrors } = {},
  ) {
    super(error);
  }
}

function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_form";
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

type AccountScope = "current" | ((input: never) => string);

/**
 * The one way server actions are written: validate with the same schema the form used,
 * load the session, check the permission on the account taken from the session context,
 * then run. Never trusts an account id from the client unless `account` resolves it and
 * the membership check passes.
 */
export function defineAction<S extends z.ZodType, R>(
  options: { permission: Permission; schema: S; account?: AccountScope },
  handler: (input: z.output<S>, ctx: AccessContext) => Promise<R>,
): (raw: z.input<S>) => Promise<ActionResult<R>> {
  return async (raw) => {
    try {
      // NUL, control characters, absurd depth or size: refused before any schema or query sees them.
      if (inputProblem(raw)) return { ok: false, error: "errors.validation", fieldErrors: { _form: ["errors.invalidInput"] } };
      const parsed = options.schema.safeParse(raw);
      if (!parsed.success) return { ok: false, error: "errors.validation", fieldErrors: fieldErrorsOf(parsed.error) };
      const accountId =
        typeof options.account === "function" ? (options.account as (i: unknown) => string)(parsed.data) : undefined;
      const ctx = await authorize(options.permission, accountId);
      if (options.account === "current" && !ctx.account) return { ok: false, error: "errors.noAccount" };
      return { ok: true, data: await handler(parsed.data, ctx) };
    } catch (error) {
      if (error instanceof AccessDeniedError) {
        return { ok: false, error: error.reason === "unauthenticated" ? "errors.unauthenticated" : "errors.forbidden" };
      }
      if (error instanceof ActionError) return { ok: false, error: error.error, ...error.extra };
      throw error;
    }
  };
}
