"use server";

import { revalidatePath } from "next/cache";
import { accountPath } from "@/lib/accounts/paths";
import { z } from "zod";
import { ActionError, defineAction } from "@/lib/actions/safe-action";
import { writeAudit } from "@/lib/audit/log";
import { configureSandboxWebhookUrl, detectSandbox, emitSandboxNotification } from "@/lib/notifications/sandbox";
import { emitSandboxEventSchema } from "@/lib/notifications/schemas";

/** Makes the sandbox re-send one of the five events for a transaction of the current account. */
export const emitSandboxEventAction = defineAction(
  { permission: "charges.create", schema: emitSandboxEventSchema, account: "input" },
  async ({ transactionId, event }, ctx) => {
    const accountId = ctx.account.id;
    if (!(await detectSandbox(accountId)).isSandbox) throw new ActionError("activity.inbox.sandbox.notSandbox");
    const result = await emitSandboxNotification(accountId, transactionId, event);
    await writeAudit({
      actor: ctx.user,
      accountId,
      action: "webhooks.sandbox.notify",
      target: transactionId,
      details: { event, ok: result.ok, ...(result.ok ? {} : { status: result.status }) },
      ip: ctx.ip,
    });
    if (!result.ok) {
      throw new ActionError("activity.inbox.sandbox.failed", {
        message: result.message,
        fieldErrors: result.status === 404 ? { transactionId: ["errors.notFound"] } : undefined,
      });
    }
    return { event };
  },
);

/** Points the sandbox producer's default webhook URL (hosted checkout sales) at this console. */
export const configureSandboxWebhookUrlAction = defineAction(
  { permission: "charges.create", schema: z.looseObject({}), account: "input" },
  async (_input, ctx) => {
    const accountId = ctx.account.id;
    if (!(await configureSandboxWebhookUrl(accountId))) throw new ActionError("activity.inbox.sandbox.notSandbox");
    await writeAudit({ actor: ctx.user, accountId, action: "webhooks.sandbox.default_url", ip: ctx.ip });
    revalidatePath(accountPath(accountId, "/webhooks"));
    return {};
  },
);
