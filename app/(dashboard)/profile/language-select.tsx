"use client";

import { useTransition } from "react";
import { useRouter } from "next/navigation";
import { Select } from "@/components/ui/select";
import { useI18n } from "@/lib/i18n/client";
import { setLocaleAction } from "@/lib/shell/actions";

export function LanguageSelect() {
  const { locale, t } = useI18n();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return (
    <Select
      className="w-full max-w-56"
      aria-label={t("profile.language")}
      value={locale}
      disabled={pending}
      onValueChange={(next) =>
        startTransition(async () => {
          await setLocaleAction(next);
          router.refresh();
        })
      }
      options={[
        { value: "pt-BR", label: "Português (Brasil)" },
        { value: "en", label: "English" },
      ]}
    />
  );
}
