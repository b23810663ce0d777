"use server";

import { cookies } from "next/headers";
import { z } from "zod";
import { defineAction } from "@/lib/actions/safe-action";
import { ACCOUNT_COOKIE } from "@/lib/auth/session";
import { writeAudit } from "@/lib/audit/log";

const YEAR_S = 60 * 60 * 24 * 365;

/** Only remembers which account pages open on; every action still names its own account. */
export const switchAccountAction = defineAction(
  { permission: "account.view", schema: z.object({}), account: "input" },
  async (_input, ctx) => {
    (await cookies()).set(ACCOUNT_COOKIE, ctx.account.id, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      maxAge: YEAR_S,
      secure: process.env.NODE_ENV === "production",
    });
  },
);

export const signOutAuditAction = defineAction({ permission: "profile.manage", schema: z.object({}) }, async (_input, ctx) => {
  await writeAudit({ actor: { id: ctx.user.id, email: ctx.user.email }, action: "auth.sign_out", ip: ctx.ip });
});
