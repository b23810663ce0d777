import "server-only";
import { z } from "zod";
import { AccessDeniedError, authorize, type AccessContext } from "@/lib/auth/session";
import type { AccountContext } from "@/lib/auth/account-page";
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

/**
 * "input": the action works on the account named in its input (`accountId`, beside the form's
 * values), the one the form showed; a function reads it from the validated input.
 */
type AccountScope = "input" | ((input: never) => string);
type AccountInput<A> = A extends "input" ? { accountId: string } : unknown;
type ContextOf<A> = A extends "input" ? AccountContext : AccessContext;

const accountIdInput = z.object({ accountId: z.string().trim().min(1).max(100) });

/**
 * The one way server actions are written: validate with the same schema the form used, load
 * the session, check the permission on the account the input names, then run. Nothing
 * implicit (a cookie, another tab) decides which account an action works on.
 */
export function defineAction<S extends z.ZodType, R, A extends AccountScope | undefined = undefined>(
  options: { permission: Permission; schema: S; account?: A },
  handler: (input: z.output<S>, ctx: ContextOf<A>) => Promise<R>,
): (raw: z.input<S> & AccountInput<A>) => Promise<ActionResult<R>> {
  return async (raw) => {
    try {
      // NUL, control characters, absurd depth or size: refused before any schema or query sees them.
      if (inputProblem(raw)) return { ok: false, error: "errors.validation", fieldErrors: { _form: ["errors.invalidInput"] } };
      let values: unknown = raw;
      let accountId: string | undefined;
      if (options.account === "input") {
        const named = accountIdInput.safeParse(raw);
        if (!named.success) return { ok: false, error: "errors.noAccount" };
        accountId = named.data.accountId;
        const { accountId: _named, ...rest } = raw as Record<string, unknown>;
        void _named;
        values = rest;
      }
      const parsed = options.schema.safeParse(values);
      if (!parsed.success) return { ok: false, error: "errors.validation", fieldErrors: fieldErrorsOf(parsed.error) };
      if (typeof options.account === "function") accountId = (options.account as (i: unknown) => string)(parsed.data);
      const ctx = await authorize(options.permission, accountId);
      if (options.account === "input") {
        const account = ctx.accounts.find((a) => a.id === accountId);
        if (!account) return { ok: false, error: "errors.forbidden" };
        return { ok: true, data: await handler(parsed.data, { ...ctx, account } as ContextOf<A>) };
      }
      return { ok: true, data: await handler(parsed.data, ctx as ContextOf<A>) };
    } catch (error) {
      if (error instanceof AccessDeniedError) {
        return { ok: false, error: error.reason === "unauthenticated" ? "errors.unauthenticated" : "errors.forbidden" };
      }
      if (error instanceof ActionError) return { ok: false, error: error.error, ...error.extra };
      throw error;
    }
  };
}
