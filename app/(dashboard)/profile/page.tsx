import Link from "next/link";
import { KeyRound, ShieldCheck } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { RoleBadge } from "@/components/shell/role-badge";
import { requirePage } from "@/lib/auth/session";
import { getI18n } from "@/lib/i18n/server";
import { LanguageSelect } from "./language-select";

export default async function ProfilePage() {
  const ctx = await requirePage("profile.manage");
  const { t } = await getI18n();
  return (
    <div className="max-w-2xl space-y-6">
      <PageHeader title={t("profile.title")} description={t("profile.description")} />
      <Card>
        <CardHeader>
          <CardTitle>{ctx.user.name}</CardTitle>
        </CardHeader>
        <CardContent className="space-y-4 text-sm">
          <dl className="grid grid-cols-[minmax(0,7rem)_minmax(0,1fr)] gap-x-3 gap-y-3 sm:grid-cols-[10rem_minmax(0,1fr)]">
            <dt className="text-muted-foreground">{t("users.email")}</dt>
            <dd>{ctx.user.email}</dd>
            <dt className="text-muted-foreground">{t("users.role")}</dt>
            <dd>
              <RoleBadge role={ctx.user.role} />
            </dd>
            <dt className="text-muted-foreground">{t("users.accounts")}</dt>
            <dd>{ctx.accounts.length ? ctx.accounts.map((a) => a.name).join(", ") : t("users.noAccounts")}</dd>
            <dt className="self-center text-muted-foreground">{t("profile.language")}</dt>
            <dd>
              <LanguageSelect />
            </dd>
          </dl>
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline">
              <Link href="/profile/password">
                <KeyRound /> {t("profile.changePassword")}
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link href="/profile/security">
                <ShieldCheck /> {t("profile.security")}
              </Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
