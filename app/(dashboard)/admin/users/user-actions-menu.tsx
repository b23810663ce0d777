"use client";

import type { PopupProps } from "@/components/ui/deferred";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { useT } from "@/lib/i18n/client";
import type { UserDto } from "@/lib/users/queries";

/** A user row's actions: edit accounts, deactivate (after a confirmation) or reactivate. */
export function UserActionsMenu({
  trigger,
  open,
  onOpenChange,
  user,
  self,
  onEdit,
  onSetActive,
}: PopupProps & { user: UserDto; self: boolean; onEdit: () => void; onSetActive: (active: boolean) => void }) {
  const t = useT();
  return (
    <DropdownMenu open={open} onOpenChange={onOpenChange}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={onEdit}>{t("users.editAccounts")}</DropdownMenuItem>
        {!self &&
          (user.active ? (
            <DropdownMenuItem
              variant="destructive"
              onSelect={() => {
                if (window.confirm(t("users.deactivateConfirm", { email: user.email }))) onSetActive(false);
              }}
            >
              {t("users.deactivate")}
            </DropdownMenuItem>
          ) : (
            <DropdownMenuItem onSelect={() => onSetActive(true)}>{t("users.reactivate")}</DropdownMenuItem>
          ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
