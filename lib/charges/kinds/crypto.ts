import "server-only";
import { cryptoChargeFormSchema } from "../schemas";
import { defined, metadataOf, productsOf } from "../requests";
import { chargeFacts } from "./answers";
import { defineChargeKind } from "./define";
import { CHARGE_FORMS } from "./forms";

export const cryptoCharge = defineChargeKind({
  form: CHARGE_FORMS.crypto,
  operationKind: "crypto_charge",
  paymentMethod: "CRYPTO",
  schema: cryptoChargeFormSchema,
  currency: (values) => values.currency,
  buildRequest: (values, callbackUrl) =>
    defined({
      identifier: values.identifier,
      amount: values.amount,
      currency: values.currency,
      cryptoCurrency: values.cryptoCurrency,
      network: values.network,
      client: values.client,
      callbackUrl,
      products: productsOf(values.products),
      metadata: metadataOf(values.metadata, values.origin),
    }),
  send: (gateway, request) => gateway.createCryptoCharge(request),
  facts: chargeFacts,
});
