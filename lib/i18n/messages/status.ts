import { defineMessages } from "../define";

/** Every status a person reads, as words: one mapping (lib/status/machine.ts) turns any spelling of the family into these. */
export const status = defineMessages(
  {
    gatewayCode: "Código no gateway: {code}",
    transaction: {
      awaiting: "Aguardando pagamento",
      paid: "Pago",
      failed: "Falhou",
      canceled: "Cancelado",
      expired: "Expirado",
      refunded: "Reembolsado",
      charged_back: "Contestado (chargeback)",
    },
    subscription: { awaiting: "Aguardando ativação", active: "Ativa", paused: "Pausada", canceled: "Cancelada", ended: "Encerrada" },
    transfer: { awaiting: "Em processamento", completed: "Concluída", failed: "Falhou", canceled: "Cancelada" },
    refund: { awaiting: "Em análise", approved: "Aprovado", refused: "Recusado", canceled: "Cancelado" },
  },
  {
    gatewayCode: "Gateway code: {code}",
    transaction: {
      awaiting: "Awaiting payment",
      paid: "Paid",
      failed: "Failed",
      canceled: "Canceled",
      expired: "Expired",
      refunded: "Refunded",
      charged_back: "Disputed (chargeback)",
    },
    subscription: { awaiting: "Awaiting activation", active: "Active", paused: "Paused", canceled: "Canceled", ended: "Ended" },
    transfer: { awaiting: "Processing", completed: "Completed", failed: "Failed", canceled: "Canceled" },
    refund: { awaiting: "Under review", approved: "Approved", refused: "Refused", canceled: "Canceled" },
  },
);
