import "server-only";
import { boletoChargeFormSchema } from "../schemas";
import { defined, feesOf, metadataOf, productsOf, splitsOf } from "../requests";
import { chargeFacts } from "./answers";
import { defineChargeKind } from "./define";
import { CHARGE_FORMS } from "./forms";

export const boletoCharge = defineChargeKind({
  form: CHARGE_FORMS.boleto,
  operationKind: "boleto_charge",
  paymentMethod: "BOLETO",
  schema: boletoChargeFormSchema,
  buildRequest: (values, callbackUrl) =>
    defined({
      identifier: values.identifier,
      amount: values.amount,
      client: values.client,
      products: productsOf(values.products),
      ...feesOf(values),
      splits: splitsOf(values.splits),
      metadata: metadataOf(values.metadata, values.origin),
      dueDate: values.dueDate,
      callbackUrl,
    }),
  send: (gateway, request) => gateway.createBoletoCharge(request),
  facts: chargeFacts,
});
