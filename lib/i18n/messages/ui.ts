import { defineMessages } from "../define";

export const ui = defineMessages(
  {
    close: "Fechar",
    datePicker: { open: "Abrir calendário" },
    loading: "Carregando…",
    copy: "Copiar",
    copied: "Copiado",
    copiedDescription: "O conteúdo está na área de transferência.",
    copyFailed: "Não foi possível copiar. Selecione o texto e copie manualmente.",
    selectPlaceholder: "Selecione…",
    scrollUp: "Rolar para cima",
    scrollDown: "Rolar para baixo",
    more: "Mais",
    required: "obrigatório",
  },
  {
    close: "Close",
    datePicker: { open: "Open calendar" },
    loading: "Loading…",
    copy: "Copy",
    copied: "Copied",
    copiedDescription: "The content is on your clipboard.",
    copyFailed: "Could not copy. Select the text and copy it manually.",
    selectPlaceholder: "Select…",
    scrollUp: "Scroll up",
    scrollDown: "Scroll down",
    more: "More",
    required: "required",
  },
);
