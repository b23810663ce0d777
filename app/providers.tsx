"use client";

import type { ReactNode } from "react";
import { ThemeProvider } from "@/components/theme-provider";
import { ToastHost } from "@/components/ui/toast-host";
import { I18nProvider } from "@/lib/i18n/client";
import type { Locale } from "@/lib/locale";
import type { CompiledDictionary } from "@/lib/i18n/compiled";

export function Providers({
  locale,
  messages,
  nonce,
  children,
}: {
  locale: Locale;
  messages: CompiledDictionary;
  nonce?: string;
  children: ReactNode;
}) {
  return (
    <ThemeProvider nonce={nonce}>
      <I18nProvider locale={locale} messages={messages}>
        {children}
        <ToastHost />
      </I18nProvider>
    </ThemeProvider>
  );
}
