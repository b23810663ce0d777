import "server-only";
import { can, type AccessContext } from "@/lib/auth/session";
import type { Permission } from "@/lib/auth/permissions";
import type { NavItem } from "./nav-items";
import type { MessageKey } from "@/lib/i18n/messages/keys";
import type { Translate } from "@/lib/i18n/translate";

type NavEntry = Omit<NavItem, "label" | "accountIds"> & { labelKey: MessageKey; permission: Permission; account?: true };

/** The sidebar lists the sections that exist, each shown only to roles that may open it. */
const NAV: NavEntry[] = [
  { href: "", labelKey: "nav.home", icon: "home", permission: "account.view", account: true },
  { href: "/charges/new", labelKey: "charges.nav", icon: "receipt", permission: "charges.create", account: true },
  { href: "/sales", labelKey: "sales.nav", icon: "chart", permission: "sales.view", account: true },
  { href: "/balance", labelKey: "balance.nav", icon: "wallet", permission: "balance.view", account: true },
  { href: "/subscriptions", labelKey: "subscriptions.nav", icon: "repeat", permission: "transactions.view", account: true },
  { href: "/transactions", labelKey: "transactions.nav", icon: "arrow-down-left", permission: "transactions.view", account: true },
  { href: "/lookup", labelKey: "transactions.navLookup", icon: "search", permission: "transactions.view", account: true },
  { href: "/transfers", labelKey: "transfers.nav", icon: "arrow-up-right", permission: "transfers.view", account: true },
  { href: "/payouts", labelKey: "payouts.nav", icon: "layers", permission: "payouts.view", account: true },
  { href: "/refunds", labelKey: "refunds.nav", icon: "undo", permission: "transactions.view", account: true },
  { href: "/checkout-links", labelKey: "checkoutLinks.nav", icon: "link", permission: "checkout.create", account: true },
  { href: "/activity", labelKey: "activity.nav.activity", icon: "activity", permission: "webhooks.view" },
  { href: "/webhooks", labelKey: "activity.nav.webhooks", icon: "webhook", permission: "webhooks.view", account: true },
  { href: "/destinations", labelKey: "destinations.nav", icon: "send", permission: "destinations.view", account: true },
  { href: "/producer", labelKey: "producer.nav", icon: "user", permission: "account.view", account: true },
  { href: "/accounts", labelKey: "nav.accounts", icon: "building", permission: "account.view" },
  { href: "/admin/users", labelKey: "nav.users", icon: "users", section: "admin", permission: "users.manage" },
  { href: "/admin/audit", labelKey: "audit.nav", icon: "scroll", section: "admin", permission: "audit.view" },
];

/**
 * Labels are translated here: the sections name areas whose messages a page may not send to the browser.
 * An account's pages list the accounts whose role may open them; the menu links them under the account shown.
 */
export function navFor(ctx: AccessContext, t: Translate): NavItem[] {
  if (ctx.accounts.length === 0) {
    // Nothing to open under an account yet: the home page says so, the account list is where one is added.
    return [
      { href: "/", label: t("nav.home"), icon: "home" },
      ...NAV.filter((item) => !item.account && (can(ctx, item.permission) || item.permission === "account.view")).map(
        ({ href, labelKey, icon, section }) => ({ href, label: t(labelKey), icon, section }),
      ),
    ];
  }
  return NAV.flatMap(({ href, labelKey, icon, section, permission, account }) => {
    if (!account) return can(ctx, permission) ? [{ href, label: t(labelKey), icon, section }] : [];
    const accountIds = ctx.accounts.filter((a) => can(ctx, permission, a.id)).map((a) => a.id);
    return accountIds.length > 0 ? [{ href, label: t(labelKey), icon, section, accountIds }] : [];
  });
}
