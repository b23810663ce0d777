"use server";

import { revalidatePath } from "next/cache";
import { accountPath } from "@/lib/accounts/paths";
import { ActionError, defineAction } from "@/lib/actions/safe-action";
import { checkoutLinkFormSchema } from "@/lib/checkout-links/schemas";
import { CheckoutLinkRefusedError, createCheckoutLink } from "@/lib/checkout-links/service";

export const createCheckoutLinkAction = defineAction(
  { permission: "checkout.create", schema: checkoutLinkFormSchema, account: "input" },
  async (input, ctx) => {
    const result = await createCheckoutLink({ accountId: ctx.account.id, actor: ctx.user, ip: ctx.ip, input }).catch((error: unknown) => {
      if (!(error instanceof CheckoutLinkRefusedError)) throw error;
      throw new ActionError(`checkoutLinks.errors.${error.reason}`, { message: error.gatewayMessage });
    });
    revalidatePath(accountPath(ctx.account.id, "/checkout-links"));
    return result;
  },
);
