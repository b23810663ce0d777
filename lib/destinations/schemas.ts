import { z } from "zod";
import { EVENT_TYPES, SUBSCRIPTION_STATE_WORDS, TEST_EVENT_TYPE, type AnyEventType, type EventType } from "./vocabulary";

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

const calendarDay = z.iso.date().describe("A São Paulo calendar day, YYYY-MM-DD");
const int = z.number().int();

/**
 * subscription.renewed, .renewal_failed, .overdue and .lost: the subscription as the console keeps
 * it (its Assinaturas page), with the console's state at the fact and the charge the fact is about.
 */
export const subscriptionStateDataSchema = z
  .object({
    object: z.literal("subscription"),
    id: z
      .string()
      .describe(
        "The console's id of the subscription (its page under Assinaturas). subscription.created carries the console's id of the creation request instead: match the two by identifier",
      ),
    accountId: z.string().describe("The console's gateway account"),
    mode,
    status: z
      .enum(SUBSCRIPTION_STATE_WORDS)
      .describe(
        "The console's state of the subscription at the fact, calculated by the console from what the gateway confirmed: active, awaiting_payment, overdue (em atraso), lost (perdida), canceled, or unknown",
      ),
    gatewayStatus: z
      .string()
      .nullable()
      .describe("The gateway's own status of the subscription, as it came (ACTIVE, CANCELED …); null when it sent none"),
    gatewaySubscriptionId: z.string().nullable().describe("The gateway's id of the subscription, when known"),
    identifier: z.string().nullable().describe("The identifier sent to the gateway at creation, or the one its notifications carried"),
    paymentMethod: z.string().nullable().describe("The gateway's spelling: PIX, CREDIT_CARD, BOLETO, CRYPTO …"),
    ...money,
    periodicity: z
      .object({
        type: z.string().describe("The gateway's spelling: DAYS, WEEKS, MONTHS or YEARS"),
        every: int.nullable().describe("How many of them between charges"),
      })
      .strict()
      .nullable()
      .describe("How often it charges; null when the console does not know"),
    customer: z.object({ name: z.string().nullable(), email: z.string().nullable(), document: z.string().nullable() }).strict(),
    product: z.object({ id: z.string().nullable(), name: z.string().nullable() }).strict().nullable(),
    startedAt: isoTime.nullable().describe("When it started: the console's creation, else the gateway's, else its first charge's"),
    state: z
      .object({
        dueDate: calendarDay
          .nullable()
          .describe("awaiting_payment, overdue, lost: the due day of the oldest charge unpaid since the last paid one"),
        daysSinceDue: int.nullable().describe("awaiting_payment, overdue: São Paulo days since dueDate"),
        daysOverdue: int.nullable().describe('overdue: the N of "em atraso há N dias" (days since dueDate, past the grace period)'),
        missedPeriods: int.nullable().describe("overdue, lost: periods whose due day lies more than the grace period back"),
        lostSince: calendarDay.nullable().describe("lost: the day it read lost"),
        lastPaidAt: isoTime.nullable().describe("active: when the gateway confirmed the last payment"),
        canceledAt: isoTime.nullable().describe("canceled: when the gateway said so"),
      })
      .strict()
      .describe(
        "The detail of `status`. The state is calculated by the console from what the gateway confirmed (its charges, their payments, its own status of the subscription) and the account's rules (grace period, periods before lost); the gateway's notifications alone never set it. Fields that do not apply to the state are null",
      ),
    charge: z
      .object({
        gatewayId: z.string().nullable().describe("The gateway's transaction id"),
        ledgerId: z.string().nullable().describe("The console's id of the charge, when the gateway confirmed it"),
        identifier: z.string().nullable(),
        chargeNumber: int.nullable().describe("1 = the subscription's first charge"),
        dueAt: isoTime.nullable(),
        paidAt: isoTime.nullable(),
        status: z
          .string()
          .nullable()
          .describe(
            "The charge's status as a word of the console's vocabulary (awaiting, paid, failed …), `unknown` for a spelling it does not know",
          ),
        gatewayStatus: z.string().nullable().describe("The gateway's own spelling of the charge's status, as reported"),
        ...money,
      })
      .strict()
      .nullable()
      .describe("renewed, renewal_failed: the renewal charge; overdue, lost: the first unpaid charge. Null when there is none"),
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

/** The data of each type: a new type must choose its schema here. */
const DATA_BY_TYPE = {
  "charge.created": chargeDataSchema,
  "charge.paid": chargeDataSchema,
  "charge.failed": chargeDataSchema,
  "charge.canceled": chargeDataSchema,
  "charge.expired": chargeDataSchema,
  "charge.refunded": chargeDataSchema,
  "charge.charged_back": chargeDataSchema,
  "subscription.created": subscriptionDataSchema,
  "subscription.renewed": subscriptionStateDataSchema,
  "subscription.renewal_failed": subscriptionStateDataSchema,
  "subscription.overdue": subscriptionStateDataSchema,
  "subscription.lost": subscriptionStateDataSchema,
  "transfer.created": transferDataSchema,
  "transfer.completed": transferDataSchema,
  "transfer.failed": transferDataSchema,
  "transfer.canceled": transferDataSchema,
  "refund_request.created": refundRequestDataSchema,
  "refund_request.approved": refundRequestDataSchema,
  "refund_request.refused": refundRequestDataSchema,
  "refund_request.canceled": refundRequestDataSchema,
  "checkout_link.created": checkoutLinkDataSchema,
} as const satisfies Record<EventType, z.ZodType>;

export type ChargeData = z.infer<typeof chargeDataSchema>;
export type SubscriptionData = z.infer<typeof subscriptionDataSchema>;
export type SubscriptionStateData = z.infer<typeof subscriptionStateDataSchema>;
export type TransferData = z.infer<typeof transferDataSchema>;
export type RefundRequestData = z.infer<typeof refundRequestDataSchema>;
export type CheckoutLinkData = z.infer<typeof checkoutLinkDataSchema>;
export type TestData = z.infer<typeof testDataSchema>;
export type EventData =
  ChargeData | SubscriptionData | SubscriptionStateData | TransferData | RefundRequestData | CheckoutLinkData | TestData;

export type EventBody = { type: AnyEventType; timestamp: string; data: EventData };

/** The schema of a whole body of one type: `{ type, timestamp, data }`. */
export function eventBodySchema(type: AnyEventType) {
  const data = type === TEST_EVENT_TYPE ? testDataSchema : DATA_BY_TYPE[type];
  return z.object({ type: z.literal(type), timestamp: isoTime.describe("When the fact was recorded"), data }).strict();
}

export const ALL_SCHEMA_TYPES: readonly AnyEventType[] = [...EVENT_TYPES, TEST_EVENT_TYPE];
