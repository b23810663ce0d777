import { defineMessages } from "../define";

export const common = defineMessages(
  {
    save: "Salvar",
    cancel: "Cancelar",
    confirm: "Confirmar",
    close: "Fechar",
    loading: "Carregando…",
    copy: "Copiar",
    copied: "Copiado",
    search: "Buscar",
    actions: "Ações",
    yes: "Sim",
    no: "Não",
    none: "—",
    balanceEstimate: {
      label: "Saldo disponível estimado",
      fromEntry:
        "Calculado pelo console: o saldo informado em {readAt} e os movimentos que ele conhece desde então. Pode diferir do gateway.",
      fromMovements:
        "Calculado pelo console só com os movimentos que ele conhece (nenhum saldo do gateway foi informado). Pode diferir do gateway.",
      above: "O valor passa do saldo disponível estimado ({available}). O gateway pode recusar a transferência; você ainda pode enviar.",
      link: "Ver saldo",
    },
  },
  {
    save: "Save",
    cancel: "Cancel",
    confirm: "Confirm",
    close: "Close",
    loading: "Loading…",
    copy: "Copy",
    copied: "Copied",
    search: "Search",
    actions: "Actions",
    yes: "Yes",
    no: "No",
    none: "—",
    balanceEstimate: {
      label: "Estimated available balance",
      fromEntry:
        "Calculated by the console: the balance entered on {readAt} and the movements it knows since. It may differ from the gateway.",
      fromMovements:
        "Calculated by the console from the movements it knows only (no gateway balance was entered). It may differ from the gateway.",
      above:
        "The amount is above the estimated available balance ({available}). The gateway may refuse the transfer; you can still send it.",
      link: "See balance",
    },
  },
);
