"use server";

import { z } from "zod";
import { ActionError, defineAction } from "@/lib/actions/safe-action";
import { fieldErrorsFromGatewayMessage } from "@/lib/gateway/errors";
import { ChargeValuesError, createCharge } from "@/lib/charges/service";
import { CHARGE_FORM_KINDS } from "@/lib/charges/form-values";
import { getLedgerRow } from "@/lib/ledger/queries";
import { checkOperationNow } from "@/lib/ledger/settle";
import { IdentifierBoundError, IdentifierTakenError } from "@/lib/ledger/submissions";
import { latestCheck } from "@/lib/submissions/checks";
import type { SubmissionState } from "@/lib/db/tables/ledger";

const FORM_ROOTS = new Set([
  "identifier",
  "amount",
  "client",
  "card",
  "clientIp",
  "installments",
  "products",
  "splits",
  "dueDate",
  "currency",
  "cryptoCurrency",
  "network",
  "product",
  "subscription",
  "shippingFee",
  "extraFee",
  "discount",
]);

/** A field the gateway named, as the charge form calls it (the card form keeps the address apart). */
function chargeFormPath(gatewayPath: string): string | null {
  if (gatewayPath === "metadata.origem") return "origin";
  if (gatewayPath.startsWith("client.address.")) return `address.${gatewayPath.slice("client.address.".length)}`;
  return FORM_ROOTS.has(gatewayPath.split(".")[0]) ? gatewayPath : null;
}

export type ChargeSubmitted = { id: string; submission: SubmissionState; replayed: boolean };

/** What a form sent that its kind's schema refused, next to the form's fields. */
function fieldErrorsOf(error: ChargeValuesError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) (out[issue.path.join(".") || "_form"] ??= []).push(issue.message);
  return out;
}

/**
 * Every charge form posts here: its kind and the fields it sends, validated with the kind's
 * schema (the one the form used) once the account and the permission are checked.
 */
export const createChargeAction = defineAction(
  {
    permission: "charges.create",
    schema: z.object({ kind: z.enum(CHARGE_FORM_KINDS), values: z.record(z.string(), z.unknown()) }),
    account: "input",
  },
  async ({ kind, values }, ctx): Promise<ChargeSubmitted> => {
    let result;
    try {
      result = await createCharge(kind, values, { accountId: ctx.account.id, actor: ctx.user, ip: ctx.ip });
    } catch (error) {
      if (error instanceof ChargeValuesError) throw new ActionError("errors.validation", { fieldErrors: fieldErrorsOf(error) });
      if (error instanceof IdentifierTakenError) {
        throw new ActionError("charges.errors.identifierTaken", { fieldErrors: { identifier: ["charges.errors.identifierTaken"] } });
      }
      if (error instanceof IdentifierBoundError) {
        throw new ActionError("charges.errors.identifierBound", { fieldErrors: { identifier: ["charges.errors.identifierBound"] } });
      }
      throw error;
    }
    const { row, replayed } = result;
    if (row.submission === "REJECTED") {
      // The gateway answered with an error: nothing exists there, the form keeps everything typed.
      throw new ActionError(`charges.errors.gateway.${row.error?.kind ?? "internal"}`, {
        message: row.error?.message,
        fieldErrors: fieldErrorsFromGatewayMessage(row.error?.message, chargeFormPath),
      });
    }
    return { id: row.id, submission: row.submission!, replayed };
  },
);

export type CheckResult = { id: string; submission: SubmissionState | null; status: string | null; outcome: string; errorKind?: string };

export const checkOperationAction = defineAction(
  { permission: "charges.create", schema: z.object({ id: z.string().min(1).max(100) }), account: "input" },
  async ({ id }, ctx): Promise<CheckResult> => {
    const checked = await checkOperationNow(ctx.account.id, id, ctx.user, ctx.ip);
    if (!checked) throw new ActionError("errors.notFound");
    return { id, submission: checked.row.submission, status: checked.row.status, outcome: checked.outcome, errorKind: checked.error?.kind };
  },
);

export type OperationState = { id: string; submission: SubmissionState | null; nextCheckInSeconds: number | null; needsPerson: boolean };

/** What the ledger knows now (no gateway call): the form watches an unknown outcome settle through it. */
export const operationStateAction = defineAction(
  { permission: "transactions.view", schema: z.object({ id: z.string().min(1).max(100) }), account: "input" },
  async ({ id }, ctx): Promise<OperationState> => {
    const row = await getLedgerRow(ctx.account.id, id);
    if (!row) throw new ActionError("errors.notFound");
    const check = await latestCheck("ledger", row.id);
    return {
      id,
      submission: row.submission,
      nextCheckInSeconds: check?.state === "pending" ? Math.max(0, Math.ceil((check.nextAt.getTime() - Date.now()) / 1000)) : null,
      needsPerson: check?.state === "needs_person",
    };
  },
);
