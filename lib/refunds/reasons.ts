/**
 * Common reasons, each with the text sent to the gateway (a Brazilian gateway's staff reads it),
 * plus "other" for free text.
 */
export const REFUND_REASONS = {
  customer_request: "Solicitação do cliente",
  duplicate: "Cobrança em duplicidade",
  not_delivered: "Produto ou serviço não entregue",
  defective: "Produto com defeito ou diferente do anunciado",
  fraud: "Suspeita de fraude",
  wrong_amount: "Valor cobrado incorreto",
  other: "",
} as const;
export type RefundReasonCode = keyof typeof REFUND_REASONS;
export const REFUND_REASON_CODES = Object.keys(REFUND_REASONS) as [RefundReasonCode, ...RefundReasonCode[]];
