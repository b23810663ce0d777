import "server-only";
import { toCents } from "@/lib/br";
import type { GatewayClient } from "@/lib/gateway";
import { webhookUrlFor } from "@/lib/gateway/connection";
import { runOperation, type CreationFacts, type OperationActor, type RunOperationResult } from "@/lib/submissions/transactions";
import { buildGatewayRequest, type GatewayRequestOf } from "./requests";
import type { ChargeFormKind } from "./form-values";
import { CHARGE_FORM_SCHEMAS, type ChargeFormOutput } from "./schemas";

type Sender = (gateway: GatewayClient, request: never) => Promise<unknown>;

const SENDERS: Record<ChargeFormKind, Sender> = {
  pix: (g, r: GatewayRequestOf["pix"]) => g.createPixCharge(r),
  card: (g, r: GatewayRequestOf["card"]) => g.createCardCharge(r),
  boleto: (g, r: GatewayRequestOf["boleto"]) => g.createBoletoCharge(r),
  crypto: (g, r: GatewayRequestOf["crypto"]) => g.createCryptoCharge(r),
  deposit: (g, r: GatewayRequestOf["deposit"]) => g.createPixDeposit(r),
  "pix-subscription": (g, r: GatewayRequestOf["pix-subscription"]) => g.createPixSubscription(r),
  "card-subscription": (g, r: GatewayRequestOf["card-subscription"]) => g.createCardSubscription(r),
  "crypto-subscription": (g, r: GatewayRequestOf["crypto-subscription"]) => g.createCryptoSubscription(r),
};

const isSubscription = (kind: ChargeFormKind) => kind.endsWith("-subscription");

/**
 * Facts read from a creation answer. Subscription answers are undocumented: their status is kept
 * when it is a string, but no transaction id is claimed for the row (a first charge's id would
 * belong to that charge, which webhooks report separately).
 */
export function creationFacts(kind: ChargeFormKind, response: unknown): CreationFacts {
  const body = (response ?? {}) as Record<string, unknown>;
  const status = typeof body.status === "string" ? body.status : null;
  if (isSubscription(kind)) return { status };
  return {
    gatewayTransactionId: typeof body.transactionId === "string" ? body.transactionId : null,
    status,
    feeCents: typeof body.fee === "number" ? toCents(body.fee) : null,
  };
}

/**
 * Creates one incoming-money operation from an already validated form, through the ledger.
 * Callers (the server action) have checked `charges.create` on `accountId`.
 */
export async function createChargeOperation<K extends ChargeFormKind>(
  kind: K,
  parsed: ChargeFormOutput<K>,
  context: { accountId: string; actor: OperationActor; ip?: string | null },
): Promise<RunOperationResult> {
  const built = buildGatewayRequest(kind, parsed, webhookUrlFor(context.accountId));
  const send = SENDERS[kind] as (gateway: GatewayClient, request: GatewayRequestOf[K]) => Promise<unknown>;
  return runOperation({
    accountId: context.accountId,
    kind: built.kind,
    identifier: built.identifier,
    storedRequest: built.stored,
    summary: built.summary,
    actor: context.actor,
    ip: context.ip,
    send: (gateway) => send(gateway, built.request),
    read: (response) => creationFacts(kind, response),
  });
}

export function chargeSchemaFor<K extends ChargeFormKind>(kind: K): (typeof CHARGE_FORM_SCHEMAS)[K] {
  return CHARGE_FORM_SCHEMAS[kind];
}
