import { z } from "zod";
import { PERIODICITY_TYPES } from "../constants";
import { cardSchema, clientSchema, httpUrlSchema, ipv4Schema, nonEmptyString, nonNegativeAmount, positiveAmount } from "./common";

export { PERIODICITY_TYPES };

export const periodicityTypeSchema = z.enum(PERIODICITY_TYPES);

/** The `subscription` recurrence configuration. */
export const recurrenceSchema = z.strictObject({
  periodicityType: periodicityTypeSchema,
  periodicity: z.number().int().positive(),
  firstChargeIn: z.number().int().nonnegative().optional(),
});

/**
 * `product` of subscription requests. The interface does not say which of its fields are
 * required; all three are required here because a subscription product without an id, a name
 * or a price cannot be shown or reconciled.
 */
export const subscriptionProductSchema = z.strictObject({
  id: nonEmptyString,
  name: nonEmptyString,
  price: nonNegativeAmount,
});

export const pixSubscriptionRequestSchema = z.strictObject({
  identifier: nonEmptyString,
  amount: positiveAmount,
  client: clientSchema,
  product: subscriptionProductSchema,
  subscription: recurrenceSchema,
  callbackUrl: httpUrlSchema.optional(),
});

export const cardSubscriptionRequestSchema = z.strictObject({
  identifier: nonEmptyString,
  amount: positiveAmount,
  client: clientSchema.omit({ address: true }),
  clientIp: ipv4Schema,
  card: cardSchema,
  product: subscriptionProductSchema,
  subscription: recurrenceSchema,
  callbackUrl: httpUrlSchema.optional(),
});

export const cryptoSubscriptionRequestSchema = z.strictObject({
  identifier: nonEmptyString,
  amount: positiveAmount,
  cryptoCurrency: nonEmptyString,
  network: nonEmptyString,
  client: clientSchema,
  product: subscriptionProductSchema,
  subscription: recurrenceSchema,
  callbackUrl: httpUrlSchema.optional(),
});

/** The subscription responses are not shown: any JSON object, kept as is. */
export const subscriptionResponseSchema = z.looseObject({});

export type PeriodicityType = z.infer<typeof periodicityTypeSchema>;
export type Recurrence = z.input<typeof recurrenceSchema>;
export type SubscriptionProduct = z.input<typeof subscriptionProductSchema>;
export type PixSubscriptionRequest = z.input<typeof pixSubscriptionRequestSchema>;
export type CardSubscriptionRequest = z.input<typeof cardSubscriptionRequestSchema>;
export type CryptoSubscriptionRequest = z.input<typeof cryptoSubscriptionRequestSchema>;
export type SubscriptionResponse = z.output<typeof subscriptionResponseSchema>;
