import "server-only";
import type { OperationKind } from "@/lib/db/tables/ledger";
import type { ChargeFormKind } from "../form-values";
import { boletoCharge } from "./boleto";
import { cardCharge } from "./card";
import { cryptoCharge } from "./crypto";
import type { ChargeKind } from "./define";
import { pixDeposit } from "./deposit";
import { pixCharge } from "./pix";
import { cardSubscription, cryptoSubscription, pixSubscription } from "./subscriptions";

/**
 * Every kind of charge the console creates, by the name its form has in URLs. A kind is one
 * definition (./define.ts): its form (./forms.ts), schema, request, sender and how its answer is
 * read. A new kind is a file here and a line in each of the two registries.
 */
export const CHARGE_KINDS = {
  pix: pixCharge,
  card: cardCharge,
  boleto: boletoCharge,
  crypto: cryptoCharge,
  deposit: pixDeposit,
  "pix-subscription": pixSubscription,
  "card-subscription": cardSubscription,
  "crypto-subscription": cryptoSubscription,
} satisfies { [K in ChargeFormKind]: ChargeKind<K> };

export function chargeKind(kind: ChargeFormKind): ChargeKind {
  return CHARGE_KINDS[kind];
}

/** The form that creates rows of a ledger kind (null for rows the console did not create). */
export function chargeKindOf(operationKind: OperationKind): ChargeKind | null {
  return Object.values(CHARGE_KINDS).find((definition) => definition.operationKind === operationKind) ?? null;
}
