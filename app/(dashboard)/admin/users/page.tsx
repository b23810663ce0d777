import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { listAccounts } from "@/lib/accounts/queries";
import { requirePage } from "@/lib/auth/session";
import { listUsers } from "@/lib/users/queries";
import { getI18n } from "@/lib/i18n/server";
import { rolesRequiringSecondFactor } from "@/lib/auth/second-factor";
import { CreateUserDialog } from "./create-user-dialog";
import { RequiredSecondFactor } from "./required-second-factor";
import { UsersTable } from "./users-table";

export default async function UsersPage() {
  const ctx = await requirePage("users.manage");
  const { t } = await getI18n();
  const [users, accounts, requiredRoles] = await Promise.all([listUsers(), listAccounts(), rolesRequiringSecondFactor()]);
  const accountOptions = accounts.map(({ id, name }) => ({ id, name }));
  return (
    <div className="space-y-6">
      <PageHeader title={t("users.title")} description={t("users.description")} actions={<CreateUserDialog accounts={accountOptions} />} />
      <Card className="py-0">
        <UsersTable users={users} accounts={accountOptions} currentUserId={ctx.user.id} />
      </Card>
      <RequiredSecondFactor roles={requiredRoles} />
    </div>
  );
}
