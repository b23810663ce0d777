/** The address of a page that works on one account: the account is in the URL, so a form submits to the account it shows. */
export function accountPath(accountId: string, path: string): string {
  return `/${encodeURIComponent(accountId)}${path}`;
}

/** The account named by an address made by `accountPath`, if any. */
export function accountInPath(pathname: string, accountIds: readonly string[]): string | null {
  let first: string;
  try {
    first = decodeURIComponent(pathname.split("/")[1] ?? "");
  } catch {
    return null; // a malformed escape names no account (the page itself answers not found)
  }
  return accountIds.includes(first) ? first : null;
}

/** Pages inside a feature that name no object: a switch of account keeps them. */
const STATIC_PAGES = new Set(["new", "unconfirmed"]);
/** Features whose first page is not a list. */
const FEATURE_HOME: Record<string, string> = { charges: "/charges/new" };

/**
 * The same page under another account, for the account switcher: a form or list stays what it
 * is, while an object's page (its id belongs to the first account) becomes its feature's list.
 */
export function samePageIn(accountId: string, pathname: string): string {
  const [feature, ...rest] = pathname.split("/").slice(2).filter(Boolean);
  if (!feature) return accountPath(accountId, "");
  const kept: string[] = [feature];
  for (const segment of rest) {
    if (!STATIC_PAGES.has(segment) && kept.at(-1) !== "new") break;
    kept.push(segment);
  }
  const path = `/${kept.join("/")}`;
  return accountPath(accountId, kept.length === 1 && rest.length > 0 ? (FEATURE_HOME[feature] ?? path) : path);
}
