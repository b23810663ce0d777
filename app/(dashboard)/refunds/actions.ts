"use server";

import { revalidatePath } from "next/cache";
import { defineAction } from "@/lib/actions/safe-action";
import { refreshRefundSchema, refundRequestFormSchema } from "@/lib/refunds/schemas";
import { refreshRefundTransaction, requestRefund } from "@/lib/refunds/service";

export const requestRefundAction = defineAction(
  { permission: "refunds.request", schema: refundRequestFormSchema, account: "input" },
  async (input, ctx) => {
    const result = await requestRefund({ accountId: ctx.account.id, actor: ctx.user, ip: ctx.ip, input });
    revalidatePath("/refunds");
    revalidatePath("/transactions", "layout");
    return result;
  },
);

/** One lookup of the refunded transaction, on the user's click. */
export const refreshRefundAction = defineAction(
  { permission: "ledger.refresh", schema: refreshRefundSchema, account: "input" },
  async ({ refundId }, ctx) => {
    const result = await refreshRefundTransaction(ctx.account.id, refundId);
    revalidatePath("/refunds");
    return result;
  },
);
