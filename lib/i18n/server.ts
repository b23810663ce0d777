import "server-only";
import { cache } from "react";
import { cookies } from "next/headers";
import { getSessionUser } from "@/lib/auth/session";
import { DEFAULT_LOCALE, isLocale, LOCALE_COOKIE, type Locale } from "./config";
import { createTranslator } from "./translate";
import { createFormatters } from "./format";

/** The signed-in user's language wins; before sign-in the cookie set by the language switch decides. */
export const getLocale = cache(async (): Promise<Locale> => {
  const user = await getSessionUser();
  if (user) return user.locale;
  const fromCookie = (await cookies()).get(LOCALE_COOKIE)?.value;
  return isLocale(fromCookie) ? fromCookie : DEFAULT_LOCALE;
});

export async function getI18n() {
  const locale = await getLocale();
  return { locale, t: createTranslator(locale), format: createFormatters(locale) };
}
