"use client";

import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { useT } from "@/lib/i18n/client";

export function AccountChecklist({
  accounts,
  value,
  onChange,
}: {
  accounts: { id: string; name: string }[];
  value: string[];
  onChange: (ids: string[]) => void;
}) {
  const t = useT();
  if (accounts.length === 0) return <p className="text-sm text-muted-foreground">{t("accounts.empty")}</p>;
  return (
    <div className="grid gap-2 rounded-md border p-3">
      {accounts.map((account) => {
        const id = `account-${account.id}`;
        return (
          <div key={account.id} className="flex items-center gap-2">
            <Checkbox
              id={id}
              checked={value.includes(account.id)}
              onCheckedChange={(checked) =>
                onChange(checked ? [...value, account.id] : value.filter((existing) => existing !== account.id))
              }
            />
            <Label htmlFor={id} className="font-normal">
              {account.name}
            </Label>
          </div>
        );
      })}
    </div>
  );
}
