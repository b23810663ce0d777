import "server-only";
import { cache } from "react";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import { asc, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { gatewayAccounts, memberships, type Role } from "@/lib/db/schema";
import { findSessionUser } from "./sessions";
import { clientIp } from "@/lib/http/client-ip";
import { DEFAULT_LOCALE, isLocale, type Locale } from "@/lib/locale";
import { authOptions } from "./options";
import { isGlobalPermission, roleCan, type Permission } from "./permissions";

export const ACCOUNT_COOKIE = "account";

export type SessionUser = {
  id: string;
  email: string;
  name: string;
  role: Role;
  locale: Locale;
  sessionId: string;
  sessionVersion: number;
};
export type AccessibleAccount = { id: string; name: string; mode: "test" | "live"; role: Role; source: "env" | "ui" };
export type AccessContext = {
  user: SessionUser;
  accounts: AccessibleAccount[];
  /** The account the user is working on: chosen by cookie, but only among the accounts allowed. */
  account: AccessibleAccount | null;
  ip: string | null;
};

/**
 * Loads the signed-in user from the database on every request: the session row must still be
 * open (sign-out revokes it) and the user unchanged (deactivation, password or role change).
 */
export const getSessionUser = cache(async (): Promise<SessionUser | null> => {
  const session = (await getServerSession(authOptions())) as { user?: { id?: string }; sv?: number; sid?: string } | null;
  const id = session?.user?.id;
  if (!id || !session.sid) return null;
  const user = await findSessionUser(session.sid, id, session.sv);
  if (!user) return null;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    locale: isLocale(user.locale) ? user.locale : DEFAULT_LOCALE,
    sessionId: session.sid,
    sessionVersion: user.sessionVersion,
  };
});

/** For long-lived responses (the feed stream): whether the session they started with still counts. */
export async function sessionStillValid(user: SessionUser): Promise<boolean> {
  const row = await findSessionUser(user.sessionId, user.id, user.sessionVersion);
  return !!row && row.role === user.role;
}

async function accessibleAccounts(user: SessionUser): Promise<AccessibleAccount[]> {
  const db = await getDb();
  if (user.role === "admin") {
    const rows = await db
      .select({ id: gatewayAccounts.id, name: gatewayAccounts.name, mode: gatewayAccounts.mode, source: gatewayAccounts.source })
      .from(gatewayAccounts)
      .orderBy(asc(gatewayAccounts.name));
    return rows.map((row) => ({ ...row, role: "admin" as const }));
  }
  return db
    .select({
      id: gatewayAccounts.id,
      name: gatewayAccounts.name,
      mode: gatewayAccounts.mode,
      source: gatewayAccounts.source,
      role: memberships.role,
    })
    .from(memberships)
    .innerJoin(gatewayAccounts, eq(gatewayAccounts.id, memberships.accountId))
    .where(eq(memberships.userId, user.id))
    .orderBy(asc(gatewayAccounts.name));
}

export const getAccessContext = cache(async (): Promise<AccessContext | null> => {
  const user = await getSessionUser();
  if (!user) return null;
  const accounts = await accessibleAccounts(user);
  const chosen = (await cookies()).get(ACCOUNT_COOKIE)?.value;
  // Without a choice yet, the deployment's own account (configured by GATEWAY_*) comes first.
  const account = accounts.find((a) => a.id === chosen) ?? accounts.find((a) => a.source === "env") ?? accounts[0] ?? null;
  return { user, accounts, account, ip: clientIp(await headers()) };
});

/**
 * Whether the context may use `permission`. An account permission is checked on the account named;
 * without one (a page across accounts, such as the activity feed) it asks whether any of the user's
 * accounts allows it. The remembered account (a cookie) never decides.
 */
export function can(ctx: AccessContext, permission: Permission, accountId?: string): boolean {
  if (isGlobalPermission(permission)) return roleCan(ctx.user.role, permission);
  if (accountId === undefined) return ctx.accounts.some((a) => roleCan(a.role, permission));
  const account = ctx.accounts.find((a) => a.id === accountId);
  return !!account && roleCan(account.role, permission);
}

export class AccessDeniedError extends Error {
  constructor(readonly reason: "unauthenticated" | "forbidden") {
    super(reason);
  }
}

/** For server actions and route handlers: throws AccessDeniedError instead of redirecting. */
export async function authorize(permission: Permission, accountId?: string): Promise<AccessContext> {
  const ctx = await getAccessContext();
  if (!ctx) throw new AccessDeniedError("unauthenticated");
  if (!can(ctx, permission, accountId)) throw new AccessDeniedError("forbidden");
  return ctx;
}

/** For pages: sends the visitor to sign in, or to the refusal page. */
export async function requirePage(permission?: Permission, accountId?: string): Promise<AccessContext> {
  const ctx = await getAccessContext();
  if (!ctx) redirect("/sign-in");
  if (permission && !can(ctx, permission, accountId)) redirect("/forbidden");
  return ctx;
}
