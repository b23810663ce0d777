"use client";

import { createContext, useContext, useMemo, type ReactNode } from "react";
import type { Locale } from "@/lib/locale";
import type { Translate } from "./translate";
import { createCompiledTranslator, lookupCompiled, reportUnsentArea, type CompiledDictionary } from "./compiled";
import { createFormatters, type Formatters } from "./format";

type I18nValue = { locale: Locale; t: Translate; has: (key: string) => boolean; format: Formatters; messages: CompiledDictionary };
const I18nContext = createContext<I18nValue | null>(null);

/**
 * `messages` are the current language's only, as areas: the root layout passes the shared ones and
 * a route's layout adds its own (lib/i18n/route-messages.tsx); no dictionary ships in a script chunk.
 */
export function I18nProvider({ locale, messages, children }: { locale: Locale; messages: CompiledDictionary; children: ReactNode }) {
  const parent = useContext(I18nContext);
  const value = useMemo(() => {
    const all = parent ? { ...parent.messages, ...messages } : messages;
    return {
      locale,
      messages: all,
      t: createCompiledTranslator(locale, all),
      has: (key: string) => {
        if (lookupCompiled(all, key) !== undefined) return true;
        reportUnsentArea(all, key);
        return false;
      },
      format: createFormatters(locale),
    };
  }, [locale, messages, parent]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error("useI18n outside I18nProvider");
  return value;
}

export function useT(): Translate {
  return useI18n().t;
}
