"use server";

import { revalidatePath } from "next/cache";
import { accountPath } from "@/lib/accounts/paths";
import { z } from "zod";
import { ActionError, defineAction } from "@/lib/actions/safe-action";
import { parseLedgerFilters } from "@/lib/ledger/filters";
import { filterParamsSchema, saveViewSchema } from "@/lib/ledger/view-schemas";
import { countLedger } from "@/lib/ledger/queries";
import { deleteView, saveView } from "@/lib/ledger/saved-views";
import { refreshFromGateway } from "@/lib/ledger/lookup";

export const saveViewAction = defineAction(
  { permission: "transactions.view", schema: saveViewSchema, account: "input" },
  async ({ name, filters }, ctx) => {
    const view = await saveView(ctx.user.id, ctx.account.id, name, filters);
    revalidatePath(accountPath(ctx.account.id, "/transactions"));
    return view;
  },
);

export const deleteViewAction = defineAction(
  { permission: "transactions.view", schema: z.object({ id: z.string().min(1) }), account: "input" },
  async ({ id }, ctx) => {
    if (!(await deleteView(ctx.user.id, ctx.account.id, id))) throw new ActionError("errors.notFound");
    revalidatePath(accountPath(ctx.account.id, "/transactions"));
  },
);

/** How many rows the export will stream: the denominator of its progress bar. */
export const countTransactionsAction = defineAction(
  { permission: "transactions.view", schema: filterParamsSchema, account: "input" },
  async (params, ctx) => countLedger(ctx.account.id, parseLedgerFilters(params)),
);

export const refreshTransactionAction = defineAction(
  { permission: "ledger.refresh", schema: z.object({ id: z.string().min(1).max(100) }), account: "input" },
  async ({ id }, ctx) => {
    const result = await refreshFromGateway(ctx.account.id, id, ctx.user, ctx.ip);
    if (result.ok) revalidatePath(accountPath(ctx.account.id, `/transactions/${id}`));
    return result;
  },
);
