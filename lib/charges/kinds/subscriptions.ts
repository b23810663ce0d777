import "server-only";
import type { z } from "zod";
import { cardSubscriptionFormSchema, cryptoSubscriptionFormSchema, pixSubscriptionFormSchema } from "../schemas";
import { cardOf, defined, storedWithCard } from "../requests";
import { subscriptionFacts } from "./answers";
import { defineChargeKind } from "./define";
import { CHARGE_FORMS } from "./forms";

/** What the three subscription forms share (the Pix one has nothing more). */
type SubscriptionValues = z.output<typeof pixSubscriptionFormSchema>;

/** What every subscription request carries. */
const subscriptionOf = (values: SubscriptionValues, callbackUrl: string) => ({
  identifier: values.identifier,
  amount: values.amount,
  client: values.client,
  product: values.product,
  subscription: defined({ ...values.subscription }),
  callbackUrl,
});

export const pixSubscription = defineChargeKind({
  form: CHARGE_FORMS["pix-subscription"],
  operationKind: "pix_subscription",
  paymentMethod: "PIX",
  schema: pixSubscriptionFormSchema,
  buildRequest: (values, callbackUrl) => defined(subscriptionOf(values, callbackUrl)),
  send: (gateway, request) => gateway.createPixSubscription(request),
  facts: subscriptionFacts,
});

export const cardSubscription = defineChargeKind({
  form: CHARGE_FORMS["card-subscription"],
  operationKind: "card_subscription",
  paymentMethod: "CREDIT_CARD",
  schema: cardSubscriptionFormSchema,
  buildRequest: (values, callbackUrl) =>
    defined({ ...subscriptionOf(values, callbackUrl), clientIp: values.clientIp, card: cardOf(values.card) }),
  stored: storedWithCard,
  send: (gateway, request) => gateway.createCardSubscription(request),
  facts: subscriptionFacts,
});

export const cryptoSubscription = defineChargeKind({
  form: CHARGE_FORMS["crypto-subscription"],
  operationKind: "crypto_subscription",
  paymentMethod: "CRYPTO",
  schema: cryptoSubscriptionFormSchema,
  buildRequest: (values, callbackUrl) =>
    defined({ ...subscriptionOf(values, callbackUrl), cryptoCurrency: values.cryptoCurrency, network: values.network }),
  send: (gateway, request) => gateway.createCryptoSubscription(request),
  facts: subscriptionFacts,
});
