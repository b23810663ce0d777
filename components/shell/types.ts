import type { Locale } from "@/lib/locale";
import type { Role } from "@/lib/db/schema-enums";
import type { AccountMode } from "./mode-badge";

export type { NavIconName, NavItem } from "@/lib/shell/nav-items";

export type ShellUser = { name: string; email: string; role: Role | (string & {}) };

export type ShellAccount = { id: string; name: string; mode: AccountMode };

export type ShellActions = {
  switchAccount: (input: { accountId: string }) => Promise<unknown>;
  setLocale: (locale: Locale) => Promise<void>;
  /** Server-side bookkeeping (e.g. audit) awaited before the session ends; failures do not block sign-out. */
  beforeSignOut?: (input: object) => Promise<unknown>;
  /** Replaces the default sign-out (next-auth `signOut` back to /sign-in). */
  signOut?: () => void | Promise<void>;
};

export type UserMenuProps = {
  user: ShellUser;
  actions: Pick<ShellActions, "setLocale" | "beforeSignOut" | "signOut">;
  /** `sidebar`: full-width row with name and e-mail; `compact`: avatar only (mobile top bar). */
  variant?: "sidebar" | "compact";
  /** List language and theme inline instead of in submenus (narrow screens); defaults to `variant === "compact"`. */
  inlineChoices?: boolean;
  className?: string;
};
