import "server-only";
import type { z } from "zod";
import { webhookUrlFor } from "@/lib/gateway/connection";
import type { OperationActor } from "@/lib/ledger/submissions";
import { createLogger } from "@/lib/log";
import { recordCreatedSubscription } from "@/lib/subscriptions/learn";
import { runOperation, type RunOperationResult } from "./submission";
import { firstChargeOf } from "./subscription-charge";
import type { ChargeFormKind } from "./form-values";
import { chargeKind } from "./kinds";
import type { ChargeKindDefinition, ChargeValues } from "./kinds/define";
import { buildGatewayRequest } from "./requests";

const log = createLogger("charges");

export type ChargeContext = { accountId: string; actor: OperationActor; ip?: string | null };

/** What a form sent does not pass its kind's schema: nothing was recorded or sent. */
export class ChargeValuesError extends Error {
  constructor(readonly issues: z.core.$ZodIssue[]) {
    super("invalid charge values");
  }
}

/**
 * Creates one incoming-money operation from an already validated form, through the ledger.
 * Callers (the server action) have checked `charges.create` on `accountId`.
 */
export async function createChargeOperation<Values extends ChargeValues, Request extends Record<string, unknown>, Answer>(
  definition: ChargeKindDefinition<ChargeFormKind, Values, Request, Answer>,
  values: Values,
  context: ChargeContext,
): Promise<RunOperationResult> {
  const built = buildGatewayRequest(definition, values, webhookUrlFor(context.accountId));
  const result = await runOperation({
    accountId: context.accountId,
    kind: built.kind,
    identifier: built.identifier,
    storedRequest: built.stored,
    summary: built.summary,
    actor: context.actor,
    ip: context.ip,
    send: (gateway) => definition.send(gateway, built.request),
    read: definition.facts,
  });
  await recordSubscription(result.row);
  return result;
}

/** A subscription the gateway created joins the subscriptions list; the creation stands if that fails (its notifications teach it too). */
async function recordSubscription(row: RunOperationResult["row"]): Promise<void> {
  try {
    await recordCreatedSubscription(row, firstChargeOf(row.response).transactionId);
  } catch (error) {
    log.error("subscription not recorded", { ledgerId: row.id, error: error instanceof Error ? error.message : String(error) });
  }
}

/** Validates what a charge form sent with its kind's schema (again: the browser did too), then creates it. */
export async function createCharge(kind: ChargeFormKind, input: unknown, context: ChargeContext): Promise<RunOperationResult> {
  return chargeKind(kind).use(async (definition) => {
    const parsed = definition.schema.safeParse(input);
    if (!parsed.success) throw new ChargeValuesError(parsed.error.issues);
    return createChargeOperation(definition, parsed.data, context);
  });
}
