"use server";

import { revalidatePath } from "next/cache";
import { accountPath } from "@/lib/accounts/paths";
import { ActionError, defineAction } from "@/lib/actions/safe-action";
import { markRecovery, recordRecoveryContact, RecoveryTargetNotFoundError, saveSalesSettings } from "@/lib/sales/queries";
import { recoveryContactSchema, recoveryMarkSchema } from "@/lib/sales/schemas";
import { recoverySettingsFormSchema } from "./schemas";

// markRecovery, recordRecoveryContact and saveSalesSettings write their own audit entries ("sales.recovery_marked",
// "sales.recovery_contacted", "sales.settings_updated") and parse their input again with lib/sales/schemas.

/** Marks a charge of the recovery list (another account's charge is not found), then refreshes the list. */
async function markOnList(accountId: string, mark: () => Promise<unknown>) {
  try {
    await mark();
  } catch (error) {
    if (error instanceof RecoveryTargetNotFoundError) throw new ActionError("errors.notFound");
    throw error;
  }
  revalidatePath(accountPath(accountId, "/sales/recovery"));
}

export const markRecoveryAction = defineAction(
  { permission: "sales.recover", schema: recoveryMarkSchema, account: "input" },
  async (input, ctx) => {
    const actor = { id: ctx.user.id, email: ctx.user.email };
    await markOnList(ctx.account.id, () => markRecovery(ctx.account.id, input, actor, ctx.ip));
    return { state: input.state };
  },
);

export const recordRecoveryContactAction = defineAction(
  { permission: "sales.recover", schema: recoveryContactSchema, account: "input" },
  async (input, ctx) => {
    const actor = { id: ctx.user.id, email: ctx.user.email };
    await markOnList(ctx.account.id, () => recordRecoveryContact(ctx.account.id, input, actor, ctx.ip));
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
