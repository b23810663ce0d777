"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ActionError, defineAction } from "@/lib/actions/safe-action";
import { createUserSchema, requiredRolesSchema } from "@/lib/auth/schemas";
import { setRolesRequiringSecondFactor } from "@/lib/auth/second-factor";
import { ROLES } from "@/lib/db/schema-enums";
import { createUser, EmailTakenError, LastAdminError, setUserAccounts, setUserActive, setUserRole } from "@/lib/users/queries";

const lastAdminGuard = async (run: () => Promise<void>) => {
  try {
    await run();
  } catch (error) {
    if (error instanceof LastAdminError) throw new ActionError("errors.lastAdmin");
    throw error;
  }
};

export const createUserAction = defineAction({ permission: "users.manage", schema: createUserSchema }, async (input, ctx) => {
  try {
    await createUser(input, ctx.user);
  } catch (error) {
    if (error instanceof EmailTakenError) throw new ActionError("errors.validation", { fieldErrors: { email: ["errors.emailTaken"] } });
    throw error;
  }
  revalidatePath("/admin/users");
});

export const setUserActiveAction = defineAction(
  { permission: "users.manage", schema: z.object({ userId: z.string().min(1), active: z.boolean() }) },
  async ({ userId, active }, ctx) => {
    if (userId === ctx.user.id && !active) throw new ActionError("errors.cannotDeactivateSelf");
    await lastAdminGuard(() => setUserActive(userId, active, ctx.user));
    revalidatePath("/admin/users");
  },
);

export const setUserRoleAction = defineAction(
  { permission: "users.manage", schema: z.object({ userId: z.string().min(1), role: z.enum(ROLES) }) },
  async ({ userId, role }, ctx) => {
    await lastAdminGuard(() => setUserRole(userId, role, ctx.user));
    revalidatePath("/admin/users");
  },
);

export const setUserAccountsAction = defineAction(
  { permission: "users.manage", schema: z.object({ userId: z.string().min(1), accountIds: z.array(z.string().min(1)) }) },
  async ({ userId, accountIds }, ctx) => {
    await setUserAccounts(userId, accountIds, ctx.user);
    revalidatePath("/admin/users");
  },
);

export const setRequiredSecondFactorRolesAction = defineAction(
  { permission: "users.manage", schema: requiredRolesSchema },
  async ({ roles }, ctx) => {
    await setRolesRequiringSecondFactor(roles, ctx.user, { ip: ctx.ip });
    revalidatePath("/admin/users");
  },
);
