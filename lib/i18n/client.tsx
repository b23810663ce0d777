"use client";

import { createContext, useContext, useMemo, type ReactNode } from "react";
import type { Locale } from "./config";
import type { Translate } from "./translate";
import { createCompiledTranslator, lookupCompiled, type CompiledDictionary } from "./compiled";
import { createFormatters, type Formatters } from "./format";

type I18nValue = { locale: Locale; t: Translate; has: (key: string) => boolean; format: Formatters };
const I18nContext = createContext<I18nValue | null>(null);

/** `messages` are the current language's only, passed by the root layout: no dictionary ships in a script chunk. */
export function I18nProvider({ locale, messages, children }: { locale: Locale; messages: CompiledDictionary; children: ReactNode }) {
  const value = useMemo(
    () => ({
      locale,
      t: createCompiledTranslator(locale, messages),
      has: (key: string) => lookupCompiled(messages, key) !== undefined,
      format: createFormatters(locale),
    }),
    [locale, messages],
  );
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
