import "server-only";
import { notFound, redirect } from "next/navigation";
import { can, requirePage, type AccessContext, type AccessibleAccount } from "./session";
import type { Permission } from "./permissions";
import { accountPath } from "@/lib/accounts/paths";
import { routeId, type RawSearchParams } from "@/lib/http/search-params";

/** The context of an account page or action: the account is the one its URL or input named, checked against the user's access. */
export type AccountContext = AccessContext & { account: AccessibleAccount };

/** For pages under `/[account]/…`: the account comes from the URL, never from a cookie. */
export async function requireAccountPage(permission: Permission, accountParam: string): Promise<AccountContext> {
  const ctx = await requirePage();
  const accountId = routeId(accountParam);
  const account = accountId ? ctx.accounts.find((a) => a.id === accountId) : undefined;
  if (!account) notFound();
  if (!can(ctx, permission, account.id)) redirect("/forbidden");
  return { ...ctx, account };
}

/** The accounts that allow `permission`, the remembered one first. */
function allowedAccounts(ctx: AccessContext, permission: Permission): AccessibleAccount[] {
  const allowed = ctx.accounts.filter((a) => can(ctx, permission, a.id));
  return [...allowed.filter((a) => a.id === ctx.account?.id), ...allowed.filter((a) => a.id !== ctx.account?.id)];
}

/** Old, account-less addresses (bookmarks, the sidebar) open the same page of the account the user is working on. */
export async function redirectToAccountPage(permission: Permission, path: string, searchParams: RawSearchParams = {}): Promise<never> {
  const ctx = await requirePage();
  if (ctx.accounts.length === 0) redirect("/accounts");
  // The remembered account when it allows the page, else the first that does.
  const [account] = allowedAccounts(ctx, permission);
  if (!account) redirect("/forbidden");
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(searchParams)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) query.append(key, one);
  }
  const search = query.size > 0 ? `?${query}` : "";
  redirect(`${accountPath(account.id, path)}${search}`);
}

/**
 * Old, account-less detail addresses (`/charges/<id>`, `/transfers/<id>`… from bookmarks and
 * e-mails written before the account was in every URL) are the one place that searches the
 * user's accounts for an object: the remembered account first, then the others the user may see
 * it in. The visitor is sent once to the object's address under its own account.
 */
export async function redirectToOwningAccount(
  permission: Permission,
  path: string,
  owns: (accountId: string) => Promise<boolean>,
): Promise<never> {
  const ctx = await requirePage();
  for (const account of allowedAccounts(ctx, permission)) {
    if (await owns(account.id)) redirect(accountPath(account.id, path));
  }
  notFound();
}
