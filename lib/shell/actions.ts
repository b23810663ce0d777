"use server";

import { cookies } from "next/headers";
import { getAccessContext, ACCOUNT_COOKIE } from "@/lib/auth/session";
import { setUserLocale } from "@/lib/users/dal";
import { writeAudit } from "@/lib/audit/log";
import { isLocale, LOCALE_COOKIE } from "@/lib/i18n/config";

const YEAR_S = 60 * 60 * 24 * 365;

/** Only remembers the choice; every request checks again that the user may use that account. */
export async function switchAccountAction(accountId: string): Promise<void> {
  const ctx = await getAccessContext();
  if (!ctx || !ctx.accounts.some((a) => a.id === accountId)) return;
  (await cookies()).set(ACCOUNT_COOKIE, accountId, { httpOnly: true, sameSite: "lax", path: "/", maxAge: YEAR_S, secure: process.env.NODE_ENV === "production" });
}

export async function setLocaleAction(locale: string): Promise<void> {
  if (!isLocale(locale)) return;
  (await cookies()).set(LOCALE_COOKIE, locale, { sameSite: "lax", path: "/", maxAge: YEAR_S });
  const ctx = await getAccessContext();
  if (ctx) await setUserLocale(ctx.user.id, locale);
}

export async function signOutAudit(): Promise<void> {
  const ctx = await getAccessContext();
  if (ctx) await writeAudit({ actor: { id: ctx.user.id, email: ctx.user.email }, action: "auth.sign_out", ip: ctx.ip });
}
