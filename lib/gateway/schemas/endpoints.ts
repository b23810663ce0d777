import { z } from "zod";
import {
  boletoChargeRequestSchema,
  boletoChargeResponseSchema,
  cardChargeRequestSchema,
  cardChargeResponseSchema,
  cryptoChargeRequestSchema,
  cryptoChargeResponseSchema,
  pixChargeRequestSchema,
  pixChargeResponseSchema,
  pixDepositRequestSchema,
  pixDepositResponseSchema,
} from "./charges";
import { checkoutRequestSchema, checkoutResponseSchema } from "./checkout";
import { producerRecordSchema } from "./producer";
import { refundRecordSchema, refundRequestSchema } from "./refunds";
import {
  cardSubscriptionRequestSchema,
  cryptoSubscriptionRequestSchema,
  pixSubscriptionRequestSchema,
  subscriptionResponseSchema,
} from "./subscriptions";
import { transactionQuerySchema, transactionRecordSchema } from "./transactions";
import { transferRequestSchema, transferResponseSchema } from "./transfers";

export const API_PREFIX = "/api/v1/gateway";

export type EndpointDefinition = {
  method: "GET" | "POST";
  /** Path relative to the base URL, including the `/api/v1/gateway` prefix. */
  path: string;
  summary: string;
  request?: z.ZodType;
  query?: z.ZodType;
  response: z.ZodType;
};

export const ENDPOINTS = {
  createPixCharge: {
    method: "POST",
    path: `${API_PREFIX}/pix/receive`,
    summary: "Create Pix charge",
    request: pixChargeRequestSchema,
    response: pixChargeResponseSchema,
  },
  createCardCharge: {
    method: "POST",
    path: `${API_PREFIX}/card/receive`,
    summary: "Create card charge",
    request: cardChargeRequestSchema,
    response: cardChargeResponseSchema,
  },
  createBoletoCharge: {
    method: "POST",
    path: `${API_PREFIX}/boleto/receive`,
    summary: "Create boleto charge",
    request: boletoChargeRequestSchema,
    response: boletoChargeResponseSchema,
  },
  createCryptoCharge: {
    method: "POST",
    path: `${API_PREFIX}/crypto/receive`,
    summary: "Create crypto charge",
    request: cryptoChargeRequestSchema,
    response: cryptoChargeResponseSchema,
  },
  createPixDeposit: {
    method: "POST",
    path: `${API_PREFIX}/pix/deposit`,
    summary: "Create Pix deposit",
    request: pixDepositRequestSchema,
    response: pixDepositResponseSchema,
  },
  createPixSubscription: {
    method: "POST",
    path: `${API_PREFIX}/pix/subscription`,
    summary: "Create Pix subscription",
    request: pixSubscriptionRequestSchema,
    response: subscriptionResponseSchema,
  },
  createCardSubscription: {
    method: "POST",
    path: `${API_PREFIX}/card/subscription`,
    summary: "Create card subscription",
    request: cardSubscriptionRequestSchema,
    response: subscriptionResponseSchema,
  },
  createCryptoSubscription: {
    method: "POST",
    path: `${API_PREFIX}/crypto/subscription`,
    summary: "Create crypto subscription",
    request: cryptoSubscriptionRequestSchema,
    response: subscriptionResponseSchema,
  },
  createTransfer: {
    method: "POST",
    path: `${API_PREFIX}/transfers`,
    summary: "Create Pix transfer (withdrawal)",
    request: transferRequestSchema,
    response: transferResponseSchema,
  },
  createCheckout: {
    method: "POST",
    path: `${API_PREFIX}/checkout`,
    summary: "Create hosted checkout",
    request: checkoutRequestSchema,
    response: checkoutResponseSchema,
  },
  requestRefund: {
    method: "POST",
    path: `${API_PREFIX}/producer/refunds`,
    summary: "Request refund",
    request: refundRequestSchema,
    response: refundRecordSchema,
  },
  getTransaction: {
    method: "GET",
    path: `${API_PREFIX}/transactions`,
    summary: "Search transactions",
    query: transactionQuerySchema,
    response: transactionRecordSchema,
  },
  getProducer: {
    method: "GET",
    path: `${API_PREFIX}/producer`,
    summary: "Get producer data",
    response: producerRecordSchema,
  },
} as const satisfies Record<string, EndpointDefinition>;

export type EndpointName = keyof typeof ENDPOINTS;
