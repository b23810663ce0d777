"use client";

import { useState, useTransition } from "react";
import dynamic from "next/dynamic";
import { useRouter } from "next/navigation";
import { MoreHorizontal } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Deferred } from "@/components/ui/deferred";
import { Select } from "@/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useT } from "@/lib/i18n/client";
import { ROLES, type Role } from "@/lib/db/schema-enums";
import type { ActionResult } from "@/lib/actions/safe-action";
import type { UserDto } from "@/lib/users/queries";
import { setUserAccountsAction, setUserActiveAction, setUserRoleAction } from "./actions";

type AccountOption = { id: string; name: string };

// A row's menu and the accounts dialog load when first wanted (radix menu and dialog).
const loadUserActions = () => import("./user-actions-menu").then((m) => m.UserActionsMenu);
const EditAccountsDialog = dynamic(() => import("./edit-accounts-dialog").then((m) => m.EditAccountsDialog), { ssr: false });

export function UsersTable({ users, accounts, currentUserId }: { users: UserDto[]; accounts: AccountOption[]; currentUserId: string }) {
  const t = useT();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [editing, setEditing] = useState<UserDto | null>(null);

  function run<R>(call: () => Promise<ActionResult<R>>, success: string) {
    startTransition(async () => {
      const result = await call();
      if (result.ok) toast.success(t(success));
      else toast.error(t(result.error));
      router.refresh();
    });
  }

  return (
    <>
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>{t("users.name")}</TableHead>
            <TableHead className="w-52">{t("users.role")}</TableHead>
            <TableHead>{t("users.accounts")}</TableHead>
            <TableHead>{t("users.status")}</TableHead>
            <TableHead className="w-12">
              <span className="sr-only">{t("common.actions")}</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {users.map((user) => {
            const self = user.id === currentUserId;
            return (
              <TableRow
                key={user.id}
                data-testid={`user-row-${user.email}`}
                className={user.active ? undefined : "bg-muted/50"}
                data-active={user.active}
              >
                <TableCell>
                  <div className="font-medium">
                    {user.name} {self && <span className="text-xs text-muted-foreground">({t("users.you")})</span>}
                  </div>
                  <div className="text-xs text-muted-foreground">{user.email}</div>
                </TableCell>
                <TableCell>
                  <Select
                    size="sm"
                    aria-label={`${t("users.role")}: ${user.email}`}
                    className="w-44"
                    value={user.role}
                    disabled={pending || self}
                    onValueChange={(role) => run(() => setUserRoleAction({ userId: user.id, role: role as Role }), "users.roleChanged")}
                    options={ROLES.map((role) => ({ value: role, label: t(`users.roles.${role}`) }))}
                  />
                </TableCell>
                <TableCell className="max-w-xs text-sm">
                  {user.role === "admin" ? (
                    <span className="text-muted-foreground">{t("users.allAccounts")}</span>
                  ) : user.accounts.length === 0 ? (
                    <span className="text-muted-foreground">{t("users.noAccounts")}</span>
                  ) : (
                    <span className="line-clamp-2">{user.accounts.map((a) => a.name).join(", ")}</span>
                  )}
                </TableCell>
                <TableCell>
                  <Badge variant={user.active ? "success" : "secondary"}>{t(user.active ? "users.active" : "users.inactive")}</Badge>
                </TableCell>
                <TableCell>
                  <Deferred
                    kind="menu"
                    load={loadUserActions}
                    trigger={
                      <Button variant="ghost" size="icon" aria-label={`${t("common.actions")}: ${user.email}`} disabled={pending}>
                        <MoreHorizontal />
                      </Button>
                    }
                    props={{
                      user,
                      self,
                      onEdit: () => setEditing(user),
                      onSetActive: (active: boolean) =>
                        run(() => setUserActiveAction({ userId: user.id, active }), active ? "users.reactivated" : "users.deactivated"),
                    }}
                  />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {editing && (
        <EditAccountsDialog
          user={editing}
          accounts={accounts}
          onClose={() => setEditing(null)}
          onSave={(ids) => {
            run(() => setUserAccountsAction({ userId: editing.id, accountIds: ids }), "users.accountsChanged");
            setEditing(null);
          }}
        />
      )}
    </>
  );
}
