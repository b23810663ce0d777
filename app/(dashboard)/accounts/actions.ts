"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ActionError, defineAction } from "@/lib/actions/safe-action";
import { writeAudit } from "@/lib/audit/log";
import { getProducerProfile } from "@/lib/producer/profile";
import { AccountDetailsError, createAccount, replaceSecretKey, replaceWebhookToken, updateAccountDetails } from "@/lib/accounts/queries";
import { accountDetailsSchema, createAccountSchema, replaceSecretSchema, replaceWebhookTokenSchema } from "@/lib/accounts/schemas";

export const createAccountAction = defineAction({ permission: "accounts.create", schema: createAccountSchema }, async (input, ctx) => {
  const account = await createAccount({ ...input, webhookToken: input.webhookToken || null }, ctx.user);
  revalidatePath("/accounts");
  return { id: account.id };
});

export const updateAccountAction = defineAction(
  { permission: "account.keys.manage", schema: accountDetailsSchema, account: "input" },
  async (details, ctx) => {
    const accountId = ctx.account.id;
    try {
      await updateAccountDetails(accountId, details, ctx.user);
    } catch (error) {
      if (error instanceof AccountDetailsError)
        throw new ActionError("errors.validation", { fieldErrors: { [error.field]: [error.messageKey] } });
      throw error;
    }
    revalidatePath(`/accounts/${accountId}`);
  },
);

export const replaceSecretKeyAction = defineAction(
  { permission: "account.keys.manage", schema: replaceSecretSchema, account: "input" },
  async ({ secretKey }, ctx) => {
    const accountId = ctx.account.id;
    await replaceSecretKey(accountId, secretKey, ctx.user);
    revalidatePath(`/accounts/${accountId}`);
  },
);

export const replaceWebhookTokenAction = defineAction(
  { permission: "account.keys.manage", schema: replaceWebhookTokenSchema, account: "input" },
  async ({ webhookToken }, ctx) => {
    const accountId = ctx.account.id;
    await replaceWebhookToken(accountId, webhookToken || null, ctx.user);
    revalidatePath(`/accounts/${accountId}`);
  },
);

/** "Testar conexão": the producer endpoint with the account's keys; answers the producer's name or the error kind. */
export const testConnectionAction = defineAction(
  { permission: "account.view", schema: z.object({}), account: "input" },
  async (_input, ctx) => {
    const accountId = ctx.account.id;
    const result = await getProducerProfile(accountId);
    await writeAudit({
      actor: ctx.user,
      accountId,
      action: "accounts.test_connection",
      target: accountId,
      details: result.ok ? { ok: true } : { ok: false, kind: result.kind, httpStatus: result.status ?? null },
      ip: ctx.ip,
    });
    return result.ok
      ? { ok: true as const, name: result.producer.name }
      : { ok: false as const, kind: result.kind, status: result.status, message: result.message };
  },
);
