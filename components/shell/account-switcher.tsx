"use client";

import { useTransition } from "react";
import { usePathname, useRouter } from "next/navigation";
import { Building2, ChevronsUpDown, Loader2 } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { cn } from "@/lib/utils";
import { accountInPath, accountPath } from "@/lib/accounts/paths";
import { useT } from "@/lib/i18n/client";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { EmptyState } from "@/components/ui/empty-state";
import { ModeBadge } from "./mode-badge";
import type { ShellAccount } from "./types";

export type AccountSwitcherProps = {
  accounts: ShellAccount[];
  currentAccountId: string | null;
  switchAccount: (input: { accountId: string }) => Promise<unknown>;
  className?: string;
};

function AccountMark({ name, className }: { name: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        "flex size-7 shrink-0 items-center justify-center rounded-md border bg-background text-xs font-semibold text-foreground uppercase shadow-xs",
        className,
      )}
    >
      {name.trim().charAt(0) || "?"}
    </span>
  );
}

export function AccountSwitcher({ accounts, currentAccountId, switchAccount, className }: AccountSwitcherProps) {
  const t = useT();
  const router = useRouter();
  const pathname = usePathname();
  const [pending, startTransition] = useTransition();
  // On a page of one account (its id is in the URL), that account is the one shown and used.
  const urlAccountId = accountInPath(pathname, accounts.map((account) => account.id));
  const shownAccountId = urlAccountId ?? currentAccountId;

  if (accounts.length === 0) {
    return (
      <EmptyState
        size="compact"
        className={cn("rounded-lg border border-dashed border-sidebar-border", className)}
        icon={<Building2 />}
        title={t("shell.account.emptyTitle")}
        description={t("shell.account.emptyDescription")}
      />
    );
  }

  const current = accounts.find((account) => account.id === shownAccountId) ?? null;

  function select(accountId: string) {
    if (accountId === shownAccountId) return;
    startTransition(async () => {
      try {
        await switchAccount({ accountId });
        if (urlAccountId) router.push(accountPath(accountId, pathname.slice(1).replace(/^[^/]*/, "")));
        else router.refresh();
      } catch {
        toast.error(t("shell.account.switchFailed"));
      }
    });
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className={cn(
          "flex w-full items-center gap-2.5 rounded-lg border border-sidebar-border bg-sidebar px-2 py-1.5 text-left text-sm shadow-xs transition-colors outline-none hover:bg-sidebar-accent focus-visible:ring-[3px] focus-visible:ring-sidebar-ring/50 data-[state=open]:bg-sidebar-accent disabled:opacity-70",
          className,
        )}
        aria-label={`${t("shell.account.switch")}: ${current?.name ?? t("shell.account.none")}`}
        aria-busy={pending || undefined}
        disabled={pending}
        data-testid="account-switcher"
      >
        <AccountMark name={current?.name ?? "?"} />
        <span className="flex min-w-0 flex-1 flex-col">
          <span className="flex items-center gap-1.5 text-[11px] leading-4 text-muted-foreground">
            {pending ? t("shell.account.switching") : t("shell.account.label")}
            {current && !pending ? <ModeBadge mode={current.mode} /> : null}
          </span>
          <span className="truncate leading-5 font-medium text-sidebar-accent-foreground">
            {current?.name ?? t("shell.account.none")}
          </span>
        </span>
        {pending ? (
          <Loader2 className="size-4 shrink-0 animate-spin text-muted-foreground" aria-hidden="true" />
        ) : (
          <ChevronsUpDown className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        )}
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-72 max-w-[calc(100vw-1.5rem)] min-w-(--radix-dropdown-menu-trigger-width)">
        <DropdownMenuLabel className="text-xs font-medium text-muted-foreground">
          {t("shell.account.switch")}
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuRadioGroup value={current?.id ?? ""} onValueChange={select}>
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
