import { z } from "zod";
import { hasAtMostTwoDecimals, parseMoneyInput, roundMoney } from "@/lib/br/money";
import { MOVEMENT_KINDS } from "@/lib/db/tables/balance";

/** A balance as the gateway's panel shows it: zero and negative amounts are real balances (a chargeback can leave one below zero). */
const zBalanceAmount = z.preprocess(
  (value) => {
    if (typeof value !== "string") return value;
    const text = value.trim();
    if (text === "") return undefined;
    const negative = /^-/.test(text);
    const parsed = parseMoneyInput(text.replace(/^-\s*/, ""));
    return parsed === null ? value : negative ? -parsed : parsed;
  },
  z
    .number({ error: (issue) => (issue.input === undefined ? "br.errors.required" : "br.errors.amountInvalid") })
    .refine(Number.isFinite, { error: "br.errors.amountInvalid", abort: true })
    .refine(hasAtMostTwoDecimals, { error: "br.errors.amountDecimals", abort: true })
    .refine((n) => Math.abs(n) <= 99_999_999.99, { error: "br.errors.amountTooLarge" })
    .transform(roundMoney),
);

/** "Informar saldo do gateway": what the gateway's own panel showed, and when (São Paulo day and time). */
export const balanceEntrySchema = z.object({
  available: zBalanceAmount,
  pending: zBalanceAmount,
  readDay: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: "balance.errors.day" }),
  readTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: "balance.errors.time" }),
});
export type BalanceEntryInput = z.input<typeof balanceEntrySchema>;
export type BalanceEntry = z.output<typeof balanceEntrySchema>;

export const statementKindSchema = z.enum(MOVEMENT_KINDS);
