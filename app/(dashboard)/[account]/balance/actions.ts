"use server";

import { revalidatePath } from "next/cache";
import { accountPath } from "@/lib/accounts/paths";
import { ActionError, defineAction } from "@/lib/actions/safe-action";
import { EntryInFutureError, recordBalanceEntry } from "@/lib/balance/entries";
import { balanceEntrySchema } from "@/lib/balance/schemas";

// recordBalanceEntry parses the entry again and writes its own audit entry ("balance.entry_recorded").
export const recordBalanceEntryAction = defineAction(
  { permission: "balance.enter", schema: balanceEntrySchema, account: "input" },
  async (entry, ctx) => {
    const accountId = ctx.account.id;
    try {
      await recordBalanceEntry(accountId, entry, { id: ctx.user.id, email: ctx.user.email }, ctx.ip);
    } catch (error) {
      if (error instanceof EntryInFutureError)
        throw new ActionError("errors.validation", {
          fieldErrors: { readDay: ["balance.errors.future"], readTime: ["balance.errors.future"] },
        });
      throw error;
    }
    revalidatePath(accountPath(accountId, "/balance"));
  },
);
