import { z } from "zod";
import { hexColorSchema, httpUrlSchema, nonEmptyString, positiveAmount } from "./common";

/** Values the interface uses for checkout payment methods (documentation; the field is open). */
export const CHECKOUT_PAYMENT_METHODS = ["BOLETO", "PIX", "CREDIT_CARD"] as const;

export const checkoutRequestSchema = z.strictObject({
  product: z.strictObject({
    externalId: nonEmptyString,
    name: nonEmptyString,
    photos: z.array(httpUrlSchema).optional(),
    offer: z.strictObject({
      name: nonEmptyString,
      price: positiveAmount,
      offerType: nonEmptyString,
      currency: nonEmptyString,
      lang: nonEmptyString,
    }),
  }),
  settings: z
    .strictObject({
      paymentMethods: z.array(nonEmptyString).optional(),
      acceptedDocs: z.array(nonEmptyString).optional(),
      thankYouPage: httpUrlSchema.optional(),
      askForAddress: z.boolean().optional(),
      colors: z.record(z.string(), hexColorSchema).optional(),
    })
    .optional(),
  customer: z
    .strictObject({
      name: z.string().optional(),
      email: z.string().optional(),
      phone: z.string().optional(),
      document: z.string().optional(),
      address: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
});

export const checkoutResponseSchema = z.looseObject({
  success: z.boolean(),
  checkoutUrl: z.string(),
});

export type CheckoutRequest = z.input<typeof checkoutRequestSchema>;
export type CheckoutResponse = z.output<typeof checkoutResponseSchema>;
