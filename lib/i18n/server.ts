import "server-only";
import { cache } from "react";
import { cookies } from "next/headers";
import { getSessionUser } from "@/lib/auth/session";
import { DEFAULT_LOCALE, isLocale, LOCALE_COOKIE, type Locale } from "@/lib/locale";
import { createTranslator, lookup } from "./translate";
import type { CompiledDictionary } from "./compiled";
import { compileDictionary } from "./compile";
import type { AreaName } from "./areas";
import { createFormatters } from "./format";
import { dictionaries } from "./messages";
import { statusLabel } from "@/lib/status/labels";
import type { MachineKind } from "@/lib/status/machine";
import { codeText, type VocabGroup } from "./vocab";

/** The signed-in user's language wins; before sign-in the cookie set by the language switch decides. */
export const getLocale = cache(async (): Promise<Locale> => {
  const user = await getSessionUser();
  if (user) return user.locale;
  const fromCookie = (await cookies()).get(LOCALE_COOKIE)?.value;
  return isLocale(fromCookie) ? fromCookie : DEFAULT_LOCALE;
});

export async function getI18n() {
  const locale = await getLocale();
  return { locale, t: createTranslator(locale, dictionaries[locale], dictionaries[DEFAULT_LOCALE]), format: createFormatters(locale) };
}

const compiled = new Map<Locale, CompiledDictionary>();

/**
 * The messages the browser gets: only the user's language and only the areas asked for (the
 * root layout sends the shared ones, each route's layout its own), ICU already parsed.
 */
export function messagesFor(locale: Locale, areas: readonly AreaName[]): CompiledDictionary {
  const all = compiled.get(locale) ?? compiled.set(locale, compileDictionary(dictionaries[locale])).get(locale)!;
  return Object.fromEntries(areas.map((area) => [area, all[area]]));
}

/** A status in words, for server components (the badge does the same in the browser). */
export async function getStatusLabel() {
  const { t, locale } = await getI18n();
  return (kind: MachineKind, status: string) => statusLabel(t, (key) => hasMessage(locale, key), kind, status).label;
}

export function hasMessage(locale: Locale, key: string): boolean {
  return lookup(dictionaries[locale], key) !== undefined;
}

/** Codes in words, for server components (components/ui/code-word.tsx does the same in the browser). */
export async function getCodeText() {
  const { t, locale } = await getI18n();
  return (group: VocabGroup, code: string | null | undefined) => codeText(t, (key) => hasMessage(locale, key), group, code);
}
