import { defineMessages } from "../define";

/** The recovery list of the sales area: unpaid Pix charges and boletos worth a message, and its settings. */
export const salesRecovery = defineMessages(
  {
    tab: "Recuperação",
    title: "Recuperação de vendas",
  },
  {
    tab: "Recovery",
    title: "Sales recovery",
  },
);
