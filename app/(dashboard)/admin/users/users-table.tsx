"use client";

import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { MoreHorizontal } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useT } from "@/lib/i18n/client";
import { ROLES, type Role } from "@/lib/db/schema-enums";
import type { ActionResult } from "@/lib/actions/safe-action";
import type { UserDto } from "@/lib/users/dal";
import { setUserAccountsAction, setUserActiveAction, setUserRoleAction } from "./actions";
import { AccountChecklist } from "./account-checklist";

type AccountOption = { id: string; name: string };

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
              <TableRow key={user.id} data-testid={`user-row-${user.email}`} className={user.active ? undefined : "bg-muted/50"} data-active={user.active}>
                <TableCell>
                  <div className="font-medium">
                    {user.name} {self && <span className="text-xs text-muted-foreground">({t("users.you")})</span>}
                  </div>
                  <div className="text-xs text-muted-foreground">{user.email}</div>
                </TableCell>
                <TableCell>
                  <Select
                    value={user.role}
                    disabled={pending || self}
                    onValueChange={(role) => run(() => setUserRoleAction({ userId: user.id, role: role as Role }), "users.roleChanged")}
                  >
                    <SelectTrigger size="sm" aria-label={`${t("users.role")}: ${user.email}`} className="w-44">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {ROLES.map((role) => (
                        <SelectItem key={role} value={role}>
                          {t(`users.roles.${role}`)}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
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
                  <DropdownMenu>
                    <DropdownMenuTrigger asChild>
                      <Button variant="ghost" size="icon" aria-label={`${t("common.actions")}: ${user.email}`} disabled={pending}>
                        <MoreHorizontal />
                      </Button>
                    </DropdownMenuTrigger>
                    <DropdownMenuContent align="end">
                      <DropdownMenuItem onSelect={() => setEditing(user)}>{t("users.editAccounts")}</DropdownMenuItem>
                      {!self &&
                        (user.active ? (
                          <DropdownMenuItem
                            variant="destructive"
                            onSelect={() => {
                              if (window.confirm(t("users.deactivateConfirm", { email: user.email }))) {
                                run(() => setUserActiveAction({ userId: user.id, active: false }), "users.deactivated");
                              }
                            }}
                          >
                            {t("users.deactivate")}
                          </DropdownMenuItem>
                        ) : (
                          <DropdownMenuItem onSelect={() => run(() => setUserActiveAction({ userId: user.id, active: true }), "users.reactivated")}>
                            {t("users.reactivate")}
                          </DropdownMenuItem>
                        ))}
                    </DropdownMenuContent>
                  </DropdownMenu>
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

function EditAccountsDialog({
  user,
  accounts,
  onClose,
  onSave,
}: {
  user: UserDto;
  accounts: AccountOption[];
  onClose: () => void;
  onSave: (ids: string[]) => void;
}) {
  const t = useT();
  const [selected, setSelected] = useState(user.accounts.map((a) => a.id));
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>
            {t("users.editAccounts")} — {user.email}
          </DialogTitle>
        </DialogHeader>
        <AccountChecklist accounts={accounts} value={selected} onChange={setSelected} />
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button onClick={() => onSave(selected)}>{t("common.save")}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
