import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";

const state = vi.hoisted(() => ({
  signedIn: true,
  role: "producer" as "admin" | "producer" | "viewer",
  sessionReads: 0,
  audits: [] as Array<Record<string, unknown>>,
}));

vi.mock("@/lib/auth/session", async () => {
  const { roleCan } = await import("@/lib/auth/permissions");
  class AccessDeniedError extends Error {
    constructor(readonly reason: "unauthenticated" | "forbidden") {
      super(reason);
    }
  }
  type Ctx = { accounts: Array<{ id: string; role: string }> };
  return {
    AccessDeniedError,
    getAccessContext: async () => {
      state.sessionReads += 1;
      if (!state.signedIn) return null;
      const account = { id: "acc-mine", name: "Minha conta", mode: "test", role: state.role, source: "ui" };
      return {
        user: { id: "u1", email: "ana@example.test", name: "Ana", role: state.role },
        accounts: [account],
        account,
        ip: "198.51.100.7",
      };
    },
    can: (ctx: Ctx, permission: Parameters<typeof roleCan>[1], accountId?: string) => {
      const account = ctx.accounts.find((a) => a.id === (accountId ?? "acc-mine"));
      return !!account && roleCan(account.role as never, permission);
    },
  };
});
vi.mock("@/lib/audit/log", () => ({ writeAudit: async (entry: Record<string, unknown>) => void state.audits.push(entry) }));

const { ActionError, defineAction } = await import("@/lib/actions/safe-action");

const handler = vi.fn(async (input: { amount: number }, ctx: { account: { id: string } }) => ({
  received: input,
  account: ctx.account.id,
}));
const charge = defineAction(
  { permission: "charges.create", schema: z.object({ amount: z.number().positive("errors.positive") }), account: "input" },
  handler,
);

beforeEach(() => {
  state.signedIn = true;
  state.role = "producer";
  state.sessionReads = 0;
  state.audits = [];
  handler.mockClear();
});

describe("the action chain", () => {
  it("runs the handler on the account the input names, without accountId among the values", async () => {
    expect(await charge({ amount: 10, accountId: "acc-mine" })).toEqual({
      ok: true,
      data: { received: { amount: 10 }, account: "acc-mine" },
    });
    expect(state.audits).toEqual([]);
  });

  it("asks for the session before it judges the input: an anonymous caller learns nothing about the schema", async () => {
    state.signedIn = false;
    expect(await charge({ amount: -1, accountId: "acc-mine" })).toEqual({ ok: false, error: "errors.unauthenticated" });
    expect(handler).not.toHaveBeenCalled();
  });

  it("refuses hostile input before the session is even read", async () => {
    const result = await charge({ amount: 1, accountId: "acc\u0000mine" });
    expect(result).toMatchObject({ ok: false, error: "errors.validation" });
    expect(state.sessionReads).toBe(0);
  });

  it("refuses an account the user cannot reach, and audits the attempt with the account asked for", async () => {
    expect(await charge({ amount: 10, accountId: "acc-someone-else" })).toEqual({ ok: false, error: "errors.forbidden" });
    expect(handler).not.toHaveBeenCalled();
    expect(state.audits).toEqual([
      expect.objectContaining({
        action: "access.refused",
        target: "charges.create",
        accountId: null,
        ip: "198.51.100.7",
        details: { reason: "errors.forbidden", requestedAccount: "acc-someone-else" },
      }),
    ]);
  });

  it("refuses a call that names no account", async () => {
    expect(await charge({ amount: 10 } as never)).toEqual({ ok: false, error: "errors.noAccount" });
    expect(state.audits).toHaveLength(1);
  });

  it("refuses a role without the permission on that account, audited against the account", async () => {
    state.role = "viewer";
    expect(await charge({ amount: 10, accountId: "acc-mine" })).toEqual({ ok: false, error: "errors.forbidden" });
    expect(state.audits).toEqual([
      expect.objectContaining({ action: "access.refused", accountId: "acc-mine", details: { reason: "errors.forbidden" } }),
    ]);
  });

  it("validates with the form's schema after access, with field errors and no audit entry", async () => {
    expect(await charge({ amount: -5, accountId: "acc-mine" })).toEqual({
      ok: false,
      error: "errors.validation",
      fieldErrors: { amount: ["errors.positive"] },
    });
    expect(handler).not.toHaveBeenCalled();
    expect(state.audits).toEqual([]);
  });

  it("maps an ActionError thrown by the handler to its message and field errors", async () => {
    const refusing = defineAction({ permission: "profile.manage", schema: z.object({}) }, async () => {
      throw new ActionError("errors.validation", { fieldErrors: { code: ["errors.wrongCode"] } });
    });
    expect(await refusing({})).toEqual({ ok: false, error: "errors.validation", fieldErrors: { code: ["errors.wrongCode"] } });
  });

  it("sends the browser only what the output schema declares", async () => {
    const leaky = defineAction(
      { permission: "account.view", schema: z.object({}), account: "input", output: z.object({ id: z.string(), last4: z.string() }) },
      async (_input, ctx) => ({ id: ctx.account.id, last4: "abcd", secretKey: "sk_live_never_to_the_browser" }),
    );
    const result = await leaky({ accountId: "acc-mine" });
    expect(result).toEqual({ ok: true, data: { id: "acc-mine", last4: "abcd" } });
    expect(JSON.stringify(result)).not.toContain("sk_live");
  });
});
