import { defineMessages } from "../define";

/**
 * The balance area ("Saldo"): figures, release calendar, extrato and the balance read on the
 * gateway's panel (lib/balance). Every figure is the console's calculation: the texts say so.
 */
export const balance = defineMessages(
  {
    nav: "Saldo",
    kinds: {
      sale: "Venda",
      fee: "Taxa do gateway",
      split: "Divisão (split)",
      release: "Liberação",
      refund: "Reembolso",
      chargeback: "Chargeback",
      transfer: "Transferência Pix",
      transfer_fee: "Taxa de transferência",
      transfer_returned: "Transferência devolvida",
      transfer_fee_returned: "Taxa de transferência devolvida",
    },
    errors: {
      day: "Informe a data da leitura (dd/mm/aaaa).",
      time: "Informe a hora da leitura (hh:mm).",
      future: "A leitura não pode ser no futuro.",
    },
  },
  {
    nav: "Balance",
    kinds: {
      sale: "Sale",
      fee: "Gateway fee",
      split: "Split",
      release: "Release",
      refund: "Refund",
      chargeback: "Chargeback",
      transfer: "Pix transfer",
      transfer_fee: "Transfer fee",
      transfer_returned: "Transfer returned",
      transfer_fee_returned: "Transfer fee returned",
    },
    errors: {
      day: "Enter the day of the reading (dd/mm/yyyy).",
      time: "Enter the time of the reading (hh:mm).",
      future: "The reading cannot be in the future.",
    },
  },
);
