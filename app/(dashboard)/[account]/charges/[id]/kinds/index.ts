import type { OperationKind } from "@/lib/db/tables/ledger";
import type { KindOutcome } from "../frame";
import { BoletoOutcome } from "./boleto";
import { CardChargeOutcome } from "./card";
import { CryptoChargeOutcome } from "./crypto";
import { PixChargeOutcome } from "./pix";
import { SubscriptionOutcome } from "./subscription";

/** What each kind the console creates shows once the gateway accepted it. */
export const OUTCOME_OF_KIND: Record<Exclude<OperationKind, "external">, KindOutcome> = {
  pix_charge: PixChargeOutcome,
  // A deposit pays like a Pix charge; its card is titled as a deposit.
  pix_deposit: PixChargeOutcome,
  boleto_charge: BoletoOutcome,
  crypto_charge: CryptoChargeOutcome,
  card_charge: CardChargeOutcome,
  pix_subscription: SubscriptionOutcome,
  card_subscription: SubscriptionOutcome,
  crypto_subscription: SubscriptionOutcome,
};
