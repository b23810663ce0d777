import type { ChargeFormKind, ChargeFormValues } from "../form-values";
import { defineChargeForm, type ChargeKindForm } from "./define";

/*
 * The form half of each kind's definition: client-safe (the charge form imports it), with the
 * schema behind a dynamic import so that zod and the schemas come only once the form is used.
 * The server half (request, sender) is ./<kind>.ts, registered in ./index.ts.
 */

const schemas = () => import("../schemas");

const base = (values: ChargeFormValues) => ({ identifier: values.identifier, amount: values.amount });
const extras = (values: ChargeFormValues) => ({
  products: values.products,
  shippingFee: values.shippingFee,
  extraFee: values.extraFee,
  discount: values.discount,
  splits: values.splits,
  metadata: values.metadata,
  origin: values.origin,
});
const subscription = (values: ChargeFormValues) => ({
  ...base(values),
  client: values.client,
  product: values.product,
  subscription: values.subscription,
});

export const CHARGE_FORMS = {
  pix: defineChargeForm({
    kind: "pix",
    identifierPrefix: "pix",
    sections: ["client", "products", "fees", "splits", "origin", "metadata", "dueDate"],
    schema: () => schemas().then((m) => m.onChargeForm(m.pixChargeFormSchema)),
    pick: (values) => ({ ...base(values), client: values.client, ...extras(values), dueDate: values.dueDate }),
    submitLabel: "charges.submit",
    identifierHint: "charges.fields.identifierHint",
  }),
  card: defineChargeForm({
    kind: "card",
    identifierPrefix: "card",
    sections: ["client", "address", "card", "products", "fees", "splits", "origin", "metadata"],
    schema: () => schemas().then((m) => m.onChargeForm(m.cardChargeFormSchema)),
    pick: (values) => ({
      ...base(values),
      client: values.client,
      ...extras(values),
      installments: values.installments,
      clientIp: values.clientIp,
      address: values.address,
      card: values.card,
    }),
    submitLabel: "charges.submit",
    identifierHint: "charges.fields.identifierHint",
  }),
  boleto: defineChargeForm({
    kind: "boleto",
    identifierPrefix: "bol",
    sections: ["client", "products", "fees", "splits", "origin", "metadata", "dueDate"],
    schema: () => schemas().then((m) => m.onChargeForm(m.boletoChargeFormSchema)),
    pick: (values) => ({ ...base(values), client: values.client, ...extras(values), dueDate: values.dueDate }),
    submitLabel: "charges.submit",
    identifierHint: "charges.fields.identifierHint",
  }),
  crypto: defineChargeForm({
    kind: "crypto",
    identifierPrefix: "cry",
    sections: ["client", "crypto", "products", "origin", "metadata"],
    schema: () => schemas().then((m) => m.onChargeForm(m.cryptoChargeFormSchema)),
    pick: (values) => ({
      ...base(values),
      client: values.client,
      products: values.products,
      metadata: values.metadata,
      origin: values.origin,
      currency: values.currency,
      cryptoCurrency: values.cryptoCurrency,
      network: values.network,
    }),
    submitLabel: "charges.submit",
    identifierHint: "charges.fields.identifierHint",
  }),
  deposit: defineChargeForm({
    kind: "deposit",
    identifierPrefix: "dep",
    sections: [],
    schema: () => schemas().then((m) => m.onChargeForm(m.pixDepositFormSchema)),
    pick: base,
    submitLabel: "charges.submitDeposit",
    identifierHint: "charges.fields.identifierOptionalHint",
  }),
  "pix-subscription": defineChargeForm({
    kind: "pix-subscription",
    identifierPrefix: "sub-pix",
    sections: ["client", "subscription"],
    schema: () => schemas().then((m) => m.onChargeForm(m.pixSubscriptionFormSchema)),
    pick: subscription,
    submitLabel: "charges.submitSubscription",
    identifierHint: "charges.fields.identifierHint",
  }),
  "card-subscription": defineChargeForm({
    kind: "card-subscription",
    identifierPrefix: "sub-card",
    sections: ["client", "card", "subscription"],
    schema: () => schemas().then((m) => m.onChargeForm(m.cardSubscriptionFormSchema)),
    pick: (values) => ({ ...subscription(values), clientIp: values.clientIp, card: values.card }),
    submitLabel: "charges.submitSubscription",
    identifierHint: "charges.fields.identifierHint",
  }),
  "crypto-subscription": defineChargeForm({
    kind: "crypto-subscription",
    identifierPrefix: "sub-cry",
    sections: ["client", "crypto", "subscription"],
    schema: () => schemas().then((m) => m.onChargeForm(m.cryptoSubscriptionFormSchema)),
    pick: (values) => ({ ...subscription(values), cryptoCurrency: values.cryptoCurrency, network: values.network }),
    submitLabel: "charges.submitSubscription",
    identifierHint: "charges.fields.identifierHint",
  }),
} satisfies { [K in ChargeFormKind]: ChargeKindForm<K> };
