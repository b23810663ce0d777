import "server-only";
import { can, type AccessContext } from "@/lib/auth/session";
import type { Permission } from "@/lib/auth/permissions";
import type { NavItem } from "@/components/shell/app-shell";

type NavEntry = NavItem & { permission: Permission };

/** The sidebar lists the sections that exist, each shown only to roles that may open it. */
const NAV: NavEntry[] = [
  { href: "/", labelKey: "nav.home", icon: "home", permission: "account.view" },
  { href: "/accounts", labelKey: "nav.accounts", icon: "building", permission: "account.view" },
  { href: "/admin/users", labelKey: "nav.users", icon: "users", section: "admin", permission: "users.manage" },
];

export function navFor(ctx: AccessContext): NavItem[] {
  return NAV.filter((item) => can(ctx, item.permission) || (item.permission === "account.view" && ctx.accounts.length === 0)).map(
    ({ permission: _permission, ...item }) => item,
  );
}
