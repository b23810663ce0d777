"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ActionError, defineAction } from "@/lib/actions/safe-action";
import { accountPath } from "@/lib/accounts/paths";
import {
  countEventsSince,
  createDestination,
  deleteDestination,
  DestinationNotFoundError,
  DestinationUrlError,
  replaySince,
  resendEvent,
  rotateSecret,
  sendTestEvent,
  setDestinationState,
  updateDestination,
} from "@/lib/destinations/queries";
import {
  destinationFormSchema,
  destinationIdSchema,
  replaySinceSchema,
  resendEventSchema,
  rotateSecretSchema,
  updateDestinationSchema,
} from "@/lib/destinations/form-schemas";
import { createListenToken, revokeListenToken } from "@/lib/destinations/listen";
import { continueAfterResponse } from "@/lib/background/serverless";

/** Domain refusals as the forms show them: a URL problem on the URL field, a vanished destination as a toast. */
async function guarded<T>(work: () => Promise<T>, urlField = "url"): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DestinationUrlError) {
      throw new ActionError("errors.validation", { fieldErrors: { [urlField]: [`destinations.errors.url.${error.problem}`] } });
    }
    if (error instanceof DestinationNotFoundError) throw new ActionError("errors.notFound");
    throw error;
  }
}

const refresh = (accountId: string) => revalidatePath(accountPath(accountId, "/destinations"), "layout");

export const createDestinationAction = defineAction(
  { permission: "destinations.manage", schema: destinationFormSchema, account: "input" },
  async (input, ctx) => {
    const { destination, secret } = await guarded(() => createDestination(ctx.account.id, input, ctx.user, ctx.ip));
    refresh(ctx.account.id);
    // The secret goes to this browser once, to be copied; the console never shows it again.
    return { id: destination.id, secret };
  },
);

export const updateDestinationAction = defineAction(
  { permission: "destinations.manage", schema: updateDestinationSchema, account: "input" },
  async ({ destinationId, destination }, ctx) => {
    await guarded(() => updateDestination(ctx.account.id, destinationId, destination, ctx.user, ctx.ip), "destination.url");
    refresh(ctx.account.id);
  },
);

export const setDestinationStateAction = defineAction(
  { permission: "destinations.manage", schema: destinationIdSchema.extend({ state: z.enum(["paused", "enabled"]) }), account: "input" },
  async ({ destinationId, state }, ctx) => {
    await guarded(() => setDestinationState(ctx.account.id, destinationId, state, ctx.user, ctx.ip));
    refresh(ctx.account.id);
    if (state === "enabled") continueAfterResponse();
  },
);

export const rotateDestinationSecretAction = defineAction(
  { permission: "destinations.manage", schema: rotateSecretSchema, account: "input" },
  async ({ destinationId, overlapHours }, ctx) => {
    const { secret, previousExpiresAt } = await guarded(() => rotateSecret(ctx.account.id, destinationId, overlapHours, ctx.user, ctx.ip));
    refresh(ctx.account.id);
    return { secret, previousExpiresAt: previousExpiresAt?.toISOString() ?? null };
  },
);

export const deleteDestinationAction = defineAction(
  { permission: "destinations.manage", schema: destinationIdSchema, account: "input" },
  async ({ destinationId }, ctx) => {
    await guarded(() => deleteDestination(ctx.account.id, destinationId, ctx.user, ctx.ip));
    refresh(ctx.account.id);
  },
);

export const sendTestEventAction = defineAction(
  { permission: "destinations.manage", schema: destinationIdSchema, account: "input" },
  async ({ destinationId }, ctx) => {
    const eventId = await guarded(() => sendTestEvent(ctx.account.id, destinationId, ctx.user, ctx.ip));
    continueAfterResponse();
    return { eventId };
  },
);

export const resendEventAction = defineAction(
  { permission: "destinations.manage", schema: resendEventSchema, account: "input" },
  async ({ destinationId, eventId }, ctx) => {
    const queued = await guarded(() => resendEvent(ctx.account.id, destinationId, eventId, ctx.user, ctx.ip));
    if (!queued) throw new ActionError("errors.notFound");
    continueAfterResponse();
    refresh(ctx.account.id);
  },
);

export const countReplayAction = defineAction(
  { permission: "destinations.manage", schema: replaySinceSchema, account: "input" },
  async ({ destinationId, since }, ctx) => ({
    count: await guarded(() => countEventsSince(ctx.account.id, destinationId, new Date(since))),
  }),
);

export const replaySinceAction = defineAction(
  { permission: "destinations.manage", schema: replaySinceSchema, account: "input" },
  async ({ destinationId, since }, ctx) => {
    const queued = await guarded(() => replaySince(ctx.account.id, destinationId, new Date(since), ctx.user, ctx.ip));
    continueAfterResponse();
    refresh(ctx.account.id);
    return { queued };
  },
);

export const createListenKeyAction = defineAction(
  { permission: "destinations.manage", schema: z.object({}), account: "input" },
  async (_input, ctx) => {
    const { token, expiresAt } = await createListenToken(ctx.account.id, ctx.user, ctx.ip);
    refresh(ctx.account.id);
    return { token, expiresAt: expiresAt.toISOString() };
  },
);

export const revokeListenKeyAction = defineAction(
  { permission: "destinations.manage", schema: z.object({ keyId: z.string().trim().min(1).max(100) }), account: "input" },
  async ({ keyId }, ctx) => {
    if (!(await revokeListenToken(ctx.account.id, keyId, ctx.user, ctx.ip))) throw new ActionError("errors.notFound");
    refresh(ctx.account.id);
  },
);
