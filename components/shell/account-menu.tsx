"use client";

import type { PopupProps } from "@/components/ui/deferred";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { AccountMark } from "./account-mark";
import { ModeBadge } from "./mode-badge";
import type { ShellAccount } from "./types";

/** The account switcher's menu, loaded when the switcher is first wanted. */
export function AccountMenu({
  trigger,
  open,
  onOpenChange,
  accounts,
  currentId,
  onSelect,
  title,
}: PopupProps & { accounts: ShellAccount[]; currentId: string; onSelect: (accountId: string) => void; title: string }) {
  return (
    <DropdownMenu open={open} onOpenChange={onOpenChange}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-72 max-w-[calc(100vw-1.5rem)] min-w-(--radix-dropdown-menu-trigger-width)">
        <DropdownMenuLabel className="text-xs font-medium text-muted-foreground">{title}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuRadioGroup value={currentId} onValueChange={onSelect}>
          {accounts.map((account) => (
            <DropdownMenuRadioItem key={account.id} value={account.id} className="gap-2" data-account-id={account.id}>
              <AccountMark name={account.name} className="size-6 text-[11px]" />
              <span className="min-w-0 flex-1 truncate">{account.name}</span>
              <ModeBadge mode={account.mode} />
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
