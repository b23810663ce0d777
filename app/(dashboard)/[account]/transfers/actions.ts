"use server";

import { revalidatePath } from "next/cache";
import { accountPath } from "@/lib/accounts/paths";
import { ActionError, defineAction } from "@/lib/actions/safe-action";
import { writeAudit } from "@/lib/audit/log";
import { toCents } from "@/lib/br";
import { getI18n } from "@/lib/i18n/server";
import { saveTransferSettings } from "@/lib/transfers/queries";
import { submitTransferSchema, transferSettingsSchema } from "@/lib/transfers/schemas";
import { TransferRefusedError } from "@/lib/transfers/errors";
import { confirmMoneyOut, DailyLimitError, submitTransfer } from "@/lib/transfers/service";

/** A transfer refusal in the user's words: the field it is about, the gateway's own text beside it. */
function refusalMessage(error: TransferRefusedError): ActionError {
  const key = error.detail.explained ?? `transfers.errors.${error.reason}`;
  const { field, gatewayMessage, transferId } = error.detail;
  const message = gatewayMessage ?? transferId;
  return new ActionError(key, { ...(message === undefined ? {} : { message }), ...(field ? { fieldErrors: { [field]: [key] } } : {}) });
}

export const submitTransferAction = defineAction(
  { permission: "transfers.create", schema: submitTransferSchema, account: "input" },
  async ({ transfer, password, code }, ctx) => {
    const accountId = ctx.account.id;
    try {
      await confirmMoneyOut(ctx.user, { password, code }, { accountId, ip: ctx.ip, identifier: transfer.identifier });
      const result = await submitTransfer({ accountId, actor: ctx.user, ip: ctx.ip, input: transfer });
      revalidatePath(accountPath(accountId, "/transfers"));
      return result;
    } catch (error) {
      if (error instanceof TransferRefusedError) throw refusalMessage(error);
      if (!(error instanceof DailyLimitError)) throw error;
      const { t, format } = await getI18n();
      throw new ActionError("transfers.errors.dailyLimit", {
        message: t("transfers.errors.dailyLimitDetail", {
          limit: format.money(error.limit),
          used: format.money(error.usedToday),
          available: format.money(error.available),
        }),
      });
    }
  },
);

export const saveTransferSettingsAction = defineAction(
  { permission: "account.keys.manage", schema: transferSettingsSchema, account: "input" },
  async ({ dailyLimit }, ctx) => {
    const accountId = ctx.account.id;
    const dailyLimitCents = dailyLimit === undefined ? null : toCents(dailyLimit);
    await saveTransferSettings(accountId, dailyLimitCents, ctx.user);
    await writeAudit({
      actor: ctx.user,
      accountId,
      action: "transfer.settings_updated",
      target: accountId,
      ip: ctx.ip,
      details: { dailyLimit: dailyLimit ?? null },
    });
    revalidatePath(accountPath(accountId, "/transfers"));
  },
);
