"use server";

import { revalidatePath } from "next/cache";
import { accountPath } from "@/lib/accounts/paths";
import { ActionError, defineAction } from "@/lib/actions/safe-action";
import { markRecovery, recordRecoveryContact, RecoveryTargetNotFoundError, saveSalesSettings } from "@/lib/sales/queries";
import { recoveryContactSchema, recoveryMarkSchema } from "@/lib/sales/schemas";
import { recoverySettingsFormSchema } from "./schemas";

// markRecovery, recordRecoveryContact and saveSalesSettings write their own audit entries ("sales.recovery_marked",
// "sales.recovery_contacted", "sales.settings_updated") and parse their input again with lib/sales/schemas.

export const markRecoveryAction = defineAction(
  { permission: "sales.recover", schema: recoveryMarkSchema, account: "input" },
  async (input, ctx) => {
    const accountId = ctx.account.id;
    try {
      await markRecovery(accountId, input, { id: ctx.user.id, email: ctx.user.email }, ctx.ip);
    } catch (error) {
      if (error instanceof RecoveryTargetNotFoundError) throw new ActionError("errors.notFound");
      throw error;
    }
    revalidatePath(accountPath(accountId, "/sales/recovery"));
    return { state: input.state };
  },
);

export const recordRecoveryContactAction = defineAction(
  { permission: "sales.recover", schema: recoveryContactSchema, account: "input" },
  async (input, ctx) => {
    const accountId = ctx.account.id;
    try {
      await recordRecoveryContact(accountId, input, { id: ctx.user.id, email: ctx.user.email }, ctx.ip);
    } catch (error) {
      if (error instanceof RecoveryTargetNotFoundError) throw new ActionError("errors.notFound");
      throw error;
    }
    revalidatePath(accountPath(accountId, "/sales/recovery"));
    return { channel: input.channel };
  },
);

export const saveRecoverySettingsAction = defineAction(
  { permission: "sales.settings", schema: recoverySettingsFormSchema, account: "input" },
  async (settings, ctx) => {
    const accountId = ctx.account.id;
    await saveSalesSettings(accountId, settings, { id: ctx.user.id, email: ctx.user.email }, ctx.ip);
    revalidatePath(accountPath(accountId, "/sales/recovery"));
  },
);
