import "server-only";
import { cardChargeFormSchema } from "../schemas";
import { cardOf, defined, feesOf, metadataOf, productsOf, splitsOf, storedWithCard } from "../requests";
import { chargeFacts } from "./answers";
import { defineChargeKind } from "./define";
import { CHARGE_FORMS } from "./forms";

export const cardCharge = defineChargeKind({
  form: CHARGE_FORMS.card,
  operationKind: "card_charge",
  paymentMethod: "CREDIT_CARD",
  schema: cardChargeFormSchema,
  buildRequest: (values, callbackUrl) =>
    defined({
      identifier: values.identifier,
      amount: values.amount,
      installments: values.installments,
      clientIp: values.clientIp,
      client: { ...values.client, address: defined({ ...values.address }) },
      card: cardOf(values.card),
      callbackUrl,
      products: productsOf(values.products),
      ...feesOf(values),
      splits: splitsOf(values.splits),
      metadata: metadataOf(values.metadata, values.origin),
    }),
  stored: storedWithCard,
  send: (gateway, request) => gateway.createCardCharge(request),
  facts: chargeFacts,
});
