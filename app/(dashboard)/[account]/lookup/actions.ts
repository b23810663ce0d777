"use server";

import { revalidatePath } from "next/cache";
import { accountPath } from "@/lib/accounts/paths";
import { defineAction } from "@/lib/actions/safe-action";
import { lookupSchema } from "@/lib/ledger/lookup-schema";
import { addLookedUpTransaction, lookupGatewayTransaction } from "@/lib/ledger/lookup";
import { withoutPaymentCodes } from "@/lib/charges/payment-instructions";
import { isPayable } from "@/lib/status/machine";

export const lookupTransactionAction = defineAction(
  { permission: "transactions.view", schema: lookupSchema, account: "input" },
  async (query, ctx) => {
    const outcome = await lookupGatewayTransaction(ctx.account.id, query, ctx.user, ctx.ip);
    // A charge that can no longer be paid hands no code to pay to the page.
    return outcome.ok && !isPayable(outcome.record.status) ? { ...outcome, record: withoutPaymentCodes(outcome.record) } : outcome;
  },
);

export const addToLedgerAction = defineAction({ permission: "ledger.add", schema: lookupSchema, account: "input" }, async (query, ctx) => {
  const result = await addLookedUpTransaction(ctx.account.id, query, ctx.user, ctx.ip);
  if (result.ok) revalidatePath(accountPath(ctx.account.id, "/transactions"));
  return result;
});
