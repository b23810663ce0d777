import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { requirePage } from "@/lib/auth/session";
import { getI18n } from "@/lib/i18n/server";
import { ChangePasswordForm } from "./change-password-form";

export default async function ChangePasswordPage() {
  await requirePage("profile.manage");
  const { t } = await getI18n();
  return (
    <Card className="max-w-lg">
      <CardHeader>
        <CardTitle>{t("profile.changePassword")}</CardTitle>
        <CardDescription>{t("profile.changePasswordDescription")}</CardDescription>
      </CardHeader>
      <CardContent>
        <ChangePasswordForm />
      </CardContent>
    </Card>
  );
}
