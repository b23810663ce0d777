"use client";

import { useState, useTransition } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTheme } from "next-themes";
import { signOutTo } from "@/lib/auth/browser";
import { KeyRound, Languages, LogOut, Monitor, Moon, Palette, Sun, User } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { useI18n } from "@/lib/i18n/client";
import { LOCALES, isLocale } from "@/lib/locale";
import { Avatar, AvatarFallback, initialsOf } from "@/components/ui/avatar";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuSub,
  DropdownMenuSubContent,
  DropdownMenuSubTrigger,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { RoleBadge } from "./role-badge";
import type { PopupProps } from "@/components/ui/deferred";
import type { UserMenuProps } from "./types";

const THEMES = [
  { value: "light", labelKey: "shell.user.themeLight", Icon: Sun },
  { value: "dark", labelKey: "shell.user.themeDark", Icon: Moon },
  { value: "system", labelKey: "shell.user.themeSystem", Icon: Monitor },
] as const;

export function UserMenuPopup({
  trigger,
  open,
  onOpenChange,
  user,
  actions,
  variant = "sidebar",
  inlineChoices,
}: PopupProps & Omit<UserMenuProps, "className">) {
  const { locale, t } = useI18n();
  const router = useRouter();
  const { theme, setTheme } = useTheme();
  const [localePending, startLocaleTransition] = useTransition();
  const [signingOut, setSigningOut] = useState(false);
  const initials = initialsOf(user.name || user.email);

  function changeLocale(value: string) {
    if (!isLocale(value) || value === locale) return;
    startLocaleTransition(async () => {
      try {
        await actions.setLocale(value);
        router.refresh();
      } catch {
        toast.error(t("shell.user.localeFailed"));
      }
    });
  }

  async function handleSignOut() {
    setSigningOut(true);
    try {
      await actions.beforeSignOut?.({});
    } catch {
      // Bookkeeping must never keep someone signed in against their will.
    }
    try {
      if (actions.signOut) await actions.signOut();
      else await signOutTo("/sign-in");
    } catch {
      setSigningOut(false);
    }
  }

  const languageItems = (
    <DropdownMenuRadioGroup value={locale} onValueChange={changeLocale} aria-label={t("shell.user.language")}>
      {LOCALES.map((option) => (
        <DropdownMenuRadioItem key={option} value={option} lang={option} disabled={localePending}>
          {t(`shell.locale.${option}`)}
        </DropdownMenuRadioItem>
      ))}
    </DropdownMenuRadioGroup>
  );

  const themeItems = (
    <DropdownMenuRadioGroup value={theme ?? "system"} onValueChange={setTheme} aria-label={t("shell.user.theme")}>
      {THEMES.map(({ value, labelKey, Icon }) => (
        <DropdownMenuRadioItem key={value} value={value}>
          <Icon className="text-muted-foreground" aria-hidden="true" />
          {t(labelKey)}
        </DropdownMenuRadioItem>
      ))}
    </DropdownMenuRadioGroup>
  );

  return (
    <DropdownMenu open={open} onOpenChange={onOpenChange}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align={variant === "sidebar" ? "start" : "end"} side={variant === "sidebar" ? "top" : "bottom"} className="w-64">
        <DropdownMenuLabel className="flex items-start gap-2.5 py-2 font-normal">
          <Avatar className="size-9">
            <AvatarFallback>{initials}</AvatarFallback>
          </Avatar>
          <span className="flex min-w-0 flex-1 flex-col gap-1">
            <span className="truncate text-sm leading-4 font-medium">{user.name}</span>
            <span className="truncate text-xs leading-4 text-muted-foreground">{user.email}</span>
            <RoleBadge role={user.role} />
          </span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuGroup>
          <DropdownMenuItem asChild>
            <Link href="/profile">
              <User aria-hidden="true" />
              {t("shell.user.profile")}
            </Link>
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <Link href="/profile/password">
              <KeyRound aria-hidden="true" />
              {t("shell.user.changePassword")}
            </Link>
          </DropdownMenuItem>
        </DropdownMenuGroup>
        <DropdownMenuSeparator />
        {!(inlineChoices ?? variant === "compact") ? (
          <DropdownMenuGroup>
            <DropdownMenuSub>
              <DropdownMenuSubTrigger disabled={localePending}>
                <Languages aria-hidden="true" />
                {t("shell.user.language")}
              </DropdownMenuSubTrigger>
              <DropdownMenuSubContent className="min-w-48">{languageItems}</DropdownMenuSubContent>
            </DropdownMenuSub>
            <DropdownMenuSub>
              <DropdownMenuSubTrigger>
                <Palette aria-hidden="true" />
                {t("shell.user.theme")}
              </DropdownMenuSubTrigger>
              <DropdownMenuSubContent className="min-w-40">{themeItems}</DropdownMenuSubContent>
            </DropdownMenuSub>
          </DropdownMenuGroup>
        ) : (
          // Submenus do not fit beside the menu on a phone, so the choices are listed inline.
          <>
            <DropdownMenuLabel className="text-xs font-medium text-muted-foreground">{t("shell.user.language")}</DropdownMenuLabel>
            {languageItems}
            <DropdownMenuSeparator />
            <DropdownMenuLabel className="text-xs font-medium text-muted-foreground">{t("shell.user.theme")}</DropdownMenuLabel>
            {themeItems}
          </>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem
          disabled={signingOut}
          onSelect={(event) => {
            event.preventDefault();
            void handleSignOut();
          }}
          data-testid="sign-out"
        >
          <LogOut aria-hidden="true" />
          {t("shell.user.signOut")}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
