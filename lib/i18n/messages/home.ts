import { defineMessages } from "../define";

export const home = defineMessages(
  {
    greeting: "Olá, {name}",
    subtitle: "Você está trabalhando na conta abaixo. Troque de conta pelo seletor na barra lateral.",
    currentAccount: "Conta atual",
    noAccount: "Você ainda não tem acesso a nenhuma conta do gateway.",
    noAccountHint: "Peça a um administrador para liberar o acesso.",
    manageAccount: "Ver conta",
    role: "Seu perfil nesta conta",
  },
  {
    greeting: "Hello, {name}",
    subtitle: "You are working on the account below. Switch accounts with the selector in the sidebar.",
    currentAccount: "Current account",
    noAccount: "You do not have access to any gateway account yet.",
    noAccountHint: "Ask an administrator to grant you access.",
    manageAccount: "View account",
    role: "Your role on this account",
  },
);
