"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ActionError, defineAction } from "@/lib/actions/safe-action";
import { LEDGER_FILTER_KEYS, parseLedgerFilters } from "@/lib/ledger/filters";
import { countLedger } from "@/lib/ledger/queries";
import { deleteView, saveView } from "@/lib/ledger/saved-views";
import { refreshFromGateway } from "@/lib/ledger/lookup";

const filterParamsSchema = z.object(Object.fromEntries(LEDGER_FILTER_KEYS.map((key) => [key, z.string().max(200).optional()]))) as z.ZodObject<
  Record<(typeof LEDGER_FILTER_KEYS)[number], z.ZodOptional<z.ZodString>>
>;

const saveViewSchema = z.object({
  name: z.string().trim().min(1, "transactions.views.nameRequired").max(60, "transactions.views.nameTooLong"),
  filters: filterParamsSchema,
});

export const saveViewAction = defineAction(
  { permission: "transactions.view", schema: saveViewSchema, account: "input" },
  async ({ name, filters }, ctx) => {
    const view = await saveView(ctx.user.id, ctx.account.id, name, filters);
    revalidatePath("/transactions");
    return view;
  },
);

export const deleteViewAction = defineAction(
  { permission: "transactions.view", schema: z.object({ id: z.string().min(1) }), account: "input" },
  async ({ id }, ctx) => {
    if (!(await deleteView(ctx.user.id, ctx.account.id, id))) throw new ActionError("errors.notFound");
    revalidatePath("/transactions");
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
    if (result.ok) revalidatePath(`/transactions/${id}`);
    return result;
  },
);
