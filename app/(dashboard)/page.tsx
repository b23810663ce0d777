import Link from "next/link";
import { Building2 } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { RoleBadge } from "@/components/shell/role-badge";
import { getAccount } from "@/lib/accounts/dal";
import { requirePage } from "@/lib/auth/session";
import { getI18n } from "@/lib/i18n/server";

export default async function HomePage() {
  const ctx = await requirePage();
  const { t } = await getI18n();
  const account = ctx.account ? await getAccount(ctx.account.id) : null;
  return (
    <div className="space-y-6">
      <PageHeader title={t("home.greeting", { name: ctx.user.name })} description={t("home.subtitle")} />
      {account && ctx.account ? (
        <Card className="max-w-2xl">
          <CardHeader>
            <CardDescription>{t("home.currentAccount")}</CardDescription>
            <CardTitle className="flex items-center gap-2 text-xl">
              {account.name}
              <Badge variant={account.mode === "live" ? "success" : "warning"}>
                {account.mode === "live" ? t("accounts.modeLive") : t("accounts.modeTest")}
              </Badge>
            </CardTitle>
          </CardHeader>
          <CardContent className="space-y-4 text-sm">
            <dl className="grid grid-cols-[12rem_1fr] gap-y-2">
              <dt className="text-muted-foreground">{t("accounts.baseUrl")}</dt>
              <dd className="font-mono text-xs">{account.baseUrl}</dd>
              <dt className="text-muted-foreground">{t("accounts.publicKey")}</dt>
              <dd className="font-mono text-xs">{account.publicKey}</dd>
              <dt className="text-muted-foreground">{t("home.role")}</dt>
              <dd>
                <RoleBadge role={ctx.account.role} />
              </dd>
            </dl>
            <Button asChild variant="outline" size="sm">
              <Link href={`/accounts/${account.id}`}>{t("home.manageAccount")}</Link>
            </Button>
          </CardContent>
        </Card>
      ) : (
        <EmptyState icon={<Building2 />} title={t("home.noAccount")} description={t("home.noAccountHint")} />
      )}
    </div>
  );
}
