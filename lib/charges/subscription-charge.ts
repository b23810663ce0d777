import "server-only";
import { findLedgerByGatewayId } from "@/lib/ledger/queries";
import type { LedgerRow } from "@/lib/ledger/queries";

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {});
const str = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

export type FirstCharge = {
  /** The gateway's id of the subscription's first charge, when its creation answer names one. */
  transactionId: string | null;
  /** That charge's own creation answer (QR code, address…), when the subscription's answer carries it. */
  answer: Json;
};

/**
 * What a subscription's creation answer says about its first charge. The interface does not show
 * that answer, so nothing is assumed: a `transactionId` (the spelling of every charge answer), at
 * the top or inside a `charge` object, is read when there is one; a subscription whose first
 * charge comes later (or a gateway that does not say) has none, and its page has no charge to follow.
 */
export function firstChargeOf(response: unknown): FirstCharge {
  const body = obj(response);
  const answer = obj(body.charge);
  return { transactionId: str(body.transactionId) ?? str(answer.transactionId), answer };
}

/**
 * The ledger row of a subscription's first charge: what the payment webhooks of that transaction
 * (and the gateway's lookups confirming them) recorded. Null until the console has heard of it.
 */
export async function getFirstChargeRow(accountId: string, transactionId: string | null): Promise<LedgerRow | null> {
  return transactionId ? findLedgerByGatewayId(accountId, transactionId) : null;
}
