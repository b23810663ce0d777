import { z } from "zod";
import { EVENT_TYPES, TEST_EVENT_TYPE, groupOf, type AnyEventType, type EventGroup } from "./vocabulary";

/**
 * The bodies the console sends, one schema per object. They document the contract
 * (public/events/openapi.json is generated from them) and every event is checked against its
 * schema before it is published, so the document never drifts from what is sent.
 */

const isoTime = z.iso.datetime({ offset: true }).describe("ISO 8601 timestamp");
const mode = z.enum(["test", "live"]).describe("Whether the account runs on test or live money");
const money = {
  amount: z.number().nullable().describe("Amount in major units (e.g. 123.45), as the gateway reported it"),
  amountCents: z.number().int().nullable().describe("The same amount in cents"),
  currency: z.string().describe("ISO 4217 currency code"),
};
const common = {
  id: z.string().describe("The console's id of the object"),
  accountId: z.string().describe("The console's gateway account"),
  mode,
  status: z
    .string()
    .nullable()
    .describe("The status as a word of the console's vocabulary (paid, refunded, completed …), `unknown` for a spelling it does not know"),
  gatewayStatus: z.string().nullable().describe("The gateway's own spelling of the status, as reported"),
};

export const chargeDataSchema = z
  .object({
    object: z.literal("charge"),
    ...common,
    kind: z
      .string()
      .describe("pix_charge, card_charge, boleto_charge, crypto_charge, pix_deposit, or external (not created from the console)"),
    gatewayId: z.string().nullable().describe("The gateway's transaction id"),
    identifier: z.string().describe("The identifier sent to the gateway (its clientIdentifier)"),
    paymentMethod: z.string().nullable().describe("The gateway's spelling: PIX, CREDIT_CARD, BOLETO, CRYPTO …"),
    ...money,
    feeCents: z.number().int().nullable(),
    customer: z.object({
      name: z.string().nullable(),
      email: z.string().nullable(),
      document: z.string().nullable(),
      phone: z.string().nullable(),
    }),
    products: z.array(
      z.object({
        id: z.string().nullable(),
        externalId: z.string().nullable(),
        name: z.string().nullable(),
        quantity: z.number().nullable(),
        price: z.number().nullable(),
      }),
    ),
    trackProps: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe("trackProps as the gateway sent them (UTM values, ip, user_agent, isUpsell)"),
    utm: z.object({
      source: z.string().nullable(),
      medium: z.string().nullable(),
      campaign: z.string().nullable(),
      term: z.string().nullable(),
      content: z.string().nullable(),
    }),
    checkoutUrl: z.string().nullable().describe("The checkout URL the customer visited, when there was one"),
    metadata: z.record(z.string(), z.unknown()).nullable().describe("The free-form metadata sent with the charge"),
    createdAt: isoTime.nullable(),
    paidAt: isoTime.nullable(),
  })
  .strict();

export const subscriptionDataSchema = z
  .object({
    object: z.literal("subscription"),
    ...common,
    kind: z.string().describe("pix_subscription, card_subscription or crypto_subscription"),
    gatewayId: z.string().nullable(),
    identifier: z.string(),
    paymentMethod: z.string().nullable(),
    ...money,
    customer: z.object({
      name: z.string().nullable(),
      email: z.string().nullable(),
      document: z.string().nullable(),
      phone: z.string().nullable(),
    }),
    product: z.object({ id: z.string().nullable(), name: z.string().nullable(), price: z.number().nullable() }).nullable(),
    recurrence: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe("The subscription object sent (periodicityType, periodicity, firstChargeIn)"),
    createdAt: isoTime.nullable(),
  })
  .strict();

export const transferDataSchema = z
  .object({
    object: z.literal("transfer"),
    ...common,
    identifier: z.string(),
    withdrawId: z.string().nullable().describe("The gateway's withdraw id"),
    ...money,
    feeCents: z.number().int().nullable(),
    pixKeyType: z.string(),
    pixKey: z.string(),
    receiver: z.object({ name: z.string(), documentType: z.string(), documentNumber: z.string() }),
    receiptUrl: z.string().nullable(),
    createdAt: isoTime.nullable(),
  })
  .strict();

export const refundRequestDataSchema = z
  .object({
    object: z.literal("refund_request"),
    ...common,
    gatewayRefundId: z.string().nullable(),
    transactionId: z.string().describe("The gateway's id of the refunded transaction"),
    chargeId: z.string().nullable().describe("The console's id of that charge, when it is in the console"),
    amount: z.number().nullable(),
    amountCents: z.number().int().nullable(),
    reason: z.string(),
    description: z.string().nullable(),
    createdAt: isoTime.nullable(),
  })
  .strict();

export const checkoutLinkDataSchema = z
  .object({
    object: z.literal("checkout_link"),
    id: z.string(),
    accountId: z.string(),
    mode,
    checkoutUrl: z.string(),
    product: z.object({ externalId: z.string(), name: z.string() }),
    offer: z.object({ name: z.string(), price: z.string(), currency: z.string(), lang: z.string() }),
    createdAt: isoTime.nullable(),
  })
  .strict();

export const testDataSchema = z
  .object({
    object: z.literal("test"),
    destinationId: z.string(),
    accountId: z.string(),
    mode,
    message: z.string(),
  })
  .strict();

const DATA_BY_GROUP = {
  charge: chargeDataSchema,
  subscription: subscriptionDataSchema,
  transfer: transferDataSchema,
  refund_request: refundRequestDataSchema,
  checkout_link: checkoutLinkDataSchema,
} as const satisfies Record<EventGroup, z.ZodType>;

export type ChargeData = z.infer<typeof chargeDataSchema>;
export type SubscriptionData = z.infer<typeof subscriptionDataSchema>;
export type TransferData = z.infer<typeof transferDataSchema>;
export type RefundRequestData = z.infer<typeof refundRequestDataSchema>;
export type CheckoutLinkData = z.infer<typeof checkoutLinkDataSchema>;
export type TestData = z.infer<typeof testDataSchema>;
export type EventData = ChargeData | SubscriptionData | TransferData | RefundRequestData | CheckoutLinkData | TestData;

export type EventBody = { type: AnyEventType; timestamp: string; data: EventData };

/** The schema of a whole body of one type: `{ type, timestamp, data }`. */
export function eventBodySchema(type: AnyEventType) {
  const data = type === TEST_EVENT_TYPE ? testDataSchema : DATA_BY_GROUP[groupOf(type)];
  return z.object({ type: z.literal(type), timestamp: isoTime.describe("When the fact was recorded"), data }).strict();
}

export const ALL_SCHEMA_TYPES: readonly AnyEventType[] = [...EVENT_TYPES, TEST_EVENT_TYPE];
