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
  },
);
