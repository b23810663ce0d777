"use client";

import { ChevronsUpDown } from "lucide-react";
import { cn } from "@/lib/utils";
import { useI18n } from "@/lib/i18n/client";
import { Avatar, AvatarFallback, initialsOf } from "@/components/ui/avatar";
import { Deferred } from "@/components/ui/deferred";
import type { UserMenuProps } from "./types";

export type { UserMenuProps } from "./types";

// The menu's code (radix menu, popper, theme and language choices) loads when it is first wanted.
const loadUserMenu = () => import("./user-menu-popup").then((m) => m.UserMenuPopup);

export function UserMenu({ user, actions, variant = "sidebar", inlineChoices, className }: UserMenuProps) {
  const { t } = useI18n();
  const initials = initialsOf(user.name || user.email);
  const trigger = (
    <button
      type="button"
      aria-label={`${t("shell.user.menu")}: ${user.name}`}
      data-testid={variant === "sidebar" ? "user-menu" : "user-menu-compact"}
      className={cn(
        "flex items-center gap-2.5 rounded-lg text-left text-sm outline-none transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50",
        variant === "sidebar"
          ? "w-full px-2 py-1.5 hover:bg-sidebar-accent data-[state=open]:bg-sidebar-accent"
          : "rounded-full p-0.5 hover:bg-accent data-[state=open]:bg-accent",
        className,
      )}
    >
      <Avatar className="size-8">
        <AvatarFallback>{initials}</AvatarFallback>
      </Avatar>
      {variant === "sidebar" ? (
        <>
          <span className="flex min-w-0 flex-1 flex-col">
            <span className="truncate leading-5 font-medium text-sidebar-accent-foreground">{user.name}</span>
            <span className="truncate text-xs leading-4 text-muted-foreground">{user.email}</span>
          </span>
          <ChevronsUpDown className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        </>
      ) : null}
    </button>
  );
  return <Deferred kind="menu" load={loadUserMenu} trigger={trigger} props={{ user, actions, variant, inlineChoices }} />;
}
