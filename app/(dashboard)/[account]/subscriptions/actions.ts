"use server";

import { revalidatePath } from "next/cache";
import { accountPath } from "@/lib/accounts/paths";
import { defineAction } from "@/lib/actions/safe-action";
import { setSubscriptionRules } from "@/lib/subscriptions/queries";
import { stateRulesFormSchema } from "@/lib/subscriptions/rules-schema";

// setSubscriptionRules parses its input again and writes its own audit entry ("subscriptions.rules_updated").

export const saveSubscriptionRulesAction = defineAction(
  { permission: "sales.settings", schema: stateRulesFormSchema, account: "input" },
  async (rules, ctx) => {
    await setSubscriptionRules(ctx.account.id, rules, { id: ctx.user.id, email: ctx.user.email }, ctx.ip);
    revalidatePath(accountPath(ctx.account.id, "/subscriptions"));
  },
);
