"use server";

import { revalidatePath } from "next/cache";
import { accountPath } from "@/lib/accounts/paths";
import { ActionError, defineAction } from "@/lib/actions/safe-action";
import { secondFactorForMoneyOut } from "@/lib/auth/second-factor";
import { refreshRefundSchema, refundRequestFormSchema } from "@/lib/refunds/schemas";
import { RefundRefusedError } from "@/lib/refunds/errors";
import { refreshRefundTransaction, requestRefund } from "@/lib/refunds/service";

/** A refund refusal in the user's words, the gateway's own text beside it. */
function refusalMessage(error: unknown): unknown {
  if (!(error instanceof RefundRefusedError)) return error;
  const key = error.reason === "requestNotFound" ? "errors.notFound" : `refunds.errors.${error.reason}`;
  return new ActionError(key, error.gatewayMessage === undefined ? {} : { message: error.gatewayMessage });
}

export const requestRefundAction = defineAction(
  { permission: "refunds.request", schema: refundRequestFormSchema, account: "input" },
  async ({ code, ...input }, ctx) => {
    const refusal = await secondFactorForMoneyOut(ctx.user, code, { ip: ctx.ip, purpose: "refund" });
    if (refusal === "secondFactorRequired") throw new ActionError("refunds.errors.secondFactorRequired");
    if (refusal)
      throw new ActionError("errors.validation", {
        fieldErrors: { code: [`errors.${refusal === "codeRequired" ? "required" : refusal}`] },
      });
    const result = await requestRefund({ accountId: ctx.account.id, actor: ctx.user, ip: ctx.ip, input }).catch((error: unknown) => {
      throw refusalMessage(error);
    });
    revalidatePath(accountPath(ctx.account.id, "/refunds"));
    revalidatePath(accountPath(ctx.account.id, "/transactions"), "layout");
    return result;
  },
);

/** One lookup of the refunded transaction, on the user's click. */
export const refreshRefundAction = defineAction(
  { permission: "ledger.refresh", schema: refreshRefundSchema, account: "input" },
  async ({ refundId }, ctx) => {
    const result = await refreshRefundTransaction(ctx.account.id, refundId).catch((error: unknown) => {
      throw refusalMessage(error);
    });
    revalidatePath(accountPath(ctx.account.id, "/refunds"));
    return result;
  },
);
