"use client";

import { useId } from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import {
  Activity,
  ArrowDownLeft,
  ArrowUpRight,
  Building2,
  ChartColumn,
  Layers,
  House,
  Link2,
  Receipt,
  ScrollText,
  Search,
  Send,
  Settings,
  Undo2,
  User,
  Users,
  Wallet,
  Repeat,
  Webhook,
  type LucideIcon,
} from "lucide-react";
import { cn } from "@/lib/utils";
import { accountPath } from "@/lib/accounts/paths";
import { useT } from "@/lib/i18n/client";
import type { NavIconName, NavItem } from "./types";

const NAV_ICONS: Record<NavIconName, LucideIcon> = {
  home: House,
  receipt: Receipt,
  "arrow-down-left": ArrowDownLeft,
  "arrow-up-right": ArrowUpRight,
  link: Link2,
  undo: Undo2,
  search: Search,
  activity: Activity,
  user: User,
  settings: Settings,
  users: Users,
  scroll: ScrollText,
  chart: ChartColumn,
  layers: Layers,
  wallet: Wallet,
  repeat: Repeat,
  webhook: Webhook,
  send: Send,
  building: Building2,
};

type LinkedItem = NavItem & { exact?: boolean };

function matches(pathname: string, href: string, exact = false): boolean {
  if (href === "/" || exact) return pathname === href;
  return pathname === href || pathname.startsWith(`${href}/`);
}

/** The most specific match wins, so with both "/profile" and "/profile/password" listed only one is lit. */
export function activeHref(pathname: string, items: readonly Pick<LinkedItem, "href" | "exact">[]): string | null {
  let best: string | null = null;
  for (const { href, exact } of items) {
    if (matches(pathname, href, exact) && (best === null || href.length > best.length)) best = href;
  }
  return best;
}

/** An account's pages link under the account shown (the one in the URL, else the one last worked on); other accounts' entries are hidden. */
function linked(items: NavItem[], accountId: string | null): LinkedItem[] {
  return items.flatMap((item) => {
    if (!item.accountIds) return [item];
    if (!accountId || !item.accountIds.includes(accountId)) return [];
    return [{ ...item, href: accountPath(accountId, item.href), exact: item.href === "" }];
  });
}

function NavLink({ item, active, onNavigate }: { item: NavItem; active: boolean; onNavigate?: () => void }) {
  const Icon = NAV_ICONS[item.icon] ?? House;
  return (
    <li>
      <Link
        href={item.href}
        aria-current={active ? "page" : undefined}
        onClick={onNavigate}
        data-active={active || undefined}
        className={cn(
          "group flex h-8 items-center gap-2.5 rounded-md px-2 text-sm font-medium text-sidebar-foreground transition-colors outline-none hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-[3px] focus-visible:ring-sidebar-ring/50",
          active && "bg-sidebar-accent text-sidebar-accent-foreground",
        )}
      >
        <Icon
          aria-hidden="true"
          className={cn(
            "size-4 shrink-0 text-muted-foreground transition-colors group-hover:text-sidebar-accent-foreground",
            active && "text-sidebar-primary group-hover:text-sidebar-primary",
          )}
        />
        <span className="truncate">{item.label}</span>
      </Link>
    </li>
  );
}

export function SidebarNav({ items: all, accountId, onNavigate }: { items: NavItem[]; accountId: string | null; onNavigate?: () => void }) {
  const t = useT();
  const pathname = usePathname() ?? "/";
  const adminHeadingId = useId();
  const items = linked(all, accountId);
  const current = activeHref(pathname, items);
  const mainItems = items.filter((item) => item.section !== "admin");
  const adminItems = items.filter((item) => item.section === "admin");

  return (
    <nav aria-label={t("shell.navigation")} className="flex flex-col gap-5">
      {mainItems.length > 0 ? (
        <ul className="flex flex-col gap-0.5">
          {mainItems.map((item) => (
            <NavLink key={item.href} item={item} active={item.href === current} onNavigate={onNavigate} />
          ))}
        </ul>
      ) : null}
      {adminItems.length > 0 ? (
        <div className="flex flex-col gap-1">
          <h2 id={adminHeadingId} className="px-2 text-[11px] font-semibold tracking-wider text-muted-foreground uppercase">
            {t("shell.adminSection")}
          </h2>
          <ul aria-labelledby={adminHeadingId} className="flex flex-col gap-0.5">
            {adminItems.map((item) => (
              <NavLink key={item.href} item={item} active={item.href === current} onNavigate={onNavigate} />
            ))}
          </ul>
        </div>
      ) : null}
    </nav>
  );
}
