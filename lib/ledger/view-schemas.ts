import { z } from "zod";
import { LEDGER_FILTER_KEYS } from "./filters";

/** A saved view's name: the save dialog validates it, and the action again inside `saveViewSchema`. */
export const viewNameSchema = z.object({
  name: z.string().trim().min(1, "transactions.views.nameRequired").max(60, "transactions.views.nameTooLong"),
});

export const filterParamsSchema = z.object(
  Object.fromEntries(LEDGER_FILTER_KEYS.map((key) => [key, z.string().max(200).optional()])),
) as z.ZodObject<Record<(typeof LEDGER_FILTER_KEYS)[number], z.ZodOptional<z.ZodString>>>;

export const saveViewSchema = viewNameSchema.extend({ filters: filterParamsSchema });
