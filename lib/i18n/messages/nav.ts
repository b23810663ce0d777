import { defineMessages } from "../define";

export const nav = defineMessages(
  { home: "Início", accounts: "Contas do gateway", users: "Usuários" },
  { home: "Home", accounts: "Gateway accounts", users: "Users" },
);
