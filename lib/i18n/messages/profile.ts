import { defineMessages } from "../define";

export const profile = defineMessages(
  {
    title: "Meu perfil",
    description: "Seus dados de acesso e preferências.",
    language: "Idioma",
    changePassword: "Alterar senha",
    changePasswordDescription: "Depois de alterar, as outras sessões abertas são encerradas.",
    currentPassword: "Senha atual",
    newPassword: "Nova senha",
    newPasswordHint: "Pelo menos 12 caracteres.",
    confirmPassword: "Confirme a nova senha",
    passwordChanged: "Senha alterada. Entre novamente com a nova senha.",
  },
  {
    title: "My profile",
    description: "Your sign-in details and preferences.",
    language: "Language",
    changePassword: "Change password",
    changePasswordDescription: "After the change, your other open sessions end.",
    currentPassword: "Current password",
    newPassword: "New password",
    newPasswordHint: "At least 12 characters.",
    confirmPassword: "Confirm the new password",
    passwordChanged: "Password changed. Sign in again with the new password.",
  },
);
