"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ActionError, defineAction } from "@/lib/actions/safe-action";
import {
  AccountDetailsError,
  createAccount,
  replaceSecretKey,
  replaceWebhookToken,
  updateAccountDetails,
} from "@/lib/accounts/dal";
import {
  accountDetailsSchema,
  createAccountSchema,
  replaceSecretSchema,
  replaceWebhookTokenSchema,
} from "@/lib/accounts/schemas";

const withAccountId = <T extends z.ZodRawShape>(schema: z.ZodObject<T>) => schema.extend({ accountId: z.string().min(1) });
const accountIdSchema = z.object({ accountId: z.string().min(1) });
const byAccountId = (input: { accountId: string }) => input.accountId;

export const createAccountAction = defineAction(
  { permission: "accounts.create", schema: createAccountSchema },
  async (input, ctx) => {
    const account = await createAccount({ ...input, webhookToken: input.webhookToken || null }, ctx.user);
    revalidatePath("/accounts");
    return { id: account.id };
  },
);

export const updateAccountAction = defineAction(
  { permission: "account.keys.manage", schema: z.intersection(accountDetailsSchema, accountIdSchema), account: byAccountId },
  async ({ accountId, ...details }, ctx) => {
    try {
      await updateAccountDetails(accountId, details, ctx.user);
    } catch (error) {
      if (error instanceof AccountDetailsError) throw new ActionError("errors.validation", { fieldErrors: { [error.field]: [error.messageKey] } });
      throw error;
    }
    revalidatePath(`/accounts/${accountId}`);
  },
);

export const replaceSecretKeyAction = defineAction(
  { permission: "account.keys.manage", schema: withAccountId(replaceSecretSchema), account: byAccountId },
  async ({ accountId, secretKey }, ctx) => {
    await replaceSecretKey(accountId, secretKey, ctx.user);
    revalidatePath(`/accounts/${accountId}`);
  },
);

export const replaceWebhookTokenAction = defineAction(
  { permission: "account.keys.manage", schema: withAccountId(replaceWebhookTokenSchema), account: byAccountId },
  async ({ accountId, webhookToken }, ctx) => {
    await replaceWebhookToken(accountId, webhookToken || null, ctx.user);
    revalidatePath(`/accounts/${accountId}`);
  },
);
