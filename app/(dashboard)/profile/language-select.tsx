"use client";

import { useTransition } from "react";
import { useRouter } from "next/navigation";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useI18n } from "@/lib/i18n/client";
import { setLocaleAction } from "@/lib/shell/actions";

export function LanguageSelect() {
  const { locale, t } = useI18n();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return (
    <Select
      value={locale}
      disabled={pending}
      onValueChange={(next) => startTransition(async () => { await setLocaleAction(next); router.refresh(); })}
    >
      <SelectTrigger className="w-56" aria-label={t("profile.language")}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value="pt-BR">Português (Brasil)</SelectItem>
        <SelectItem value="en">English</SelectItem>
      </SelectContent>
    </Select>
  );
}
