"use client";

import { useTransition } from "react";
import { usePathname, useRouter } from "next/navigation";
import { Building2, ChevronsUpDown, Loader2 } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { cn } from "@/lib/utils";
import { accountInPath, samePageIn } from "@/lib/accounts/paths";
import { useT } from "@/lib/i18n/client";
import { Deferred } from "@/components/ui/deferred";
import { EmptyState } from "@/components/ui/empty-state";
import { AccountMark } from "./account-mark";
import { ModeBadge } from "./mode-badge";
import type { ShellAccount } from "./types";

export type AccountSwitcherProps = {
  accounts: ShellAccount[];
  currentAccountId: string | null;
  switchAccount: (input: { accountId: string }) => Promise<unknown>;
  className?: string;
};

// The menu's code (radix menu, popper) loads when the switcher is first hovered, focused or pressed.
const loadAccountMenu = () => import("./account-menu").then((m) => m.AccountMenu);

export function AccountSwitcher({ accounts, currentAccountId, switchAccount, className }: AccountSwitcherProps) {
  const t = useT();
  const router = useRouter();
  const pathname = usePathname();
  const [pending, startTransition] = useTransition();
  // On a page of one account (its id is in the URL), that account is the one shown and used.
  const urlAccountId = accountInPath(
    pathname,
    accounts.map((account) => account.id),
  );
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
        if (urlAccountId) router.push(samePageIn(accountId, pathname));
        else router.refresh();
      } catch {
        toast.error(t("shell.account.switchFailed"));
      }
    });
  }

  const trigger = (
    <button
      type="button"
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
        <span className="truncate leading-5 font-medium text-sidebar-accent-foreground">{current?.name ?? t("shell.account.none")}</span>
      </span>
      {pending ? (
        <Loader2 className="size-4 shrink-0 animate-spin text-muted-foreground" aria-hidden="true" />
      ) : (
        <ChevronsUpDown className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      )}
    </button>
  );

  return (
    <Deferred
      kind="menu"
      load={loadAccountMenu}
      trigger={trigger}
      props={{ accounts, currentId: current?.id ?? "", onSelect: select, title: t("shell.account.switch") }}
    />
  );
}
