"use server";

import { revalidatePath } from "next/cache";
import { accountPath } from "@/lib/accounts/paths";
import { ActionError, defineAction } from "@/lib/actions/safe-action";
import { writeAudit } from "@/lib/audit/log";
import { toCents } from "@/lib/br";
import { getI18n } from "@/lib/i18n/server";
import { saveTransferSettings } from "@/lib/transfers/dal";
import { submitTransferSchema, transferSettingsSchema } from "@/lib/transfers/schemas";
import { confirmMoneyOut, DailyLimitError, submitTransfer } from "@/lib/transfers/service";

export const submitTransferAction = defineAction(
  { permission: "transfers.create", schema: submitTransferSchema, account: "input" },
  async ({ transfer, password, code }, ctx) => {
    const accountId = ctx.account.id;
    await confirmMoneyOut(ctx.user, { password, code }, { accountId, ip: ctx.ip, identifier: transfer.identifier });
    try {
      const result = await submitTransfer({ accountId, actor: ctx.user, ip: ctx.ip, input: transfer });
      revalidatePath(accountPath(accountId, "/transfers"));
      return result;
    } catch (error) {
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
