"use server";

import { z } from "zod";
import { defineAction } from "@/lib/actions/safe-action";
import { writeAudit } from "@/lib/audit/log";
import { getProducerProfile } from "@/lib/producer/profile";

/** "Testar conexão": the producer endpoint with the account's keys; answers the producer's name or the error kind. */
export const testConnectionAction = defineAction(
  { permission: "account.view", schema: z.object({ accountId: z.string().min(1) }), account: (input: { accountId: string }) => input.accountId },
  async ({ accountId }, ctx) => {
    const result = await getProducerProfile(accountId);
    await writeAudit({
      actor: ctx.user,
      accountId,
      action: "accounts.test_connection",
      target: accountId,
      details: result.ok ? { ok: true } : { ok: false, kind: result.kind, httpStatus: result.status ?? null },
      ip: ctx.ip,
    });
    return result.ok ? { ok: true as const, name: result.producer.name } : { ok: false as const, kind: result.kind, status: result.status, message: result.message };
  },
);
