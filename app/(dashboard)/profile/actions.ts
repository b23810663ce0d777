"use server";

import { ActionError, defineAction } from "@/lib/actions/safe-action";
import { changePasswordSchema } from "@/lib/auth/schemas";
import { changePassword } from "@/lib/users/dal";

export const changePasswordAction = defineAction(
  { permission: "profile.manage", schema: changePasswordSchema },
  async ({ currentPassword, newPassword }, ctx) => {
    const outcome = await changePassword(ctx.user.id, currentPassword, newPassword);
    if (outcome === "wrong_password") {
      throw new ActionError("errors.validation", { fieldErrors: { currentPassword: ["errors.wrongPassword"] } });
    }
  },
);
