/**
 * The endpoints the sandbox serves, for its OpenAPI document: its own request schemas, and the
 * answers it gives (loose objects: the family's gateways add fields freely).
 */
import { z } from "zod";
import {
  boletoChargeRequestSchema,
  cardChargeRequestSchema,
  cardSubscriptionRequestSchema,
  checkoutRequestSchema,
  cryptoChargeRequestSchema,
  cryptoSubscriptionRequestSchema,
  pixChargeRequestSchema,
  pixDepositRequestSchema,
  pixSubscriptionRequestSchema,
  refundRequestSchema,
  transactionQuerySchema,
  transferRequestSchema,
} from "./requests";

const API_PREFIX = "/api/v1/gateway";
const order = z.looseObject({ id: z.string(), url: z.string(), receiptUrl: z.string().optional() });
const charge = z.looseObject({ transactionId: z.string(), status: z.string(), fee: z.number().optional(), order: order.optional() });
const transaction = z.looseObject({
  id: z.string(),
  clientIdentifier: z.string(),
  status: z.string(),
  amount: z.number(),
  currency: z.string(),
  paymentMethod: z.string(),
});

export const gatewayErrorBodySchema = z.looseObject({ statusCode: z.number(), errorCode: z.string(), message: z.string() });

export const paymentWebhookSchema = z.looseObject({
  event: z.string(),
  token: z.string(),
  client: z.looseObject({}).optional(),
  transaction: transaction.partial().extend({ id: z.string(), status: z.string() }),
});

type Endpoint = { method: "GET" | "POST"; path: string; summary: string; request?: z.ZodType; query?: z.ZodType; response: z.ZodType };

export const ENDPOINTS: Record<string, Endpoint> = {
  createPixCharge: {
    method: "POST",
    path: `${API_PREFIX}/pix/receive`,
    summary: "Create Pix charge",
    request: pixChargeRequestSchema,
    response: charge.extend({ pix: z.looseObject({ code: z.string() }) }),
  },
  createCardCharge: {
    method: "POST",
    path: `${API_PREFIX}/card/receive`,
    summary: "Create card charge",
    request: cardChargeRequestSchema,
    response: charge,
  },
  createBoletoCharge: {
    method: "POST",
    path: `${API_PREFIX}/boleto/receive`,
    summary: "Create boleto charge",
    request: boletoChargeRequestSchema,
    response: charge.extend({ boleto: z.looseObject({}) }),
  },
  createCryptoCharge: {
    method: "POST",
    path: `${API_PREFIX}/crypto/receive`,
    summary: "Create crypto charge",
    request: cryptoChargeRequestSchema,
    response: charge.extend({ crypto: z.looseObject({}) }),
  },
  createPixDeposit: {
    method: "POST",
    path: `${API_PREFIX}/pix/deposit`,
    summary: "Create Pix deposit",
    request: pixDepositRequestSchema,
    response: charge.extend({ pix: z.looseObject({ code: z.string() }) }),
  },
  createPixSubscription: {
    method: "POST",
    path: `${API_PREFIX}/pix/subscription`,
    summary: "Create Pix subscription",
    request: pixSubscriptionRequestSchema,
    response: z.looseObject({}),
  },
  createCardSubscription: {
    method: "POST",
    path: `${API_PREFIX}/card/subscription`,
    summary: "Create card subscription",
    request: cardSubscriptionRequestSchema,
    response: z.looseObject({}),
  },
  createCryptoSubscription: {
    method: "POST",
    path: `${API_PREFIX}/crypto/subscription`,
    summary: "Create crypto subscription",
    request: cryptoSubscriptionRequestSchema,
    response: z.looseObject({}),
  },
  createTransfer: {
    method: "POST",
    path: `${API_PREFIX}/transfers`,
    summary: "Create Pix transfer (withdrawal)",
    request: transferRequestSchema,
    response: z.looseObject({ withdraw: z.looseObject({}), payoutAccount: z.looseObject({}) }),
  },
  createCheckout: {
    method: "POST",
    path: `${API_PREFIX}/checkout`,
    summary: "Create hosted checkout",
    request: checkoutRequestSchema,
    response: z.looseObject({ url: z.string() }),
  },
  requestRefund: {
    method: "POST",
    path: `${API_PREFIX}/producer/refunds`,
    summary: "Request a refund",
    request: refundRequestSchema,
    response: z.looseObject({ id: z.string(), status: z.string() }),
  },
  getTransaction: {
    method: "GET",
    path: `${API_PREFIX}/transactions`,
    summary: "Look a transaction up",
    query: transactionQuerySchema,
    response: transaction,
  },
  getProducer: { method: "GET", path: `${API_PREFIX}/producer`, summary: "The producer's profile", response: z.looseObject({}) },
};
