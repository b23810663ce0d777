import { notFound } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { RoleBadge } from "@/components/shell/role-badge";
import { getAccount } from "@/lib/accounts/queries";
import { can, requirePage } from "@/lib/auth/session";
import { routeId } from "@/lib/http/search-params";
import { accountMembers } from "@/lib/users/queries";
import { getI18n } from "@/lib/i18n/server";
import { AccountDetailsForm } from "./account-details-form";
import { ReplaceSecretDialog } from "./replace-secret-dialog";
import { TestConnection } from "./test-connection";

export default async function AccountPage({ params }: { params: Promise<{ id: string }> }) {
  const id = routeId((await params).id) ?? notFound();
  const ctx = await requirePage("account.view", id);
  const account = await getAccount(id);
  if (!account) notFound();
  const { t } = await getI18n();
  const canManage = can(ctx, "account.keys.manage", id);
  const members = can(ctx, "users.manage") ? await accountMembers(id) : null;

  return (
    <div className="space-y-6">
      <PageHeader
        title={account.name}
        description={account.baseUrl}
        actions={
          <Badge variant={account.mode === "live" ? "success" : "warning"}>
            {account.mode === "live" ? t("accounts.modeLive") : t("accounts.modeTest")}
          </Badge>
        }
      />
      {account.source === "env" && (
        <Alert>
          <AlertDescription title="GATEWAY_*">{t("accounts.envManaged")}</AlertDescription>
        </Alert>
      )}
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>{t("accounts.details")}</CardTitle>
          </CardHeader>
          <CardContent>
            <AccountDetailsForm
              accountId={account.id}
              readOnly={!canManage}
              defaultValues={{ name: account.name, baseUrl: account.baseUrl, publicKey: account.publicKey, mode: account.mode }}
            />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t("accounts.keys")}</CardTitle>
            <CardDescription>{t("accounts.secretKeyHint")}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-5">
            <SecretRow
              label={t("accounts.secretKey")}
              value={`•••• ${account.secretKeyLast4}`}
              hint={t("accounts.endingIn", { last4: account.secretKeyLast4 })}
              action={canManage ? <ReplaceSecretDialog accountId={account.id} kind="secretKey" /> : null}
            />
            <SecretRow
              label={t("accounts.webhookToken")}
              value={account.webhookTokenLast4 ? `•••• ${account.webhookTokenLast4}` : t("accounts.notConfigured")}
              hint={
                account.webhookTokenLast4 ? t("accounts.endingIn", { last4: account.webhookTokenLast4 }) : t("accounts.webhookTokenHint")
              }
              action={canManage ? <ReplaceSecretDialog accountId={account.id} kind="webhookToken" /> : null}
            />
            <TestConnection accountId={account.id} />
          </CardContent>
        </Card>
      </div>
      {members && (
        <Card>
          <CardHeader>
            <CardTitle>{t("accounts.members")}</CardTitle>
          </CardHeader>
          <CardContent>
            {members.length === 0 ? (
              <p className="text-sm text-muted-foreground">{t("accounts.noMembers")}</p>
            ) : (
              <ul className="divide-y">
                {members.map((member) => (
                  <li key={member.userId} className="flex items-center justify-between py-2 text-sm">
                    <span>
                      <span className="font-medium">{member.name}</span> <span className="text-muted-foreground">{member.email}</span>
                    </span>
                    <RoleBadge role={member.role} />
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      )}
    </div>
  );
}

function SecretRow({ label, value, hint, action }: { label: string; value: string; hint: string; action: React.ReactNode }) {
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="min-w-0">
        <div className="text-sm font-medium">{label}</div>
        <div className="font-mono text-sm" data-testid={`secret-${label}`}>
          {value}
        </div>
        <div className="text-xs text-muted-foreground">{hint}</div>
      </div>
      {action}
    </div>
  );
}
