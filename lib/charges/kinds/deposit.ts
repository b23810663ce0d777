import "server-only";
import { pixDepositFormSchema } from "../schemas";
import { defined } from "../requests";
import { chargeFacts } from "./answers";
import { defineChargeKind } from "./define";
import { CHARGE_FORMS } from "./forms";

export const pixDeposit = defineChargeKind({
  form: CHARGE_FORMS.deposit,
  operationKind: "pix_deposit",
  paymentMethod: "PIX",
  schema: pixDepositFormSchema,
  buildRequest: (values, callbackUrl) => defined({ identifier: values.identifier, amount: values.amount, callbackUrl }),
  send: (gateway, request) => gateway.createPixDeposit(request),
  facts: chargeFacts,
});
