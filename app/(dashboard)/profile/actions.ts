"use server";

import { z } from "zod";
import { ActionError, defineAction } from "@/lib/actions/safe-action";
import { changePasswordSchema, disableSecondFactorSchema, enrolCodeSchema, secondFactorCodeSchema } from "@/lib/auth/schemas";
import {
  checkSecondFactor,
  confirmEnrolment,
  disableSecondFactor,
  regenerateRecoveryCodes,
  secondFactorStatus,
  startEnrolment,
  type CodeCheck,
} from "@/lib/auth/second-factor";
import { changePassword, checkOwnPassword } from "@/lib/users/queries";

export const changePasswordAction = defineAction(
  { permission: "profile.manage", schema: changePasswordSchema },
  async ({ currentPassword, newPassword }, ctx) => {
    const outcome = await changePassword(ctx.user.id, currentPassword, newPassword);
    if (outcome === "throttled") throw new ActionError("errors.tooManyAttempts");
    if (outcome === "wrong_password") {
      throw new ActionError("errors.validation", { fieldErrors: { currentPassword: ["errors.wrongPassword"] } });
    }
  },
);

function refuseCode(check: CodeCheck): never {
  if (check.outcome === "throttled") throw new ActionError("errors.tooManyAttempts", { fieldErrors: { code: ["errors.tooManyAttempts"] } });
  throw new ActionError("errors.validation", { fieldErrors: { code: ["errors.wrongCode"] } });
}

export const startSecondFactorAction = defineAction({ permission: "profile.manage", schema: z.object({}) }, async (_input, ctx) =>
  startEnrolment(ctx.user),
);

export const confirmSecondFactorAction = defineAction({ permission: "profile.manage", schema: enrolCodeSchema }, async ({ code }, ctx) => {
  const result = await confirmEnrolment(ctx.user, code, { ip: ctx.ip, sessionId: ctx.user.sessionId });
  if (result.outcome !== "ok" || !result.recoveryCodes) refuseCode(result);
  return { recoveryCodes: result.recoveryCodes, status: await secondFactorStatus(ctx.user.id) };
});

export const regenerateRecoveryCodesAction = defineAction(
  { permission: "profile.manage", schema: secondFactorCodeSchema },
  async ({ code }, ctx) => {
    const check = await checkSecondFactor(ctx.user, code, { ip: ctx.ip, purpose: "recovery_codes" });
    if (check.outcome !== "ok") refuseCode(check);
    const recoveryCodes = await regenerateRecoveryCodes(ctx.user, { ip: ctx.ip });
    return { recoveryCodes, status: await secondFactorStatus(ctx.user.id) };
  },
);

export const disableSecondFactorAction = defineAction(
  { permission: "profile.manage", schema: disableSecondFactorSchema },
  async ({ password, code }, ctx) => {
    const passwordCheck = await checkOwnPassword(ctx.user.id, password);
    if (passwordCheck === "throttled") throw new ActionError("errors.tooManyAttempts");
    if (passwordCheck === "wrong_password")
      throw new ActionError("errors.validation", { fieldErrors: { password: ["errors.wrongPassword"] } });
    const check = await checkSecondFactor(ctx.user, code, { ip: ctx.ip, purpose: "disable" });
    if (check.outcome !== "ok") refuseCode(check);
    await disableSecondFactor(ctx.user, { ip: ctx.ip, sessionId: ctx.user.sessionId });
    return { status: await secondFactorStatus(ctx.user.id) };
  },
);
