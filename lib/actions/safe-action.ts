import "server-only";
import { z } from "zod";
import { AccessDeniedError, can, getAccessContext, type AccessContext } from "@/lib/auth/session";
import type { AccountContext } from "@/lib/auth/account-page";
import type { Permission } from "@/lib/auth/permissions";
import { writeAudit } from "@/lib/audit/log";
import { inputProblem } from "@/lib/http/input";

export type FieldErrors = Record<string, string[]>;
/** `error` is an i18n key; `message` carries a text from outside (the gateway) shown as is. */
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: string; message?: string; fieldErrors?: FieldErrors };

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

type Refusal = Extract<ActionResult<never>, { ok: false }>;
const refuse = (error: string, fieldErrors?: FieldErrors): Refusal => ({ ok: false, error, ...(fieldErrors ? { fieldErrors } : {}) });

/** What the chain knows so far about one call; each step fills its part. */
type CallState = {
  raw: unknown;
  values: unknown;
  accountId?: string;
  ctx?: AccessContext;
  account?: AccountContext["account"];
  input?: unknown;
};
type Next = () => Promise<ActionResult<unknown>>;
type Step = (state: CallState, next: Next) => Promise<ActionResult<unknown>>;

type ActionOptions<S extends z.ZodType, O extends z.ZodType | undefined> = {
  permission: Permission;
  schema: S;
  /**
   * "input": the action works on the account named in its input (`accountId`, beside the form's
   * values), the one the form showed. Nothing implicit (a cookie, another tab) decides it.
   */
  account?: "input";
  /** What the browser may receive: the handler's answer is parsed with it (unknown keys dropped). */
  output?: O;
};

const accountIdInput = z.object({ accountId: z.string().trim().min(1).max(100) });

/** NUL, control characters, absurd depth or size: refused before any schema or query sees them. */
const refuseHostileInput: Step = async (state, next) =>
  inputProblem(state.raw) ? refuse("errors.validation", { _form: ["errors.invalidInput"] }) : next();

const requireSession: Step = async (state, next) => {
  const ctx = await getAccessContext();
  if (!ctx) return refuse("errors.unauthenticated");
  state.ctx = ctx;
  return next();
};

/** Refusals past the session are written to the audit log: who tried what, on which account. */
const auditRefusals =
  (permission: Permission): Step =>
  async (state, next) => {
    const result = await next();
    if (!result.ok && (result.error === "errors.forbidden" || result.error === "errors.noAccount") && state.ctx) {
      const { user, ip } = state.ctx;
      await writeAudit({
        actor: { id: user.id, email: user.email },
        accountId: state.account?.id ?? null,
        action: "access.refused",
        target: permission,
        ip,
        details: {
          reason: result.error,
          ...(state.accountId && !state.account ? { requestedAccount: state.accountId.slice(0, 100) } : {}),
        },
      });
    }
    return result;
  };

const accountAccess =
  (scope: "input" | undefined): Step =>
  async (state, next) => {
    if (scope !== "input") return next();
    const named = accountIdInput.safeParse(state.raw);
    if (!named.success) return refuse("errors.noAccount");
    state.accountId = named.data.accountId;
    state.account = state.ctx!.accounts.find((a) => a.id === state.accountId);
    if (!state.account) return refuse("errors.forbidden");
    const { accountId: _named, ...rest } = state.raw as Record<string, unknown>;
    void _named;
    state.values = rest;
    return next();
  };

const requirePermission =
  (permission: Permission): Step =>
  async (state, next) =>
    can(state.ctx!, permission, state.accountId) ? next() : refuse("errors.forbidden");

const validateInput =
  (schema: z.ZodType): Step =>
  async (state, next) => {
    const parsed = schema.safeParse(state.values);
    if (!parsed.success) return refuse("errors.validation", fieldErrorsOf(parsed.error));
    state.input = parsed.data;
    return next();
  };

async function runChain(steps: Step[], state: CallState, last: () => Promise<ActionResult<unknown>>): Promise<ActionResult<unknown>> {
  const at = (index: number): Promise<ActionResult<unknown>> => (index < steps.length ? steps[index]!(state, () => at(index + 1)) : last());
  return at(0);
}

type ContextOf<A> = A extends "input" ? AccountContext : AccessContext;
type AccountInput<A> = A extends "input" ? { accountId: string } : unknown;
/** An action without fields of its own (`z.object({})`) is called with `{}` or just the account. */
type InputOf<S extends z.ZodType> = string extends keyof z.input<S> ? object : z.input<S>;
type OutputOf<O, R> = O extends z.ZodType ? z.output<O> : R;

/**
 * The one way server actions are written. Every call runs the same chain:
 * hostile-input guard → session → audit of refusals → account access → permission →
 * input schema (the one the form used) → handler → output schema.
 */
export function defineAction<
  S extends z.ZodType,
  R,
  A extends "input" | undefined = undefined,
  O extends z.ZodType | undefined = undefined,
>(
  options: ActionOptions<S, O> & { account?: A },
  handler: (input: z.output<S>, ctx: ContextOf<A>) => Promise<R>,
): (raw: InputOf<S> & AccountInput<A>) => Promise<ActionResult<OutputOf<O, R>>> {
  const steps: Step[] = [
    refuseHostileInput,
    requireSession,
    auditRefusals(options.permission),
    accountAccess(options.account),
    requirePermission(options.permission),
    validateInput(options.schema),
  ];
  return async (raw) => {
    const state: CallState = { raw, values: raw };
    const result = await runChain(steps, state, async () => {
      try {
        const ctx = state.account ? { ...state.ctx!, account: state.account } : state.ctx!;
        const data = await handler(state.input as z.output<S>, ctx as ContextOf<A>);
        return { ok: true, data: options.output ? options.output.parse(data) : data };
      } catch (error) {
        if (error instanceof ActionError) return { ok: false, error: error.error, ...error.extra };
        if (error instanceof AccessDeniedError)
          return refuse(error.reason === "unauthenticated" ? "errors.unauthenticated" : "errors.forbidden");
        throw error;
      }
    });
    return result as ActionResult<OutputOf<O, R>>;
  };
}
