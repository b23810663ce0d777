import "server-only";
import { pixChargeFormSchema } from "../schemas";
import { defined, feesOf, metadataOf, physicalProductsOf, splitsOf } from "../requests";
import { chargeFacts } from "./answers";
import { defineChargeKind } from "./define";
import { CHARGE_FORMS } from "./forms";

export const pixCharge = defineChargeKind({
  form: CHARGE_FORMS.pix,
  operationKind: "pix_charge",
  paymentMethod: "PIX",
  schema: pixChargeFormSchema,
  buildRequest: (values, callbackUrl) =>
    defined({
      identifier: values.identifier,
      amount: values.amount,
      client: values.client,
      products: physicalProductsOf(values.products),
      ...feesOf(values),
      splits: splitsOf(values.splits),
      metadata: metadataOf(values.metadata, values.origin),
      dueDate: values.dueDate,
      callbackUrl,
    }),
  send: (gateway, request) => gateway.createPixCharge(request),
  facts: chargeFacts,
});
