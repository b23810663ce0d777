import "server-only";
import { can, type AccessContext } from "@/lib/auth/session";
import type { Permission } from "@/lib/auth/permissions";
import type { NavItem } from "./nav-items";
import type { MessageKey } from "@/lib/i18n/messages/keys";
import type { Translate } from "@/lib/i18n/translate";

type NavEntry = Omit<NavItem, "label"> & { labelKey: MessageKey; permission: Permission };

/** The sidebar lists the sections that exist, each shown only to roles that may open it. */
const NAV: NavEntry[] = [
  { href: "/", labelKey: "nav.home", icon: "home", permission: "account.view" },
  { href: "/charges/new", labelKey: "charges.nav", icon: "receipt", permission: "charges.create" },
  { href: "/transactions", labelKey: "transactions.nav", icon: "arrow-down-left", permission: "transactions.view" },
  { href: "/lookup", labelKey: "transactions.navLookup", icon: "search", permission: "transactions.view" },
  { href: "/transfers", labelKey: "transfers.nav", icon: "arrow-up-right", permission: "transfers.view" },
  { href: "/refunds", labelKey: "refunds.nav", icon: "undo", permission: "transactions.view" },
  { href: "/checkout-links", labelKey: "checkoutLinks.nav", icon: "link", permission: "checkout.create" },
  { href: "/activity", labelKey: "activity.nav.activity", icon: "activity", permission: "webhooks.view" },
  { href: "/webhooks", labelKey: "activity.nav.webhooks", icon: "webhook", permission: "webhooks.view" },
  { href: "/destinations", labelKey: "destinations.nav", icon: "send", permission: "destinations.view" },
  { href: "/producer", labelKey: "producer.nav", icon: "user", permission: "account.view" },
  { href: "/accounts", labelKey: "nav.accounts", icon: "building", permission: "account.view" },
  { href: "/admin/users", labelKey: "nav.users", icon: "users", section: "admin", permission: "users.manage" },
  { href: "/admin/audit", labelKey: "audit.nav", icon: "scroll", section: "admin", permission: "audit.view" },
];

/** Labels are translated here: the sections name areas whose messages a page may not send to the browser. */
export function navFor(ctx: AccessContext, t: Translate): NavItem[] {
  return NAV.filter((item) => can(ctx, item.permission) || (item.permission === "account.view" && ctx.accounts.length === 0)).map(
    ({ href, labelKey, icon, section }) => ({ href, label: t(labelKey), icon, section }),
  );
}
