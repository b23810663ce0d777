"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { useT } from "@/lib/i18n/client";
import type { UserDto } from "@/lib/users/queries";
import { AccountChecklist } from "./account-checklist";

export function EditAccountsDialog({
  user,
  accounts,
  onClose,
  onSave,
}: {
  user: UserDto;
  accounts: { id: string; name: string }[];
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
