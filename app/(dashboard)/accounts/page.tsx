import Link from "next/link";
import { Building2 } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { listAccounts } from "@/lib/accounts/queries";
import { can, requirePage } from "@/lib/auth/session";
import { getI18n } from "@/lib/i18n/server";
import { CreateAccountDialog } from "./create-account-dialog";

export default async function AccountsPage() {
  const ctx = await requirePage();
  const { t, format } = await getI18n();
  const accounts = await listAccounts(ctx.accounts.map((a) => a.id));
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("accounts.title")}
        description={t("accounts.description")}
        actions={can(ctx, "accounts.create") ? <CreateAccountDialog /> : null}
      />
      {accounts.length === 0 ? (
        <EmptyState icon={<Building2 />} title={t("accounts.empty")} description={t("accounts.emptyHint")} />
      ) : (
        <Card className="py-0">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t("accounts.name")}</TableHead>
                <TableHead>{t("accounts.baseUrl")}</TableHead>
                <TableHead>{t("accounts.publicKey")}</TableHead>
                <TableHead>{t("accounts.secretKey")}</TableHead>
                <TableHead>{t("accounts.updatedAt")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {accounts.map((account) => (
                <TableRow key={account.id}>
                  <TableCell>
                    <Link href={`/accounts/${account.id}`} className="font-medium hover:underline">
                      {account.name}
                    </Link>{" "}
                    <Badge variant={account.mode === "live" ? "success" : "warning"} className="ml-2">
                      {account.mode === "live" ? t("accounts.modeLive") : t("accounts.modeTest")}
                    </Badge>
                  </TableCell>
                  <TableCell className="font-mono text-xs">{account.baseUrl}</TableCell>
                  <TableCell className="font-mono text-xs" data-raw={account.publicKey}>
                    {account.publicKey}
                  </TableCell>
                  <TableCell className="font-mono text-xs">•••• {account.secretKeyLast4}</TableCell>
                  <TableCell className="text-muted-foreground">{format.dateTime(account.updatedAt)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}
    </div>
  );
}
