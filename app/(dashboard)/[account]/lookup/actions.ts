"use server";

import { revalidatePath } from "next/cache";
import { accountPath } from "@/lib/accounts/paths";
import { defineAction } from "@/lib/actions/safe-action";
import { lookupSchema } from "@/lib/ledger/lookup-schema";
import { addLookedUpTransaction, lookupGatewayTransaction } from "@/lib/ledger/lookup";

export const lookupTransactionAction = defineAction(
  { permission: "transactions.view", schema: lookupSchema, account: "input" },
  (query, ctx) => lookupGatewayTransaction(ctx.account.id, query, ctx.user, ctx.ip),
);

export const addToLedgerAction = defineAction({ permission: "ledger.add", schema: lookupSchema, account: "input" }, async (query, ctx) => {
  const result = await addLookedUpTransaction(ctx.account.id, query, ctx.user, ctx.ip);
  if (result.ok) revalidatePath(accountPath(ctx.account.id, "/transactions"));
  return result;
});
