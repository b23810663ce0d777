import { z } from "zod";

/** The lookup page's form and its server actions: by gateway transaction id or by the caller's identifier. */
export const lookupSchema = z.object({
  by: z.enum(["id", "identifier"]),
  value: z.string().trim().min(1, "transactions.lookup.required").max(200),
});
export type LookupInput = z.input<typeof lookupSchema>;
