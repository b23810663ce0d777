"use client";

import { useState, type ReactNode } from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { accountInPath } from "@/lib/accounts/paths";
import { FlaskConical, Menu } from "lucide-react";
import { useT } from "@/lib/i18n/client";
import { Button } from "@/components/ui/button";
import { Deferred } from "@/components/ui/deferred";
import { AccountSwitcher } from "./account-switcher";
import { Logo } from "./logo";
import { SidebarNav } from "./sidebar-nav";
import { UserMenu } from "./user-menu";
import type { NavItem, ShellAccount, ShellActions, ShellUser } from "./types";

export type { NavIconName, NavItem, ShellAccount, ShellActions, ShellUser } from "./types";

// The phone menu (a radix dialog) loads when it is first wanted.
const loadMobileNav = () => import("./mobile-nav").then((m) => m.MobileNav);

export type AppShellProps = {
  nav: NavItem[];
  user: ShellUser;
  accounts: ShellAccount[];
  currentAccountId: string | null;
  actions: ShellActions;
  children: ReactNode;
};

function SidebarContents({
  nav,
  user,
  accounts,
  currentAccountId,
  actions,
  shownAccountId,
  onNavigate,
  inSheet = false,
}: Omit<AppShellProps, "children"> & { shownAccountId: string | null; onNavigate?: () => void; inSheet?: boolean }) {
  const t = useT();
  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex h-14 shrink-0 items-center px-4">
        <Link
          href="/"
          onClick={onNavigate}
          aria-label={t("shell.brandHome")}
          className="rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-sidebar-ring/50"
        >
          <Logo wordmark={t("shell.brand")} className="text-sidebar-accent-foreground" />
        </Link>
      </div>
      <div className="shrink-0 px-3 pb-3">
        <AccountSwitcher accounts={accounts} currentAccountId={currentAccountId} switchAccount={actions.switchAccount} />
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-3 py-2 [scrollbar-width:thin]">
        <SidebarNav items={nav} accountId={shownAccountId} onNavigate={onNavigate} />
      </div>
      <div className="shrink-0 border-t border-sidebar-border p-2">
        <UserMenu user={user} actions={actions} variant="sidebar" inlineChoices={inSheet} />
      </div>
    </div>
  );
}

export function AppShell({ children, ...shell }: AppShellProps) {
  const t = useT();
  const pathname = usePathname();
  // Remembering where the sheet was opened closes it by itself once a link navigates elsewhere.
  const [sheetOpenedAt, setSheetOpenedAt] = useState<string | null>(null);
  const sheetOpen = sheetOpenedAt !== null && sheetOpenedAt === pathname;
  const shownAccountId =
    accountInPath(
      pathname,
      shell.accounts.map((account) => account.id),
    ) ?? shell.currentAccountId;
  const currentAccount = shell.accounts.find((account) => account.id === shownAccountId) ?? null;

  return (
    <div className="min-h-dvh bg-background">
      <a
        href="#main-content"
        className="sr-only rounded-md bg-background text-sm font-medium shadow-md outline-none focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:px-3 focus:py-2 focus:ring-[3px] focus:ring-ring/50"
      >
        {t("shell.skipToContent")}
      </a>

      <aside
        data-testid="sidebar"
        className="fixed inset-y-0 left-0 z-30 hidden w-64 border-r border-sidebar-border bg-sidebar text-sidebar-foreground lg:block print:hidden"
      >
        <SidebarContents {...shell} shownAccountId={shownAccountId} />
      </aside>

      <div className="flex min-h-dvh flex-col lg:pl-64 print:pl-0">
        <header className="sticky top-0 z-20 flex h-14 shrink-0 items-center gap-2 border-b bg-background/90 px-3 backdrop-blur supports-[backdrop-filter]:bg-background/75 sm:px-4 lg:hidden print:hidden">
          <Deferred
            kind="dialog"
            load={loadMobileNav}
            open={sheetOpen}
            onOpenChange={(open) => setSheetOpenedAt(open ? pathname : null)}
            trigger={
              <Button variant="ghost" size="icon" aria-label={t("shell.openMenu")} data-testid="mobile-menu">
                <Menu aria-hidden="true" className="size-5" />
              </Button>
            }
            props={{
              title: t("shell.menuTitle"),
              description: t("shell.menuDescription"),
              children: <SidebarContents {...shell} shownAccountId={shownAccountId} inSheet onNavigate={() => setSheetOpenedAt(null)} />,
            }}
          />
          <Link
            href="/"
            aria-label={t("shell.brandHome")}
            className="rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          >
            <Logo wordmark={t("shell.brand")} />
          </Link>
          <div className="ml-auto">
            <UserMenu user={shell.user} actions={shell.actions} variant="compact" />
          </div>
        </header>

        {currentAccount?.mode === "test" ? (
          <div
            role="note"
            data-testid="test-mode-banner"
            className="flex items-center justify-center gap-2 border-b border-warning/25 bg-warning/10 px-4 py-1.5 text-center text-xs font-medium text-warning"
          >
            <FlaskConical aria-hidden="true" className="size-3.5 shrink-0" />
            {t("shell.testModeBanner")}
          </div>
        ) : null}

        <main
          id="main-content"
          tabIndex={-1}
          className="mx-auto w-full max-w-7xl min-w-0 flex-1 px-4 py-6 outline-none sm:px-6 lg:px-8 lg:py-8"
        >
          {children}
        </main>
      </div>
    </div>
  );
}
