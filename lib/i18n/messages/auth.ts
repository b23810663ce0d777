import { defineMessages } from "../define";

export const auth = defineMessages(
  {
    signInTitle: "Entrar no console",
    signInDescription: "Use o e-mail e a senha da sua conta.",
    email: "E-mail",
    password: "Senha",
    signIn: "Entrar",
    invalidCredentials: "E-mail ou senha incorretos.",
    throttled: "Muitas tentativas. Aguarde alguns minutos e tente novamente.",
    signedOut: "Você saiu do console.",
    forbiddenTitle: "Acesso negado",
    forbiddenDescription: "Seu perfil não permite abrir esta página. Fale com um administrador se precisar de acesso.",
    backHome: "Voltar ao início",
  },
  {
    signInTitle: "Sign in to the console",
    signInDescription: "Use your account's e-mail and password.",
    email: "E-mail",
    password: "Password",
    signIn: "Sign in",
    invalidCredentials: "Wrong e-mail or password.",
    throttled: "Too many attempts. Wait a few minutes and try again.",
    signedOut: "You have signed out.",
    forbiddenTitle: "Access denied",
    forbiddenDescription: "Your role does not allow this page. Ask an administrator if you need access.",
    backHome: "Back to start",
  },
);
