import { z } from "zod";
import { answerNumber, statusSchema, timestampSchema } from "./common";

/** The five event names of the payment webhook. Receivers must keep unknown ones too. */
export const WEBHOOK_EVENTS = [
  "TRANSACTION_CREATED",
  "TRANSACTION_PAID",
  "TRANSACTION_CANCELED",
  "TRANSACTION_REFUNDED",
  "TRANSACTION_CHARGED_BACK",
] as const;

export type KnownWebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export function isKnownWebhookEvent(event: string): event is KnownWebhookEvent {
  return (WEBHOOK_EVENTS as readonly string[]).includes(event);
}

export const webhookClientSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
  cpf: z.string().nullable().optional(),
  cnpj: z.string().nullable().optional(),
  address: z
    .looseObject({
      country: z.string().nullable().optional(),
      zipCode: z.string().nullable().optional(),
      state: z.string().nullable().optional(),
      city: z.string().nullable().optional(),
      neighborhood: z.string().nullable().optional(),
      street: z.string().nullable().optional(),
      number: z.string().nullable().optional(),
      complement: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
});

/**
 * Optional members accept `null` as well: a notification must never be rejected because a
 * gateway writes `"payedAt": null` for an unpaid transaction.
 */
export const webhookTransactionSchema = z.looseObject({
  id: z.string(),
  identifier: z.string().nullable().optional(),
  status: statusSchema,
  paymentMethod: z.string(),
  originalCurrency: z.string().nullable().optional(),
  originalAmount: answerNumber().nullable().optional(),
  amount: answerNumber(),
  commissionAmount: answerNumber().nullable().optional(),
  currency: z.string(),
  exchangeRate: answerNumber().nullable().optional(),
  installments: answerNumber().nullable().optional(),
  createdAt: timestampSchema,
  payedAt: timestampSchema.nullable().optional(),
  pixInformation: z
    .looseObject({
      qrCode: z.string().nullable().optional(),
      endToEndId: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
  boletoInformation: z.looseObject({}).nullable().optional(),
});

export const webhookOrderItemSchema = z.looseObject({
  id: z.string().optional(),
  price: answerNumber().optional(),
  product: z
    .looseObject({
      id: z.string().optional(),
      name: z.string().optional(),
      externalId: z.string().nullable().optional(),
    })
    .optional(),
});

export const webhookTrackPropsSchema = z.looseObject({
  isUpsell: z.boolean().optional(),
  ip: z.string().nullable().optional(),
  user_agent: z.string().nullable().optional(),
});

export const paymentWebhookSchema = z.looseObject({
  /** One of WEBHOOK_EVENTS, or an event this code does not know yet (kept, never rejected). */
  event: z.string().min(1),
  token: z.string(),
  offerCode: z.string().nullable().optional(),
  checkoutUrl: z.string(),
  client: webhookClientSchema,
  transaction: webhookTransactionSchema,
  subscription: z.looseObject({}).nullable().optional(),
  orderItems: z.array(webhookOrderItemSchema).optional(),
  trackProps: webhookTrackPropsSchema.optional(),
});

export type PaymentWebhook = z.output<typeof paymentWebhookSchema>;
export type WebhookTransaction = z.output<typeof webhookTransactionSchema>;
