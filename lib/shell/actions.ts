"use server";

import { cookies } from "next/headers";
import { getAccessContext } from "@/lib/auth/session";
import { setUserLocale } from "@/lib/users/queries";
import { isLocale, LOCALE_COOKIE } from "@/lib/locale";

const YEAR_S = 60 * 60 * 24 * 365;

/**
 * The one server action outside the action chain: the sign-in page offers the language before
 * there is a session. It only sets the language cookie, and the signed-in user's own preference.
 */
export async function setLocaleAction(locale: string): Promise<void> {
  if (!isLocale(locale)) return;
  (await cookies()).set(LOCALE_COOKIE, locale, { sameSite: "lax", path: "/", maxAge: YEAR_S });
  const ctx = await getAccessContext();
  if (ctx) await setUserLocale(ctx.user.id, locale);
}
